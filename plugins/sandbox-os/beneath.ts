/**
 * Making and removing the empty directories the sandbox mounts over missing protected paths,
 * through a descriptor of the parent opened without following a link anywhere below the writable
 * root (sdk/project-state-dir.ts). A sandboxed command running at the same moment could swap a
 * parent for a link; a plain mkdir would then make the directory wherever the link points
 * (`~/.ssh/config` as an empty directory), and a plain rmdir remove one there.
 */
import { mkdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { openStateDirectory } from '../../sdk/project-state-dir.js';
import { isPathWithin } from '../../types/path-within.js';

/** The deepest of `roots` holding `target` (undefined: none does, and the caller works by path). */
function rootOf(target: string, roots: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const root of roots) if (isPathWithin(root, target) && target !== root && (!best || root.length > best.length)) best = root;
  return best;
}

/** `fn(path)` with the path of `target` through its parent's checked descriptor. */
function atParent(target: string, roots: readonly string[], fn: (at: string) => void): void {
  const root = rootOf(target, roots);
  if (root === undefined) return fn(target);
  const parent = openStateDirectory(root, path.relative(root, path.dirname(target)), { create: false });
  if (!parent) throw Object.assign(new Error(`${path.dirname(target)} does not exist`), { code: 'ENOENT' });
  try {
    fn(parent.at(path.basename(target)));
  } finally {
    parent.close();
  }
}

export function mkdirBeneath(target: string, roots: readonly string[], mode: number): void {
  atParent(target, roots, (at) => mkdirSync(at, { mode }));
}

/** Removes the directory if it is still empty; anything else (not empty, gone, a link on the way) is left as it is. */
export function rmdirBeneath(target: string, roots: readonly string[]): void {
  try {
    atParent(target, roots, (at) => rmdirSync(at));
  } catch {
    // not ours to remove any more
  }
}
