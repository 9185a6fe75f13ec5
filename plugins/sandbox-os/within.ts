/**
 * Whether a path is inside another. A file of its own because the plugin's start (index.ts: the
 * home as the project) needs it, and policy.ts, which also re-exports it, brings the protected
 * names' tables with it.
 */
import path from 'node:path';

/** True when `inner` is `outer` or below it (both absolute, normalised). */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
