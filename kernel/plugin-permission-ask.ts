/**
 * A start a plugin makes on the session's behalf that a tool call would otherwise make — a fork
 * skill's, a command file's or a hook's sub-agent is what the `agent` tool's call starts — judged
 * as that call: the registered tool's own request and target (the sub-agent type, a `named`
 * target), every permission layer and floor, and, when the chain asks, the question put as for a
 * model's call (requestApproval taps, then the UI; no one to answer: refused). So a deny or ask
 * rule naming the sub-agent type holds whichever route starts it. Every outcome is announced on
 * permissionDecided (the audit log records it, `made_by` the plugin).
 *
 * Of preToolUse, only the required plugins' taps run (an organisation's policy, which may judge
 * `agent` there): no tool call is made, and a user's hook whose action starts a sub-agent would
 * otherwise be asked about its own start, again and again.
 */
import type { KernelHooks, RunContext } from '../types/hooks.js';
import type { ToolCall } from '../types/messages.js';
import type { ApprovalOutcome, ApprovalRequest } from '../types/permissions.js';
import type { PluginPermissionAnswer } from '../types/plugin.js';
import { createHooks, pluginOfTap, type InterceptableTap } from './hooks.js';
import type { PermissionChain } from './permission-chain.js';
import { errorMessage } from './plugin-error.js';
import { gateToolCall } from './tool-call-gate.js';
import type { ToolLookup } from './tool-view.js';

export interface PluginAskDeps {
  hooks: KernelHooks;
  tools: ToolLookup;
  chain: PermissionChain;
  run: RunContext;
  approve(request: ApprovalRequest): Promise<ApprovalOutcome | undefined>;
  signal?: AbortSignal;
  /** Whether a plugin is required (on the plugin, by configuration or managed settings, or a build's own declaring it). */
  isRequired(plugin: string): boolean;
}

/**
 * The kernel's hooks with a preToolUse holding only the required plugins' taps, each as tapped
 * (already guarded: a failure denies), in its order and stage.
 */
function requiredPreToolUse(hooks: KernelHooks, isRequired: (plugin: string) => boolean): KernelHooks {
  const preToolUse = createHooks().preToolUse;
  for (const tap of hooks.preToolUse.taps as unknown as InterceptableTap[]) {
    if (!isRequired(pluginOfTap(tap.name))) continue;
    const options = { name: tap.name, ...(tap.stage !== undefined ? { stage: tap.stage } : {}) };
    const fn = tap.fn as never;
    if (tap.type === 'promise') preToolUse.tapPromise(options, fn);
    else if (tap.type === 'async') preToolUse.tapAsync(options, fn);
    else preToolUse.tap(options, fn);
  }
  return Object.freeze({ ...hooks, preToolUse }) as KernelHooks;
}

export async function askPermissionForPlugin(call: ToolCall, deps: PluginAskDeps): Promise<PluginPermissionAnswer> {
  try {
    const gate = await gateToolCall(call, {
      ...(deps.signal ? { signal: deps.signal } : {}),
      hooks: requiredPreToolUse(deps.hooks, deps.isRequired),
      tools: deps.tools,
      chain: deps.chain,
      run: deps.run,
      iteration: 0,
      emit: () => undefined,
      approve: deps.approve,
      addContext: () => undefined,
    });
    return gate.run ? { allowed: true } : { allowed: false, reason: gate.result.content };
  } catch (error) {
    // A failure on the way is a refusal, never a start nobody judged.
    return { allowed: false, reason: `the permission check failed: ${errorMessage(error)}` };
  }
}
