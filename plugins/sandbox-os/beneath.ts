/**
 * Making and removing the empty directories the sandbox mounts over missing protected paths,
 * through a descriptor of the parent opened without following a link anywhere below the writable
 * root (sdk/project-state-dir.ts). A sandboxed command running at the same moment could swap a
 * parent for a link; a plain mkdir would then make the directory wherever the link points
 * (`~/.ssh/config` as an empty directory), and a plain rmdir remove one there.
 */
import { mkdirSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import path from 'node:path';
import { openStateDirectory } from '../../sdk/project-state-dir.js';
import { isPathWithin } from '../../types/path-within.js';

/** The deepest of `roots` holding `target` (undefined: none does, and the caller works by path). */
function rootOf(target: string, roots: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const root of roots) if (isPathWithin(root, target) && target !== root && (!best || root.length > best.length)) best = root;
  return best;
}

/** `fn(path)` with the path of `target` through its parent's checked descriptor, held until `fn`'s promise settles. */
async function atParent<T>(target: string, roots: readonly string[], fn: (at: string) => T): Promise<Awaited<T>> {
  const root = rootOf(target, roots);
  if (root === undefined) return await fn(target);
  const parent = openStateDirectory(root, path.relative(root, path.dirname(target)), { create: false });
  if (!parent) throw Object.assign(new Error(`${path.dirname(target)} does not exist`), { code: 'ENOENT' });
  try {
    return await fn(parent.at(path.basename(target)));
  } finally {
    parent.close();
  }
}

export async function mkdirBeneath(target: string, roots: readonly string[], mode: number): Promise<void> {
  await atParent(target, roots, (at) => mkdirSync(at, { mode }));
}

/**
 * Removes the directory if it is still empty; anything else (not empty, gone, a link on the way)
 * is left as it is. Asynchronous, so the removals of one call's mount points overlap: an rmdir
 * frees the directory's block, which on a filesystem mounted with `discard` waits on the disk.
 * On a quiet machine a call's ≈ 36 removals take 2–4 ms either way; with other processes writing
 * (a build, a test run) one after another they took 100–200 ms here, side by side 3–17 ms, and a
 * synchronous one also held the event loop (a model's stream) meanwhile.
 */
export async function rmdirBeneath(target: string, roots: readonly string[]): Promise<void> {
  try {
    await atParent(target, roots, (at) => rmdir(at));
  } catch {
    // not ours to remove any more
  }
}
