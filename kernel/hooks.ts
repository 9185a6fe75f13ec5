/**
 * The lifecycle hook catalogue: every extension point declared in one place (webpack style).
 * Each tap is wrapped so a throwing plugin is reported as `plugin X failed in hook Y: …` and the
 * hook degrades to a safe answer instead of killing the run: permission and approval taps fail
 * closed (deny), everything else fails open (the tap is skipped).
 */
import tapable from 'tapable';
import type { KernelHooks, HookName } from '../types/hooks.js';
import type { ApprovalOutcome, PermissionVerdict } from '../types/permissions.js';
import { PluginError } from './plugin-error.js';

const { AsyncParallelHook, AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncWaterfallHook } = tapable;

export function createHooks(): KernelHooks {
  return {
    sessionStart: new AsyncSeriesHook(['session']),
    sessionResume: new AsyncSeriesHook(['session']),
    sessionEnd: new AsyncSeriesHook(['session']),
    userPromptSubmit: new AsyncSeriesBailHook(['context']),
    buildSystemPrompt: new SyncWaterfallHook(['parts', 'context']),
    buildEnvironment: new AsyncSeriesWaterfallHook(['parts', 'context']),
    preModelRequest: new AsyncSeriesWaterfallHook(['request', 'context']),
    manageContext: new AsyncSeriesWaterfallHook(['state', 'context']),
    preCompact: new AsyncSeriesHook(['state', 'context']),
    postCompact: new AsyncSeriesHook(['state', 'context']),
    preToolUse: new AsyncSeriesBailHook(['context']),
    checkPermission: new AsyncSeriesBailHook(['request']),
    requestApproval: new AsyncSeriesBailHook(['request']),
    permissionDecided: new AsyncSeriesHook(['decision']),
    postToolUse: new AsyncSeriesWaterfallHook(['result', 'context']),
    messageAppended: new AsyncSeriesHook(['message', 'context']),
    stop: new AsyncSeriesHook(['context']),
    notification: new AsyncParallelHook(['payload']),
  };
}

/** What a hook yields in place of a tap that threw. `args[0]` is the waterfall value. */
type Fallback = (args: unknown[], error: PluginError) => unknown;

const failOpen: Fallback = () => undefined;
const keepValue: Fallback = (args) => args[0];
const fallbacks: Record<HookName, Fallback> = {
  sessionStart: failOpen,
  sessionResume: failOpen,
  sessionEnd: failOpen,
  userPromptSubmit: failOpen,
  buildSystemPrompt: keepValue,
  buildEnvironment: keepValue,
  preModelRequest: keepValue,
  manageContext: keepValue,
  preCompact: failOpen,
  postCompact: failOpen,
  preToolUse: failOpen,
  checkPermission: (_args, error): PermissionVerdict => ({
    decision: 'deny',
    layer: error.pluginName,
    reason: `${error.message} (denied because a permission layer failed)`,
  }),
  requestApproval: (_args, error): ApprovalOutcome => ({
    choice: 'deny',
    answeredBy: error.pluginName,
    reason: error.message,
  }),
  permissionDecided: failOpen,
  postToolUse: keepValue,
  messageAppended: failOpen,
  stop: failOpen,
  notification: failOpen,
};

interface InterceptableTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  fn: (...args: unknown[]) => unknown;
}

/** Wrap every tap (present and future) of every hook with plugin-named error handling. */
export function guardHooks(hooks: KernelHooks, report: (error: PluginError) => void): void {
  for (const hookName of Object.keys(hooks) as HookName[]) {
    const hook = hooks[hookName] as unknown as { intercept(i: { register(tap: InterceptableTap): InterceptableTap }): void };
    const fallback = fallbacks[hookName];
    hook.intercept({ register: (tap) => ({ ...tap, fn: guardTap(tap, hookName, fallback, report) }) });
  }
}

function guardTap(
  tap: InterceptableTap,
  hookName: HookName,
  fallback: Fallback,
  report: (error: PluginError) => void,
): (...args: unknown[]) => unknown {
  const fail = (args: unknown[], cause: unknown): unknown => {
    const error = new PluginError(tap.name, hookName, cause);
    report(error);
    return fallback(args, error);
  };
  const { fn } = tap;
  switch (tap.type) {
    case 'sync':
      return (...args) => {
        try {
          return fn(...args);
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
        try {
          fn(...args, (error: unknown, result?: unknown) =>
            error ? callback(null, fail(args, error)) : callback(null, result),
          );
        } catch (cause) {
          callback(null, fail(args, cause));
        }
      };
  }
}
