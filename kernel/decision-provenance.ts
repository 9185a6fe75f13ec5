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

/**
 * Which plugin's checkPermission tap gave a verdict, as the kernel knows it (the tap's own name,
 * never the verdict's `layer`, which the plugin writes): the audit log records it as `decided_by`.
 */
const verdictOwners = new WeakMap<object, string>();

export function noteVerdictOwner(verdict: object, plugin: string): void {
  verdictOwners.set(verdict, plugin);
}

/** The plugin that gave this verdict, or 'kernel' for one the kernel made (plan mode, a hook's answer applied, no layer decided). */
export function verdictOwner(verdict: object): string {
  return verdictOwners.get(verdict) ?? 'kernel';
}
