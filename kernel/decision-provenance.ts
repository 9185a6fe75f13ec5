/**
 * Which plugin's preToolUse tap made a decision an allow. A decision's `by` is whatever the tap
 * wrote (any plugin can write another's name), so the kernel records the tap itself: the shape
 * guard (decision-guards.ts) notes it on the answer it keeps, and the gate (tool-call-gate.ts)
 * reads it where only some plugins' allows count (allow_managed_rules_only: a managed plugin's).
 */
const allowers = new WeakMap<object, string>();

/**
 * `result` is what the waterfall carries on after `plugin`'s tap answered over `previous`: an
 * allow already held keeps the tap that gave it (a later tap passing it on gave none); an allow
 * this tap raised the decision to is this tap's.
 */
export function noteAllow(previous: { decision?: string }, result: { decision?: string }, plugin: string): void {
  if (result.decision !== 'allow') return;
  const earlier = previous.decision === 'allow' ? allowers.get(previous) : undefined;
  allowers.set(result, previous.decision === 'allow' ? (earlier ?? '') : plugin);
}

/** The plugin whose tap gave this allow ('' or undefined: not known, so no plugin's). */
export function allowedBy(decision: object): string | undefined {
  return allowers.get(decision) || undefined;
}
