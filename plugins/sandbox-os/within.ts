/**
 * Whether a path is inside another. A file of its own because the plugin's start (index.ts: the
 * home as the project) needs it, and policy.ts, which also re-exports it, brings the protected
 * names' tables with it.
 */
import path from 'node:path';

/**
 * True when `inner` is `outer` or below it (both absolute, normalised). Only a first component
 * that is exactly `..` leads out: a directory named `..x` (a name a repository may hold) is inside.
 */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
