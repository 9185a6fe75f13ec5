/**
 * SPEC L3: ordered batch concurrency. Consecutive read-only calls form a batch whose gates run
 * first, whose starts are announced together, which run concurrently, and whose ends are
 * announced in the original order. A call with side effects runs alone. Results always come
 * back in the order the model asked, each paired with its call id.
 */
import type { AgentEvent } from '../types/events.js';
import type { ToolCall, ToolResult } from '../types/messages.js';
import type { KernelHooks, RunContext } from '../types/hooks.js';
import type { AgentSession } from '../types/session.js';
import { errorResult, gateToolCall, type GateDeps, type GateOutcome } from './tool-call-gate.js';
import { errorMessage } from './plugin-error.js';
import { CANCELLED_BEFORE_START, runTool } from './tool-runner.js';
import { monotonicMs } from '../sdk/monotonic-clock.js';

export interface SchedulerDeps extends GateDeps {
  hooks: KernelHooks;
  run: RunContext;
  session: AgentSession;
  signal: AbortSignal;
  defaultTimeoutMs: number;
  emit(event: AgentEvent): void;
}

export interface ScheduledResults {
  results: ToolResult[];
  /** false when the run was cancelled; unfinished calls then hold "cancelled" results (L4). */
  completed: boolean;
}

export async function runToolCalls(calls: readonly ToolCall[], deps: SchedulerDeps): Promise<ScheduledResults> {
  const results: ToolResult[] = new Array(calls.length);
  const isReadOnly = (call: ToolCall): boolean => deps.tools.get(call.name)?.readOnly === true;
  let i = 0;
  while (i < calls.length) {
    if (deps.signal.aborted) break;
    let end = i + 1;
    if (isReadOnly(calls[i] as ToolCall)) while (end < calls.length && isReadOnly(calls[end] as ToolCall)) end++;
    await runBatch(calls, i, end, results, deps);
    i = end;
  }
  for (let k = 0; k < calls.length; k++) {
    if (!results[k]) results[k] = errorResult(calls[k] as ToolCall, CANCELLED_BEFORE_START);
  }
  return { results, completed: !deps.signal.aborted };
}

async function runBatch(calls: readonly ToolCall[], from: number, to: number, results: ToolResult[], deps: SchedulerDeps): Promise<void> {
  const gates: GateOutcome[] = [];
  for (let k = from; k < to; k++) {
    if (deps.signal.aborted) return;
    const call = calls[k] as ToolCall;
    // K1: nothing a tool does while being checked (e.g. a throwing permissionTarget) reaches the loop.
    gates.push(await gateToolCall(call, deps).catch((error: unknown) => ({ run: false as const, result: errorResult(call, `Tool ${call.name} failed: ${errorMessage(error)}`) })));
  }
  for (let k = from; k < to; k++) deps.emit({ type: 'tool_start', call: calls[k] as ToolCall });

  const durations: number[] = [];
  await Promise.all(
    gates.map(async (gate, offset) => {
      const call = calls[from + offset] as ToolCall;
      const started = monotonicMs();
      let result = gate.run
        ? await runTool(call, gate.tool, gate.input, {
            signal: deps.signal,
            projectRoot: deps.run.projectRoot,
            homeDir: deps.run.homeDir,
            sessionId: deps.run.sessionId,
            agentId: deps.run.agentId,
            session: deps.session,
            defaultTimeoutMs: deps.defaultTimeoutMs,
            onProgress: (progress) => deps.emit({ type: 'tool_progress', call, progress: { ...progress } }),
          })
        : gate.result;
      const durationMs = monotonicMs() - started;
      if (gate.run) {
        result = await deps.hooks.postToolUse.promise(result, {
          ...deps.run,
          call,
          tool: gate.tool,
          input: gate.input,
          iteration: deps.iteration,
          durationMs,
        });
      }
      results[from + offset] = result;
      durations[offset] = durationMs;
    }),
  );
  for (let k = from; k < to; k++) {
    deps.emit({ type: 'tool_end', call: calls[k] as ToolCall, result: results[k] as ToolResult, durationMs: durations[k - from] ?? 0 });
  }
}
