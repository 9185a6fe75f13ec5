/**
 * Builds the hooks from the one catalogue (types/hook-catalogue.ts) and guards every tap, present
 * and future: a throwing tap is reported as `plugin X failed in hook Y: …` and degrades by the
 * catalogue's failure policy (permission and approval taps fail closed, waterfalls keep their
 * value, the rest are skipped), so one broken plugin never kills a run and never opens a permission;
 * a required plugin's failure fails closed everywhere (required-failures.ts).
 * What the hook takes instead (a withheld result, a refusal, a deny reason) names the plugin, the
 * hook and the class of what it threw, never its message (PluginError.sharedMessage): that is
 * for the user's own warning.
 */
import tapable from 'tapable';
import { HOOK_CATALOGUE, type HookFailure, type HookSpec } from '../types/hook-catalogue.js';
import type { HookName, KernelHooks, PostToolUseResult, PromptSubmission, ToolUseDecision } from '../types/hooks.js';
import type { ApprovalOutcome, PermissionVerdict } from '../types/permissions.js';
import { ModelRequestRefused } from './model-request.js';
import { PluginError } from './plugin-error.js';
import { holdRequiredFailure, PROMPT_BUILDERS } from './required-failures.js';
import { recordRequiredParts } from './required-parts.js';
import { withFrozenArguments } from './tap-arguments.js';

type AnyHookClass = new (args: string[]) => unknown;
const classes: Record<HookSpec['class'], AnyHookClass> = {
  AsyncSeriesHook: tapable.AsyncSeriesHook as unknown as AnyHookClass,
  AsyncSeriesBailHook: tapable.AsyncSeriesBailHook as unknown as AnyHookClass,
  AsyncSeriesWaterfallHook: tapable.AsyncSeriesWaterfallHook as unknown as AnyHookClass,
  SyncWaterfallHook: tapable.SyncWaterfallHook as unknown as AnyHookClass,
  AsyncParallelHook: tapable.AsyncParallelHook as unknown as AnyHookClass,
};

export const HOOK_NAMES = Object.keys(HOOK_CATALOGUE) as HookName[];

/** A fresh, frozen set of hooks, one per catalogue entry. */
export function createHooks(): KernelHooks {
  const hooks: Record<string, unknown> = {};
  for (const name of HOOK_NAMES) {
    const spec = HOOK_CATALOGUE[name] as HookSpec;
    hooks[name] = new classes[spec.class]([...spec.args]);
  }
  return Object.freeze(hooks) as unknown as KernelHooks;
}

/** The tap object tapable stores (what a `register` interceptor sees and returns). */
export interface InterceptableTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  stage?: number;
  fn: (...args: unknown[]) => unknown;
}

/** Rewrites a tap's function before the failure guard wraps it (e.g. the permission chain rules). */
export type TapTransform = (tap: InterceptableTap) => InterceptableTap['fn'];

type Fallback = (args: unknown[], error: PluginError) => unknown;

/**
 * A postToolUse tap that fails may be the one that redacts the output: the output does not go on
 * (to the model, the user, the session file); an error result naming the plugin does.
 */
export function withheldResult(result: PostToolUseResult, problem: string): PostToolUseResult {
  // An earlier tap's request to end the run stands.
  const stop = result.stopRun ? { stopRun: result.stopRun } : {};
  return { toolCallId: result.toolCallId, isError: true, content: `Output withheld: ${problem}. The tool ran, but its output is not passed on while a plugin that checks it fails.`, ...stop };
}

const fallbacks: Record<HookFailure, Fallback> = {
  skip: () => undefined,
  'keep-value': (args) => args[0],
  deny: () => undefined, // replaced per hook below: a verdict or an outcome that denies
  withhold: (args, error) => withheldResult(args[0] as PostToolUseResult, error.sharedMessage),
  // The tap may be a DLP scrub or a model allowlist: the request is not sent.
  refuse: (_args, error) => {
    throw new ModelRequestRefused(error.pluginName, error.sharedMessage);
  },
};

function fallbackFor(name: HookName): Fallback {
  if (name === 'checkPermission') {
    return (_args, error): PermissionVerdict => ({ decision: 'deny', layer: error.pluginName, reason: `${error.sharedMessage} (denied because a permission layer failed)` });
  }
  if (name === 'requestApproval') {
    return (_args, error): ApprovalOutcome => ({ choice: 'deny', answeredBy: error.pluginName, reason: error.sharedMessage });
  }
  // A policy's tap that throws must not let the call run or the prompt through.
  if (name === 'preToolUse') {
    return (args, error): ToolUseDecision => {
      const previous = args[0] as ToolUseDecision;
      const stop = previous.stopRun ? { stopRun: previous.stopRun } : {};
      return { input: previous.input, additionalContext: previous.additionalContext, decision: 'deny', reason: `${error.sharedMessage} (denied because a preToolUse tap failed)`, by: error.pluginName, ...stop };
    };
  }
  if (name === 'userPromptSubmit') {
    return (args, error): PromptSubmission => ({
      additionalContext: (args[0] as PromptSubmission).additionalContext,
      block: { block: true, reason: `${error.sharedMessage} (blocked because a userPromptSubmit tap failed)`, by: error.pluginName },
    });
  }
  return fallbacks[(HOOK_CATALOGUE[name] as HookSpec).failure];
}

/**
 * Waterfalls whose value can become final: once a prompt is blocked or a tool call denied, later
 * taps are not called (the first blocking rule wins, H6), so no tap can quietly unblock it.
 */
const settled: Partial<Record<HookName, (value: unknown) => boolean>> = {
  userPromptSubmit: (value) => (value as PromptSubmission | undefined)?.block !== undefined,
  preToolUse: (value) => (value as ToolUseDecision | undefined)?.decision === 'deny',
};

/** The plugin a tap name blames: `plugin` or `plugin:detail`. */
export function pluginOfTap(tapName: string): string {
  const colon = tapName.indexOf(':');
  return colon > 0 ? tapName.slice(0, colon) : tapName;
}

/** Each guarded set of hooks' failure report (the kernel's: each warning once, the stack under --debug). */
const failureReports = new WeakMap<KernelHooks, (error: PluginError) => void>();

/**
 * Reports a plugin's failure that happened outside a tap (a tool that threw) the way a failing
 * tap of these hooks is reported; nothing when the hooks are not guarded (a bare test set).
 */
export function reportPluginFailure(hooks: KernelHooks, error: PluginError): void {
  failureReports.get(hooks)?.(error);
}

/** Wrap every tap of every hook with the hook's semantics and plugin-named error handling. */
export function guardHooks(
  hooks: KernelHooks,
  report: (error: PluginError) => void,
  transforms: Partial<Record<HookName, TapTransform>> = {},
  /** Whose failures fail closed on every hook (required-failures.ts); asked when a tap is made. */
  isRequired: (plugin: string) => boolean = () => false,
): void {
  failureReports.set(hooks, report);
  for (const name of HOOK_NAMES) {
    const hook = hooks[name] as unknown as { intercept(i: { register(tap: InterceptableTap): InterceptableTap }): void };
    const fallback = fallbackFor(name);
    const requiredFallback = requiredFallbackFor(hooks, name, fallback);
    const isSettled = settled[name];
    const transform = transforms[name];
    hook.intercept({
      register: (tap) => {
        const shown = withFrozenArguments(name, tap, tap.fn);
        let fn = transform ? transform({ ...tap, fn: shown }) : shown;
        if (isSettled) fn = skipWhenSettled(tap, fn, isSettled);
        const required = isRequired(pluginOfTap(tap.name));
        if (required && (PROMPT_BUILDERS.has(name) || name === 'userPromptSubmit')) fn = recordingParts(hooks, tap, fn);
        return { ...tap, fn: guardTap({ ...tap, fn }, name, required ? requiredFallback : fallback, report) };
      },
    });
  }
}

/** A required plugin's prompt-builder or userPromptSubmit tap, whose parts the kernel keeps (required-parts.ts). */
function recordingParts(hooks: KernelHooks, tap: InterceptableTap, fn: InterceptableTap['fn']): InterceptableTap['fn'] {
  const plugin = pluginOfTap(tap.name);
  if (tap.type === 'async') {
    return (...allArgs) => {
      const callback = allArgs.pop() as (error: unknown, result?: unknown) => void;
      return fn(...allArgs, (error: unknown, result?: unknown) => {
        if (!error) recordRequiredParts(hooks, plugin, result);
        callback(error, result);
      });
    };
  }
  return (...args) => {
    const result = fn(...args);
    if (isThenable(result)) return Promise.resolve(result).then((value) => (recordRequiredParts(hooks, plugin, value), value));
    recordRequiredParts(hooks, plugin, result);
    return result;
  };
}

/** A required plugin's failure: the request refused on a prompt builder, held where it would be skipped, as is elsewhere. */
function requiredFallbackFor(hooks: KernelHooks, name: HookName, fallback: Fallback): Fallback {
  if (PROMPT_BUILDERS.has(name)) return fallbacks.refuse;
  if ((HOOK_CATALOGUE[name] as HookSpec).failure !== 'skip') return fallback;
  return (args, error) => {
    holdRequiredFailure(hooks, error);
    return fallback(args, error);
  };
}

function skipWhenSettled(tap: InterceptableTap, fn: InterceptableTap['fn'], isSettled: (value: unknown) => boolean): InterceptableTap['fn'] {
  if (tap.type === 'async') {
    return (...args) => {
      const callback = args.at(-1) as (error: unknown, result?: unknown) => void;
      return isSettled(args[0]) ? callback(null, args[0]) : fn(...args);
    };
  }
  return (...args) => (isSettled(args[0]) ? (tap.type === 'promise' ? Promise.resolve(args[0]) : args[0]) : fn(...args));
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Whether `cause` is the kernel's own refusal. `instanceof` runs a proxy's getPrototypeOf trap,
 * which may throw: such a value is not the kernel's.
 */
function isRefusal(cause: unknown): boolean {
  try {
    return cause instanceof ModelRequestRefused;
  } catch {
    return false;
  }
}

function guardTap(tap: InterceptableTap, hookName: HookName, fallback: Fallback, report: (error: PluginError) => void): InterceptableTap['fn'] {
  const plugin = pluginOfTap(tap.name);
  // Whatever the plugin threw, its failure is reported naming it and the hook's fallback applies:
  // PluginError describes any value without throwing, and a report that throws anyway (the kernel's
  // own output failing) must not take the fallback's place, or the hook's caller would get an
  // error naming nobody and the taps after this one would not run.
  const told = (cause: unknown): PluginError => {
    const error = new PluginError(plugin, hookName, cause);
    try {
      report(error);
    } catch {
      // Nothing better to do: the fallback below is what keeps the hook's semantics.
    }
    return error;
  };
  const fail = (args: unknown[], cause: unknown): unknown => {
    // Already a refusal of this tap's (its `block`, or its malformed answer, reported): it stands.
    if ((hookName === 'preModelRequest' || PROMPT_BUILDERS.has(hookName)) && isRefusal(cause)) throw cause;
    return fallback(args, told(cause));
  };
  const { fn } = tap;
  switch (tap.type) {
    case 'sync':
      return (...args) => {
        try {
          const result = fn(...args);
          // A sync tap that returns a promise: nobody awaits it, so its rejection is reported here
          // instead of ending the process as an unhandled rejection.
          if (isThenable(result)) result.then(undefined, (cause: unknown) => void told(cause));
          return result;
        } catch (cause) {
          return fail(args, cause);
        }
      };
    case 'promise':
      return async (...args) => {
        try {
          return await fn(...args);
        } catch (cause) {
          return fail(args, cause);
        }
      };
    case 'async':
      return (...allArgs) => {
        const callback = allArgs.pop() as (error: unknown, result?: unknown) => void;
        const args = allArgs;
        // A refusing fallback throws: that goes to the hook's caller, never back into the plugin.
        const failed = (cause: unknown): void => {
          let value: unknown;
          try {
            value = fail(args, cause);
          } catch (refusal) {
            return callback(refusal);
          }
          callback(null, value);
        };
        try {
          fn(...args, (error: unknown, result?: unknown) => (error ? failed(error) : callback(null, result)));
        } catch (cause) {
          failed(cause);
        }
      };
  }
}
