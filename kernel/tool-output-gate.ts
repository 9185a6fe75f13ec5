/**
 * postToolUse for one call, with the call's frozen context: the result the call returned, and
 * anything it hands over after it returned (ToolContext.lateOutput: a background task's report).
 * Both pass the same taps with copies, so no tap changes what a later one (the audit log) records,
 * and a policy that redacts or withholds tool output sees everything a call ever delivers. A tap's
 * request to end the run (`stopRun`) is taken out of the result here: only the loop acts on it
 * (a late output has no run left to end).
 */
import type { KernelHooks, PostToolUseResult, RunContext, RunStop } from '../types/hooks.js';
import type { ToolCall, ToolResult } from '../types/messages.js';
import type { Tool, ToolInput, ToolOutput } from '../types/tools.js';
import { monotonicMs } from '../types/monotonic-clock.js';
import { frozenCopy } from './decision-shapes.js';

/** What postToolUse let out: the result (nothing else in it), and a tap's request to end the run. */
export interface PassedResult {
  result: ToolResult;
  stopRun?: RunStop;
}

export interface ToolOutputGate {
  /** The call's own result, `durationMs` after it started; `interrupted`: the run was cancelled by then. */
  result(result: ToolResult, durationMs: number, interrupted?: boolean): Promise<PassedResult>;
  /** What the call hands over later (its duration then counts to that moment). */
  late(output: ToolOutput): Promise<ToolOutput>;
}

export function toolOutputGate(hooks: KernelHooks, run: RunContext, call: ToolCall, tool: Tool, input: ToolInput, iteration: number, startedAt: number): ToolOutputGate {
  const pass = ({ exitCode, streams, ...result }: ToolResult, durationMs: number, interrupted?: boolean): Promise<PostToolUseResult> =>
    // The exit status and the separate streams are the call's, not the result's: the context carries them, history never does.
    hooks.postToolUse.promise(result, Object.freeze({ ...run, call: Object.freeze({ ...call }), tool, input: frozenCopy(input) as ToolInput, iteration, durationMs, ...(interrupted !== undefined ? { interrupted } : {}), ...(exitCode !== undefined ? { exitCode } : {}), ...(streams !== undefined ? { streams: Object.freeze({ ...streams }) } : {}) }));
  return {
    // `stopRun` is the loop's to act on, never part of the result that goes into history.
    async result(result, durationMs, interrupted = false) {
      const { stopRun, ...passed } = await pass(result, durationMs, interrupted);
      return stopRun ? { result: passed, stopRun } : { result: passed };
    },
    async late(output) {
      const passed = await pass({ toolCallId: call.id, content: output.content, isError: output.isError ?? false }, monotonicMs() - startedAt);
      return { content: passed.content, ...(passed.isError ? { isError: true } : {}) };
    },
  };
}
