/**
 * `stop` is a bail hook: the first tap that answers `{ continue: true }` ends the call and the
 * taps after it are never asked. A user's Stop hook that keeps the run going (or any configured
 * plugin tapped early) would starve an organisation's stop tap: its record of how the run ended,
 * its own check before the run may end. So on every run end each required plugin's stop tap is
 * called, before any other (managed settings' first, then other required ones, each in stage
 * order), and none of them ends the call: the first continuation among them is held, and then
 * stands (the other taps are not asked: the organisation's answer is the one given). Without one,
 * the other taps run as before and the first continuation among them wins.
 */
import type { KernelHooks, StopContext, StopDecision } from '../types/hooks.js';
import { pluginOfTap, type InterceptableTap } from './hooks.js';
import type { TapRank } from './policy-taps.js';

/** Stages far below any a plugin asks for: managed settings' plugins first, then other required ones. */
const MANAGED_STOP_STAGE = -3e9;
const REQUIRED_STOP_STAGE = -2e9;
/** A tap's own stage is kept, within this distance, so required taps keep their order among themselves. */
const STAGE_SPAN = 1e8;

type Fn = (...args: unknown[]) => unknown;

export function orderStopTaps(hooks: KernelHooks, rankOf: (plugin: string) => TapRank): void {
  const held = new WeakMap<object, StopDecision>();
  const hold = (context: unknown, decision: unknown): void => {
    const answer = decision as StopDecision | undefined;
    if (answer?.continue === true && !held.has(context as object)) held.set(context as object, answer);
  };
  const hook = hooks.stop as unknown as { intercept(interceptor: { register(tap: InterceptableTap): InterceptableTap }): void; tapPromise: KernelHooks['stop']['tapPromise'] };
  hook.intercept({
    register: (tap) => {
      const rank = rankOf(pluginOfTap(tap.name));
      const fn = tap.fn as Fn;
      if (rank === 'managed' || rank === 'required') {
        const own = typeof tap.stage === 'number' && !Number.isNaN(tap.stage) ? Math.min(Math.max(tap.stage, -STAGE_SPAN), STAGE_SPAN) : 0;
        const { before: _before, ...rest } = tap as InterceptableTap & { before?: unknown };
        return { ...rest, stage: (rank === 'managed' ? MANAGED_STOP_STAGE : REQUIRED_STOP_STAGE) + own, fn: neverBails(tap.type, fn, hold) as InterceptableTap['fn'] };
      }
      return { ...tap, fn: answersHeld(tap.type, fn, (context) => held.get(context as object)) as InterceptableTap['fn'] };
    },
  });
  // After every tap: the held continuation, when no other tap was there to give it.
  hook.tapPromise({ name: 'kernel:stop-order', stage: Infinity }, async (context: StopContext) => held.get(context));
}

/** A required tap: called, its continuation held, and the call goes on to the next tap. */
function neverBails(type: InterceptableTap['type'], fn: Fn, hold: (context: unknown, decision: unknown) => void): Fn {
  if (type === 'async') {
    return (context, callback) =>
      fn(context, (error: unknown, decision?: unknown) => {
        if (!error) hold(context, decision);
        (callback as (error: unknown) => void)(error);
      });
  }
  if (type === 'promise') {
    return async (context) => {
      hold(context, await fn(context));
      return undefined;
    };
  }
  return (context) => {
    hold(context, fn(context));
    return undefined;
  };
}

/** Any other tap: when a required tap's continuation is held, that is the answer, and this tap is not asked. */
function answersHeld(type: InterceptableTap['type'], fn: Fn, heldFor: (context: unknown) => StopDecision | undefined): Fn {
  if (type === 'async') return (context, callback) => (heldFor(context) ? (callback as (e: unknown, d: unknown) => void)(null, heldFor(context)) : fn(context, callback));
  if (type === 'promise') return (context) => (heldFor(context) ? Promise.resolve(heldFor(context)) : fn(context));
  return (context) => heldFor(context) ?? fn(context);
}
