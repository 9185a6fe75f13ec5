/**
 * A call a plugin makes itself, before a prompt is sent (a custom command's `!` line, its `@path`
 * reads): through the very gate a model's call goes through — the registered tool, its input
 * checked, preToolUse, the permission chain, every decision announced on `permissionDecided` —
 * then the tool's own timeout (or the plugin's own reading, `perform`) and postToolUse. The one
 * difference: nobody is asked. Such a call
 * runs only on an outright allow (a preToolUse or layer `ask` refuses it), so neither the UI nor a
 * plugin's requestApproval tap answers for it, and no tool events reach the UI.
 */
import { AsyncSeriesBailHook } from 'tapable';
import type { KernelHooks, RunContext } from '../types/hooks.js';
import type { ToolCall, ToolResult } from '../types/messages.js';
import type { AgentSession } from '../types/session.js';
import type { PermissionChain } from './permission-chain.js';
import { checkedInput, gateToolCall, errorResult, parseToolInput, type GateOutcome } from './tool-call-gate.js';
import { sameData } from './decision-shapes.js';
import { reportToolThrow, runTool } from './tool-runner.js';
import { toolOutputGate } from './tool-output-gate.js';
import type { ToolLookup } from './tool-view.js';
import { errorMessage } from './plugin-error.js';
import { monotonicMs } from '../types/monotonic-clock.js';

export interface PluginCallDeps {
  hooks: KernelHooks;
  tools: ToolLookup;
  chain: PermissionChain;
  run: RunContext;
  defaultTimeoutMs: number;
}

/** The kernel's hooks with no requestApproval tap: an `ask` finds no one to answer it. */
function withoutApprovers(hooks: KernelHooks): KernelHooks {
  return Object.freeze({ ...hooks, requestApproval: new AsyncSeriesBailHook(['request']) }) as unknown as KernelHooks;
}

/** The gate's outcome for a plugin's own call (announced on `permissionDecided` like any). */
function gatePluginCall(call: ToolCall, deps: PluginCallDeps, signal?: AbortSignal): Promise<GateOutcome> {
  return gateToolCall(call, {
    ...(signal ? { signal } : {}),
    hooks: withoutApprovers(deps.hooks),
    tools: deps.tools,
    chain: deps.chain,
    run: deps.run,
    iteration: 0,
    emit: () => undefined,
    approve: async () => undefined,
    // A plugin's own call has no model turn to add context to.
    addContext: () => undefined,
  }).catch((error: unknown): GateOutcome => {
    reportToolThrow(deps.hooks, deps.tools.get(call.name), call.name, error);
    return { run: false, result: errorResult(call, `Tool ${call.name} failed: ${errorMessage(error)}`) };
  });
}

/** What a plugin does in the tool's place once the gate allowed the call (it reads the file its own way). */
export type PluginPerform = () => Promise<{ content: string; isError?: boolean }>;

/**
 * `ran`: whether the gate let the call run (false: `result` says who refused it and why).
 * `perform`, when given, runs instead of the tool; its output passes postToolUse all the same.
 */
export async function callToolForPlugin(call: ToolCall, session: AgentSession, signal: AbortSignal, deps: PluginCallDeps, perform?: PluginPerform): Promise<{ ran: boolean; result: ToolResult }> {
  const gate = await gatePluginCall(call, deps, signal);
  if (!gate.run) return { ran: false, result: gate.result };
  // The plugin's own reading knows only the input it asked with: a preToolUse tap that rewrote
  // it (a policy sending the read elsewhere) would be judged on one file and see another read.
  const asked = perform ? await checkedInput(gate.tool, parseToolInput(call.input)) : undefined;
  if (asked && (!asked.ok || !sameData(gate.input, asked.input))) {
    return { ran: false, result: errorResult(call, `Not run: a preToolUse tap changed this ${call.name} call's input, and the plugin that made the call does the reading itself, so it cannot follow the change.`) };
  }
  const { run } = deps;
  const started = monotonicMs();
  const output = toolOutputGate(deps.hooks, run, call, gate.tool, gate.input, 0, started);
  const result = perform
    ? await perform().then(
        (output): ToolResult => ({ toolCallId: call.id, content: output.content, isError: output.isError ?? false }),
        (error: unknown) => errorResult(call, `Tool ${call.name} failed: ${errorMessage(error)}`),
      )
    : await runTool(call, gate.tool, gate.input, {
        signal,
        projectRoot: run.projectRoot,
        homeDir: run.homeDir,
        sessionId: run.sessionId,
        agentId: run.agentId,
        session,
        defaultTimeoutMs: deps.defaultTimeoutMs,
        lateOutput: output.late,
        onThrow: (error) => reportToolThrow(deps.hooks, gate.tool, call.name, error),
        permissionTarget: gate.target,
      });
  // A plugin's own call has no run for a tap's stopRun to end.
  return { ran: true, result: (await output.result(result, monotonicMs() - started, signal.aborted)).result };
}

