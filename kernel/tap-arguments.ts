/**
 * What a tap is shown. Every tap of a hook is handed the same call's arguments, and on the policy
 * hooks a user's plugin may tap before (or after) an organisation's required one: a context or
 * payload one tap could change would show the next tap another prompt, provider or verdict than
 * the kernel acts on (a model allowlist passing a model it never sends to, an audit record saying
 * "denied" for a call that ran, a notification rewritten before the user sees it). So each tap gets
 * a frozen copy of every argument but a waterfall's value (which each tap answers with a new one;
 * value-snapshots.ts reads those answers once). postCompact's `reinject` is the one thing taps add
 * to: each tap gets its own list, which the kernel gathers, so no tap removes another's text.
 */
import type { ContextState, HookName } from '../types/hooks.js';

/** A tap's function and kind, as tapable's interceptor hands it (hooks.ts). */
type TapFn = (...args: unknown[]) => unknown;

/** Hooks whose first argument is the waterfall's value: each tap returns the next one. */
const WATERFALL_VALUE: ReadonlySet<HookName> = new Set(['userPromptSubmit', 'buildSystemPrompt', 'buildEnvironment', 'preModelRequest', 'preToolUse', 'postToolUse']);

/**
 * A frozen copy of plain data (objects of Object.prototype or none, arrays), each property read
 * once; what is frozen already (a facade, a history snapshot) and what is not plain data (a class
 * instance the payload carries on purpose) are shown as they are.
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((item: unknown) => frozenCopy(item))) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(copy) as T;
}

/** The tap's function, given frozen copies of its arguments (see the module comment). */
export function withFrozenArguments(hookName: HookName, tap: { type: 'sync' | 'async' | 'promise' }, fn: TapFn): TapFn {
  const first = WATERFALL_VALUE.has(hookName) ? 1 : 0;
  const shown = (args: unknown[]): { args: unknown[]; gather: () => void } => {
    const copies = args.map((arg, index) => (index < first ? arg : frozenCopy(arg)));
    if (hookName !== 'postCompact') return { args: copies, gather: () => undefined };
    const state = args[0] as ContextState;
    const own: string[] = [];
    copies[0] = Object.freeze({ ...(copies[0] as ContextState), reinject: own });
    return { args: copies, gather: () => (state.reinject ??= []).push(...own.filter((part) => typeof part === 'string')) };
  };
  if (tap.type === 'async') {
    return (...allArgs) => {
      const callback = allArgs.pop() as (error: unknown, result?: unknown) => void;
      const { args, gather } = shown(allArgs);
      return fn(...args, (error: unknown, result?: unknown) => {
        if (!error) gather();
        callback(error, result);
      });
    };
  }
  if (tap.type === 'promise') {
    return async (...allArgs) => {
      const { args, gather } = shown(allArgs);
      const result = await fn(...args);
      gather();
      return result;
    };
  }
  return (...allArgs) => {
    const { args, gather } = shown(allArgs);
    const result = fn(...args);
    gather();
    return result;
  };
}
