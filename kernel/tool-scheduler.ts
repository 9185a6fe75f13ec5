/**
 * Ordered batch concurrency. Consecutive concurrency-safe calls — read-only tools, and calls a tool
 * says write nothing (`Tool.concurrencySafe`, e.g. bash running `sleep 1`) — form a batch whose
 * gates run first, one after another (so approval questions never interleave), whose starts are
 * announced together, which run concurrently (at most `maxConcurrency` at once), and whose ends
 * are announced in the original order. A call that may write runs alone, in the model's order.
 * Results always come back in the order the model asked, each paired with its call id. A request
 * to end the run (a preToolUse or postToolUse tap's `stopRun`) lets its batch finish and keeps
 * the later batches from starting.
 */
import type { AgentEvent } from '../types/events.js';
import type { ToolCall, ToolResult } from '../types/messages.js';
import type { Tool, ToolInput } from '../types/tools.js';
import type { KernelHooks, RunContext, RunStop } from '../types/hooks.js';
import type { AgentSession } from '../types/session.js';
import { frozenCopy } from './decision-shapes.js';
import { errorResult, gateToolCall, parseToolInput, type GateDeps, type GateOutcome } from './tool-call-gate.js';
import { errorMessage } from './plugin-error.js';
import { CANCELLED_BEFORE_START, reportToolThrow, runTool } from './tool-runner.js';
import { toolOutputGate } from './tool-output-gate.js';
import { monotonicMs } from '../types/monotonic-clock.js';

export interface SchedulerDeps extends GateDeps {
  hooks: KernelHooks;
  run: RunContext;
  session: AgentSession;
  signal: AbortSignal;
  defaultTimeoutMs: number;
  /** How many calls of a batch run at once. */
  maxConcurrency: number;
  emit(event: AgentEvent): void;
}

export interface ScheduledResults {
  results: ToolResult[];
  /** false when the run was cancelled; unfinished calls then hold "cancelled" results (L4). */
  completed: boolean;
  /**
   * A hook's or plugin's request to end the run (the first, in the model's order): the batch it
   * came in finished, the calls after it did not run (their results say so), and the loop asks
   * the model nothing more.
   */
  stopRun?: RunStop;
}

/** The result of a call a request to end the run kept from starting: for the history, without the user's reason. */
export const notRunStopped = (stop: RunStop): string => `Not run: ${stop.by} stopped the run before this call started.`;

export async function runToolCalls(calls: readonly ToolCall[], deps: SchedulerDeps): Promise<ScheduledResults> {
  const results: ToolResult[] = new Array(calls.length);
  const stops: (RunStop | undefined)[] = new Array(calls.length);
  // One call has nobody to run beside: no need to ask (a tool's answer may cost a parse).
  const safe = calls.length > 1 ? await Promise.all(calls.map((call) => concurrencySafe(deps.tools.get(call.name), parsedInput(call)))) : [false];
  let i = 0;
  let stopRun: RunStop | undefined;
  while (i < calls.length) {
    if (deps.signal.aborted) break;
    let end = i + 1;
    if (safe[i]) while (end < calls.length && safe[end]) end++;
    await runBatch(calls, i, end, results, stops, deps);
    i = end;
    stopRun = stops.find((stop) => stop !== undefined);
    if (stopRun) break;
  }
  for (let k = 0; k < calls.length; k++) {
    if (!results[k]) results[k] = errorResult(calls[k] as ToolCall, stopRun && !deps.signal.aborted ? notRunStopped(stopRun) : CANCELLED_BEFORE_START);
  }
  return { results, completed: !deps.signal.aborted, ...(stopRun ? { stopRun } : {}) };
}

function parsedInput(call: ToolCall): ToolInput | undefined {
  const parsed = parseToolInput(call.input);
  return parsed.ok ? parsed.input : undefined;
}

/** Read-only, or safe by the tool's own judgement of this input; anything unexpected is "may write". */
async function concurrencySafe(tool: Tool | undefined, input: ToolInput | undefined): Promise<boolean> {
  if (!tool || input === undefined) return true; // an error result: it runs nothing
  if (tool.readOnly) return true;
  if (!tool.concurrencySafe) return false;
  try {
    return (await tool.concurrencySafe(input)) === true;
  } catch {
    return false;
  }
}

/** Run `work` over `items` with at most `limit` at once; resolves when all have. */
async function withLimit<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

async function runBatch(calls: readonly ToolCall[], from: number, to: number, results: ToolResult[], stops: (RunStop | undefined)[], deps: SchedulerDeps): Promise<void> {
  const gates: GateOutcome[] = [];
  for (let k = from; k < to; k++) {
    if (deps.signal.aborted) break;
    const call = calls[k] as ToolCall;
    // K1: nothing a tool does while being checked (e.g. a throwing permissionTarget) reaches the loop.
    gates.push(
      await gateToolCall(call, deps).catch((error: unknown) => {
        reportToolThrow(deps.hooks, deps.tools.get(call.name), call.name, error);
        return { run: false as const, result: errorResult(call, `Tool ${call.name} failed: ${errorMessage(error)}`) };
      }),
    );
  }
  // Cancelled while a gate waited (a question, a plugin): nothing of the batch starts; a refusal
  // already given stays the call's result, the others are cancelled.
  gates.forEach((gate, offset) => {
    if (gate.stopRun) stops[from + offset] = gate.stopRun;
  });
  if (deps.signal.aborted) {
    gates.forEach((gate, offset) => {
      if (!gate.run) results[from + offset] = gate.result;
    });
    return;
  }
  // A PreToolUse hook may have rewritten an input: a batch whose gated inputs are not all still
  // safe runs one call at a time, in order. (Judged again on what will run; parses are cached.)
  const stillSafe = to - from === 1 || (await Promise.all(gates.map((gate) => (gate.run ? concurrencySafe(gate.tool, gate.input) : true)))).every(Boolean);
  for (let k = from; k < to; k++) deps.emit({ type: 'tool_start', call: calls[k] as ToolCall });

  const durations: number[] = [];
  await withLimit(
    gates,
    stillSafe ? deps.maxConcurrency : 1,
    async (gate, offset) => {
      const call = calls[from + offset] as ToolCall;
      const started = monotonicMs();
      if (!gate.run) {
        results[from + offset] = gate.result;
        durations[offset] = 0;
        return;
      }
      const output = toolOutputGate(deps.hooks, deps.run, call, gate.tool, gate.input, deps.iteration, started);
      const ran = await runTool(call, gate.tool, gate.input, {
        signal: deps.signal,
        projectRoot: deps.run.projectRoot,
        homeDir: deps.run.homeDir,
        sessionId: deps.run.sessionId,
        agentId: deps.run.agentId,
        session: deps.session,
        defaultTimeoutMs: deps.defaultTimeoutMs,
        onProgress: (progress) => deps.emit({ type: 'tool_progress', call, progress: { ...progress } }),
        lateOutput: output.late,
        onThrow: (error) => reportToolThrow(deps.hooks, gate.tool, call.name, error),
        permissionTarget: gate.target,
      });
      const durationMs = monotonicMs() - started;
      const passed = await output.result(ran, durationMs, deps.signal.aborted);
      results[from + offset] = passed.result;
      if (passed.stopRun) stops[from + offset] ??= passed.stopRun;
      durations[offset] = durationMs;
    },
  );
  for (let k = from; k < to; k++) {
    deps.emit({ type: 'tool_end', call: calls[k] as ToolCall, result: results[k] as ToolResult, durationMs: durations[k - from] ?? 0 });
  }
}
