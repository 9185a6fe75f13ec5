/** Small real tools for kernel tests, contributed by a plugin like any other tool. */
import { ContainerModule } from 'inversify';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { Tool, ToolContext, ToolInput } from '../../types/tools.js';

export interface ToolLog {
  events: string[];
}

/** A read-only tool that waits `ms` (honouring its signal) then echoes `text`. */
export function sleepTool(log: ToolLog, name = 'sleep_read'): Tool {
  return {
    name,
    description: 'Waits, then echoes text.',
    inputSchema: { type: 'object', properties: { ms: { type: 'number' }, text: { type: 'string' } } },
    readOnly: true,
    async execute(input: ToolInput, ctx: ToolContext) {
      log.events.push(`start:${String(input.text)}`);
      await abortableDelay(Number(input.ms ?? 0), ctx.signal);
      log.events.push(`end:${String(input.text)}`);
      return { content: `echo ${String(input.text)}` };
    },
  };
}

/** A side-effect tool that records its calls. */
export function writeTool(log: ToolLog, name = 'write_note'): Tool {
  return {
    name,
    description: 'Writes a note.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    readOnly: false,
    category: 'write',
    permissionTarget: (input) => ({ kind: 'path', path: String(input.text) }),
    async execute(input: ToolInput, ctx: ToolContext) {
      log.events.push(`write:${String(input.text)}`);
      await abortableDelay(Number(input.ms ?? 0), ctx.signal);
      return { content: `wrote ${String(input.text)}` };
    },
  };
}

export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    }, { once: true });
  });
}

export function toolsPlugin(tools: Tool[], name = 'test-tools'): MewcodePlugin {
  return definePlugin({
    name,
    bindings: new ContainerModule(({ bind }) => {
      for (const tool of tools) bind(TOKENS.Tool).toConstantValue(tool);
    }),
  });
}

/** A read-only tool that takes no input and returns `content` (calling `onRun` first, if given). */
export function constantTool(name: string, content: string, onRun?: () => void): Tool {
  return {
    name,
    description: `Returns a fixed text (${name}).`,
    inputSchema: { type: 'object', properties: {} },
    readOnly: true,
    category: 'read',
    async execute() {
      onRun?.();
      return { content };
    },
  };
}
