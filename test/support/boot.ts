/** Boots a real kernel with the given plugins and the in-memory provider; collects events. */
import type { AgentEvent } from '../../types/events.js';
import type { MewcodePlugin } from '../../types/plugin.js';
import type { PermissionMode } from '../../types/permissions.js';
import { Kernel, type KernelOptions } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import permissionMode from '../../plugins/permission-mode/index.js';
import { memoryEnv, memoryModel, type MemoryModel, type Step } from './memory-provider.js';

export interface Booted {
  kernel: Kernel;
  model: MemoryModel;
  reporter: MemoryReporter;
}

export async function bootKernel(steps: Step[], plugins: MewcodePlugin[] = [], options: Partial<KernelOptions> = {}): Promise<Booted> {
  const model = memoryModel(steps);
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({
    plugins: [model.plugin, permissionMode, ...plugins],
    projectRoot: '/tmp/project',
    homeDir: '/tmp/home',
    env: memoryEnv,
    reporter,
    ...options,
  });
  return { kernel, model, reporter };
}

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export async function runPrompt(kernel: Kernel, prompt: string, mode: PermissionMode = 'bypassPermissions', signal?: AbortSignal): Promise<AgentEvent[]> {
  return collect(kernel.run(signal ? { prompt, mode, signal } : { prompt, mode }));
}

export function doneEvent(events: AgentEvent[]): Extract<AgentEvent, { type: 'done' }> {
  const done = events.filter((e): e is Extract<AgentEvent, { type: 'done' }> => e.type === 'done');
  if (done.length !== 1) throw new Error(`expected exactly one done event, got ${done.length}`);
  return done[0]!;
}
