/**
 * Waits on plugins that always end. A decision the kernel waits for — a permission verdict, a
 * preToolUse answer, an approval, a prompt submission, a stop answer — and the value of the two
 * waterfalls a policy rewrites on its way out (a postToolUse result, a preModelRequest request)
 * is awaited at most a bound, and a wait the run is blocked on also ends when the run is
 * cancelled. A tap that never answers takes its hook's safe side (deny, block, no continuation,
 * the output withheld, the request not sent), naming the plugin: a policy server that hangs
 * fails closed instead of hanging the session. A tap whose answer can no longer come at all (the
 * process has nothing left to run that could settle it) is at the end of its bound at once
 * (expireStalledWaits).
 */
import type { KernelHooks, PromptSubmission, ToolUseDecision } from '../types/hooks.js';
import type { ToolResult } from '../types/messages.js';
import type { ApprovalOutcome } from '../types/permissions.js';
import { HOOK_CATALOGUE, type HookSpec } from '../types/hook-catalogue.js';
import { HOOK_NAMES, pluginOfTap, withheldResult, type InterceptableTap } from './hooks.js';
import { PluginError } from './plugin-error.js';
import { holdRequiredFailure } from './required-failures.js';
import { ModelRequestRefused } from './model-request.js';

export interface Bound {
  /** Not awaited longer than this. */
  ms?: number;
  /** Nor once this signal has aborted (and `graceMs` passed since). */
  signal?: AbortSignal;
  graceMs?: number;
}

/** Why a wait ended without its answer: its time was up, the run was cancelled, or nothing was left that could answer. */
export type LateReason = 'timeout' | 'cancelled' | 'stalled';

/** The waits with a time bound still waiting, each with how to end it now. */
const timedWaits = new Set<(why: LateReason) => void>();

/**
 * Ends every wait with a time bound now, as if its time were up (`late('stalled')`); how many
 * there were. For when the process has nothing left to run (Node's `beforeExit`): an answer that
 * nothing can settle any more never comes, and the bound, which does not hold the process open by
 * itself, would never fire. The run then goes on with each hook's safe side, naming the plugin,
 * instead of ending unfinished with nobody named.
 */
export function expireStalledWaits(): number {
  const waits = [...timedWaits];
  for (const expire of waits) expire('stalled');
  return waits.length;
}

/**
 * The answer, or `late(why)` once the bound has passed or the signal aborted; a later answer is
 * ignored. An aborted signal still lets an answer already on its way (a microtask) win. `late`
 * may throw (a refusal): the wait then rejects with it.
 */
export function bounded<T>(answer: Promise<T>, bound: Bound, late: (why: LateReason) => T | Promise<T>): Promise<T> {
  const timers: NodeJS.Timeout[] = [];
  let onAbort: (() => void) | undefined;
  let expire: ((why: LateReason) => void) | undefined;
  const expired = new Promise<T>((resolve, reject) => {
    let done = false;
    expire = (why) => {
      if (done) return;
      done = true;
      try {
        resolve(late(why));
      } catch (refusal) {
        reject(refusal);
      }
    };
    const end = expire;
    // The bound never holds the process open by itself: a tap that waits on nothing (a promise
    // nothing will settle) must not keep a finished or cancelled MewCode alive for an hour.
    if (bound.ms !== undefined) {
      timers.push(setTimeout(() => end('timeout'), bound.ms).unref());
      timedWaits.add(end);
    }
    const { signal } = bound;
    if (!signal) return;
    onAbort = () => void timers.push(setTimeout(() => end('cancelled'), bound.graceMs ?? 0));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([answer, expired]).finally(() => {
    for (const timer of timers) clearTimeout(timer);
    if (expire) timedWaits.delete(expire);
    if (onAbort) bound.signal?.removeEventListener('abort', onAbort);
  });
}

/**
 * How long a preToolUse, userPromptSubmit, stop, postToolUse or preModelRequest tap may take.
 * Longer than a checkPermission layer's: these taps run the user's own hooks, whose commands may
 * take up to 10 minutes by default (Claude Code's default the hooks plugin keeps).
 */
export const HOOK_TAP_TIMEOUT_MS = 15 * 60_000;
/** How long a requestApproval tap may take: it may be waiting for a person (a chat approval). */
export const APPROVAL_TAP_TIMEOUT_MS = 60 * 60_000;

export interface TapBounds {
  hookMs: number;
  approvalMs: number;
  /** Tell the user (a tap that never answered is a plugin bug, or a server down, they must hear of). */
  warn(message: string): void;
  /** Whose taps on the observing hooks are bounded too (a required plugin's: its silence fails closed). */
  isRequired?(plugin: string): boolean;
}

type BoundedHook = 'preToolUse' | 'requestApproval' | 'userPromptSubmit' | 'stop' | 'postToolUse' | 'preModelRequest';

/** What a silent tap's hook takes instead (or throws), and what the user is told it means. */
const SAFE_SIDES: Record<BoundedHook, { outcome: string; safe: (args: unknown[], plugin: string, reason: string) => unknown }> = {
  preToolUse: {
    outcome: 'the call is denied',
    safe: (args, plugin, reason): ToolUseDecision => {
      const previous = args[0] as ToolUseDecision;
      return Object.freeze({ input: previous.input, additionalContext: previous.additionalContext, decision: 'deny', reason, by: plugin });
    },
  },
  requestApproval: { outcome: 'the call is denied', safe: (_args, plugin, reason): ApprovalOutcome => Object.freeze({ choice: 'deny', answeredBy: plugin, reason }) },
  userPromptSubmit: {
    outcome: 'the prompt is blocked',
    safe: (args, plugin, reason): PromptSubmission => Object.freeze({ additionalContext: (args[0] as PromptSubmission).additionalContext, block: Object.freeze({ block: true as const, reason, by: plugin }) }),
  },
  stop: { outcome: 'the run does not continue', safe: () => undefined },
  // The tap may be the one that redacts the output, or scrubs the request.
  postToolUse: { outcome: 'the output is withheld', safe: (args, _plugin, reason): ToolResult => withheldResult(args[0] as ToolResult, reason) },
  preModelRequest: {
    outcome: 'the request is not sent',
    safe: (_args, plugin, reason) => {
      throw new ModelRequestRefused(plugin, reason);
    },
  },
};

/**
 * Bound every tap, present and future, of the decision hooks other than checkPermission (which
 * the permission chain bounds itself), and of postToolUse and preModelRequest. The tap object is changed in place: the TapLedger finds a
 * plugin's taps by identity when it removes them.
 */
export function boundDecisionTaps(hooks: KernelHooks, bounds: TapBounds): void {
  boundRequiredObservers(hooks, bounds);
  for (const name of Object.keys(SAFE_SIDES) as BoundedHook[]) {
    const ms = name === 'requestApproval' ? bounds.approvalMs : bounds.hookMs;
    const hook = hooks[name] as unknown as { intercept(interceptor: { register(tap: InterceptableTap): InterceptableTap }): void };
    hook.intercept({
      register: (tap) => {
        tap.fn = boundTap(tap, name, ms, bounds.warn);
        return tap;
      },
    });
  }
}

function boundTap(tap: InterceptableTap, hook: BoundedHook, ms: number, warn: (message: string) => void): InterceptableTap['fn'] {
  const plugin = pluginOfTap(tap.name);
  const { outcome, safe } = SAFE_SIDES[hook];
  const late = (args: unknown[]) => (why: LateReason): unknown => {
    const reason =
      why === 'stalled'
        ? `plugin ${plugin} did not answer ${hook}, and its answer could never come (nothing was left running that could settle it); ${outcome}`
        : `plugin ${plugin} did not answer ${hook} within ${ms} ms; ${outcome}`;
    warn(reason);
    return safe(args, plugin, reason);
  };
  const { fn } = tap;
  switch (tap.type) {
    case 'sync':
      return fn; // it answers before anything else runs: there is no wait to bound
    case 'promise':
      return (...args) => bounded(Promise.resolve(fn(...args)), { ms }, late(args));
    case 'async':
      return (...allArgs) => {
        const callback = allArgs.pop() as (error: unknown, result?: unknown) => void;
        const answer = new Promise<unknown>((resolve, reject) => fn(...allArgs, (error: unknown, result?: unknown) => (error ? reject(error) : resolve(result))));
        bounded(answer, { ms }, late(allArgs)).then(
          (result) => callback(null, result),
          (error: unknown) => callback(error),
        );
      };
  }
}

/**
 * Every async tap on a hook that only watches or adds (failure 'skip' or 'keep-value':
 * sessionStart, messageAppended, permissionDecided, buildEnvironment…) is awaited at most `hookMs`
 * too: a tap that never settles must not hang the run (a live handle kept it open for ever; without
 * one the run ended with exit 1, nobody named). Silent, an ordinary plugin's tap is skipped with a
 * warning naming the plugin and the hook (a waterfall keeps its value); a required plugin's counts
 * as failed (required-failures.ts), so no call runs and no request is sent any more, instead of
 * the run going on without it. The decision hooks among them (stop) are bounded by boundTap.
 */
function boundRequiredObservers(hooks: KernelHooks, bounds: TapBounds): void {
  const isRequired = bounds.isRequired ?? (() => false);
  for (const name of HOOK_NAMES) {
    const failure = (HOOK_CATALOGUE[name] as HookSpec).failure;
    if (failure !== 'skip' && failure !== 'keep-value') continue;
    const decision = Object.prototype.hasOwnProperty.call(SAFE_SIDES, name);
    const hook = hooks[name] as unknown as { intercept(interceptor: { register(tap: InterceptableTap): InterceptableTap }): void };
    hook.intercept({
      register: (tap) => {
        const plugin = pluginOfTap(tap.name);
        const required = isRequired(plugin);
        if (tap.type === 'sync' || (decision && !required)) return tap;
        const late = (why: LateReason): undefined => {
          const silence = why === 'stalled' ? 'did not answer, and its answer could never come' : `did not answer within ${bounds.hookMs} ms`;
          if (!required) {
            bounds.warn(`plugin ${plugin} ${silence} in hook ${name}; its tap was skipped`);
            return undefined;
          }
          const error = new PluginError(plugin, name, new Error(silence));
          bounds.warn(`plugin ${plugin} ${silence} in hook ${name}; it is a required plugin, so nothing more runs or is sent until MewCode is restarted`);
          holdRequiredFailure(hooks, error);
          return undefined;
        };
        const { fn } = tap;
        tap.fn =
          tap.type === 'promise'
            ? (...args) => bounded(Promise.resolve(fn(...args)), { ms: bounds.hookMs }, late)
            : (...allArgs) => {
                const callback = allArgs.pop() as (error: unknown, result?: unknown) => void;
                const answer = new Promise<unknown>((resolve, reject) => fn(...allArgs, (error: unknown, result?: unknown) => (error ? reject(error) : resolve(result))));
                bounded(answer, { ms: bounds.hookMs }, late).then(
                  (result) => callback(null, result),
                  (error: unknown) => callback(error),
                );
              };
        return tap;
      },
    });
  }
}
