/**
 * Where a policy's taps sit on the waterfalls whose last tap has the last word: preToolUse (the
 * call that will run: its input and the decision), postToolUse (a tool's output, on its way to the
 * model, the user and the session file), preModelRequest (the request on its way to the
 * provider) and userPromptSubmit (the context added to a prompt — the user's SessionStart and
 * UserPromptSubmit hooks' output, a command's — on its way to the model, and whether the prompt
 * is blocked), and buildSystemPrompt and buildEnvironment (the text the model is instructed by:
 * an organisation's rules for the model are a part there). A configured plugin tapped around a
 * required tap could undo it: keep the raw text before a DLP tap and put it back after it, strip
 * the `--dry-run` a policy added to a command, or drop the organisation's system-prompt part.
 * So the taps of a plugin the organisation or the configuration requires run after every other
 * configured plugin's, after the build's own taps at lower stages (the user's PreToolUse hooks, at
 * 0, whose `updatedInput` is a rewrite too), and before the build's recorders, which must record
 * what the policy let out. (checkPermission and stop, bail hooks, have their own rules:
 * permission-chain.ts, stop-order.ts.)
 */
import { AsyncSeriesWaterfallHook } from 'tapable';
import type { KernelHooks, PostToolUseContext } from '../types/hooks.js';
import type { ToolResult } from '../types/messages.js';
import { pluginOfTap, type InterceptableTap } from './hooks.js';

/** A required plugin's taps on these hooks run at this stage or later… */
export const POLICY_STAGE = 900;
/**
 * …and those of a plugin managed settings require (the organisation's) at this one or later: a
 * plugin the user requires in their own configuration (or that calls itself required) must not
 * stand after the organisation's DLP tap and put back what it removed.
 */
export const MANAGED_STAGE = 950;
/** …and before this one, where the build's recorders tap (permission-audit 1000, session 2000). */
export const RECORDER_STAGE = 1000;

/** The hooks whose value is what runs or leaves MewCode, and so what a policy rewrites. */
export const POLICY_HOOKS = ['preToolUse', 'postToolUse', 'preModelRequest', 'userPromptSubmit', 'buildSystemPrompt', 'buildEnvironment'] as const;

/**
 * Whose tap it is: the build's own plugin (or the host's tap), a plugin that configuration or
 * managed settings require, or another configured plugin.
 */
export type TapRank = 'build' | 'managed' | 'required' | 'configured';

/**
 * Re-stage every tap, present and future, of the policy hooks: a managed-required plugin's into
 * [MANAGED_STAGE, RECORDER_STAGE), another required plugin's into [POLICY_STAGE, MANAGED_STAGE),
 * any other configured plugin's below POLICY_STAGE; the build's are
 * left where they are. The rank is asked when the tap is made: plugins apply after the plugin set
 * (and so who is required) is resolved.
 */
export function orderPolicyTaps(hooks: KernelHooks, rankOf: (plugin: string) => TapRank): void {
  for (const name of POLICY_HOOKS) {
    const hook = hooks[name] as unknown as { intercept(interceptor: { register(tap: InterceptableTap): InterceptableTap }): void };
    hook.intercept({
      register: (tap) => {
        const rank = rankOf(pluginOfTap(tap.name));
        if (rank === 'build') return tap;
        const stage = typeof tap.stage === 'number' && !Number.isNaN(tap.stage) ? tap.stage : 0;
        // tapable's `before` would place the tap ahead of a named tap whatever its stage (the
        // facade refuses it already; a tap the kernel re-stages keeps no other say in its place).
        const { before: _before, ...rest } = tap as InterceptableTap & { before?: unknown };
        const [low, high] = rank === 'managed' ? [MANAGED_STAGE, RECORDER_STAGE - 1] : rank === 'required' ? [POLICY_STAGE, MANAGED_STAGE - 1] : [-Infinity, POLICY_STAGE - 1];
        return { ...rest, stage: Math.min(Math.max(stage, low), high) };
      },
    });
  }
}

/**
 * The required plugins' postToolUse taps alone, in their order, over `result` (KernelApi
 * requiredPostToolUse): for a build plugin that taps after them (the user's PostToolUse hooks, so
 * they are sent only what the policies let out) and must put what it adds through them too. The
 * taps are the guarded ones the kernel holds: a failing policy withholds here as it does there.
 */
export async function requiredPostToolUse(hooks: KernelHooks, isRequired: (plugin: string) => boolean, result: ToolResult, context: PostToolUseContext): Promise<ToolResult> {
  const only = new AsyncSeriesWaterfallHook<[ToolResult, PostToolUseContext]>(['result', 'context']);
  const taps = (hooks.postToolUse as unknown as { taps: readonly InterceptableTap[] }).taps;
  for (const tap of taps) {
    if (!isRequired(pluginOfTap(tap.name))) continue;
    const options = { name: tap.name, stage: tap.stage ?? 0 };
    const fn = tap.fn as never;
    if (tap.type === 'promise') only.tapPromise(options, fn);
    else if (tap.type === 'async') only.tapAsync(options, fn);
    else only.tap(options, fn);
  }
  return only.promise(result, context);
}
