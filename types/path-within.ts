/**
 * Whether one path lies inside another: the single test every containment check uses, so that
 * they all agree on the one easy mistake. `path.relative` leads out only when its first component
 * is exactly `..`; a directory named `..x`, `...` or `..bin` is an ordinary name inside, and
 * a bare `startsWith('..')` would wrongly put it outside. An absolute answer (another drive on
 * Windows) is outside too.
 *
 * Pure path arithmetic: nothing is resolved on disk, so links are the caller's business (compare
 * real paths to judge where a link leads). Relative arguments are taken from the current directory.
 */
import path from 'node:path';

/** True when `candidate` is `root` itself or anywhere below it. */
export function isPathWithin(root: string, candidate: string): boolean {
  return !leadsOut(path.relative(root, candidate));
}

/** True when `candidate` is below `root`, never `root` itself. */
export function isPathStrictlyWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && !leadsOut(relative);
}

function leadsOut(relative: string): boolean {
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}
