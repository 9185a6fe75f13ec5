/**
 * The values only the kernel holds: a request it built, or a copy it made of a tap's answer, that
 * no tap has been handed yet. A check that relies on such a value (what a request held before
 * preModelRequest, what is sent after it) cannot be undone by a plugin that kept a reference to it
 * and changes it later, in place; a value a tap was handed is one that tap holds from then on.
 * Identities are unique, so one set serves every kernel in the process.
 */
const fresh = new WeakSet<object>();

/** `value` (a copy the kernel made, or a value it built), remembered as held by the kernel only. */
export function madeByKernel<T>(value: T): T {
  if (typeof value === 'object' && value !== null) fresh.add(value);
  return value;
}

/** Whether only the kernel holds `value` (made by it and handed to no tap since). */
export function heldByKernelOnly(value: unknown): boolean {
  return typeof value === 'object' && value !== null && fresh.has(value);
}

/**
 * `value` as a tap is handed it: itself if only the kernel held it, else `copy(value)`; or itself
 * when no `copy` is needed for this tap. Either way no longer the kernel's only: that tap holds it.
 */
export function handOver(value: unknown, copy?: (value: unknown) => unknown): unknown {
  const wasFresh = typeof value === 'object' && value !== null && fresh.delete(value);
  return wasFresh || !copy ? value : copy(value);
}
