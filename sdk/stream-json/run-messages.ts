/**
 * One prompt run on a kernel's main session, as the messages of the stream-json schema
 * (messages.ts): `system` init, then the main agent's and its sub-agents' events in the order they
 * happen, then the `result`. The headless UI prints them (`--output-format stream-json`) and the
 * programmatic API yields them, so both say exactly the same thing.
 */
import type { AgentEvent } from '../../types/events.js';
import { addUsage, emptyUsage, type Usage } from '../../types/messages.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { KernelApi } from '../../types/plugin.js';
import type { PromptJudgement } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import { claudePermissionMode } from '../claude-permission-mode.js';
import { monotonicMs } from '../monotonic-clock.js';
import { eventMessage } from './event-message.js';
import { MessageQueue } from './message-queue.js';
import type { StreamMessage } from './messages.js';
import { resultMessage } from './result-message.js';
import { ApiTime } from './api-time.js';

export interface RunMessagesOptions {
  prompt: string;
  /** The kernel's judgement of the typed command line `prompt` expanded from (RunOptions.judged). */
  judged?: PromptJudgement;
  mode: PermissionMode;
  /** The working directory the init message names. */
  cwd: string;
  signal?: AbortSignal;
  maxTurns?: number | undefined;
  defaultMaxTurns?: number;
  /** When the run began, for the result's duration (default: now). */
  startedMs?: number;
}

/**
 * The messages of one run. Without a `done` from the kernel (which every path of the agent loop
 * sends) the stream ends with no result; a throw of the run ends the iteration with that error.
 */
export function runMessages(kernel: KernelApi, options: RunMessagesOptions): AsyncIterable<StreamMessage> {
  const queue = new MessageQueue<StreamMessage>();
  pump(kernel, options, queue).then(
    () => queue.close(),
    (error: unknown) => queue.close(error ?? new Error('the run failed')),
  );
  return queue;
}

async function pump(kernel: KernelApi, options: RunMessagesOptions, queue: MessageQueue<StreamMessage>): Promise<void> {
  const started = options.startedMs ?? monotonicMs();
  const model = kernel.container.get(TOKENS.ProviderRegistry).active().model;
  const sessionId = kernel.session.sessionId;
  queue.push({ type: 'system', subtype: 'init', session_id: sessionId, cwd: options.cwd, model, permission_mode: claudePermissionMode(options.mode, kernel.cli?.dontAsk === true), mewcode_version: kernel.version });

  let lastError: string | undefined;
  let done: Extract<AgentEvent, { type: 'done' }> | undefined;
  // Sub-agents' tokens count in the result; their events stream tagged with who said them.
  // Counted per request as spent (not from `done`): a background task still running when the
  // main run ends has spent tokens too, and its `done` comes after the result, if ever.
  const subagentUsage = new Map<string, Usage>();
  const apiTime = new ApiTime();
  const runner = kernel.container.isBound(TOKENS.SubagentRunner) ? kernel.container.get(TOKENS.SubagentRunner) : undefined;
  const unsubscribe = runner?.subscribe?.((sub) => {
    apiTime.see(sub.agentId, sub.event);
    if (sub.event.type === 'usage') subagentUsage.set(sub.agentId, addUsage(subagentUsage.get(sub.agentId) ?? emptyUsage(), sub.event.usage));
    const message = eventMessage(sub.event, { sessionId, ...sub });
    if (message) queue.push(message);
  });
  try {
    const run = kernel.run({
      prompt: options.prompt,
      ...(options.judged ? { judged: options.judged } : {}),
      mode: options.mode,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      ...(options.defaultMaxTurns !== undefined ? { defaultMaxTurns: options.defaultMaxTurns } : {}),
    });
    for await (const event of run) {
      apiTime.see(kernel.session.agentId, event);
      if (event.type === 'done') done = event;
      if (event.type === 'error') lastError = event.message;
      const message = eventMessage(event, { sessionId, agentId: kernel.session.agentId });
      if (message) queue.push(message);
    }
  } finally {
    unsubscribe?.();
  }
  if (done) queue.push(resultMessage(done, lastError, { sessionId, model, durationMs: monotonicMs() - started, apiDurationMs: apiTime.totalMs(), subagentUsage }));
}
