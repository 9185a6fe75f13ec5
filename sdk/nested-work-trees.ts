/**
 * The folders below a project that hold a `.git` (a directory, or a file naming one): nested
 * repositories and submodule checkouts. A nested repository's configuration may name a file
 * anywhere in the project (`core.hooksPath = ../shared-hooks`, a workspace of clones sharing their
 * hooks), and git runs it at the user's next command in that repository, so a file tool asks
 * before writing what any of them names, not only what a repository on the file's way names.
 *
 * A bounded walk: links are never followed, `.git` folders and `node_modules` are not entered
 * (npm strips `.git` from what it installs), at most MAX_WALKED_DIRS folders; beyond that the
 * repositories found so far are returned with `truncated` set.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export const MAX_WALKED_DIRS = 20_000;

/** Folders listed at once (the thread pool reads them side by side). */
const BATCH = 32;

export interface NestedWorkTrees {
  workTrees: string[];
  truncated: boolean;
}

export async function nestedWorkTrees(root: string, maxDirs = MAX_WALKED_DIRS): Promise<NestedWorkTrees> {
  const workTrees: string[] = [];
  let pending = [root];
  let walked = 0;
  while (pending.length > 0) {
    if (walked + pending.length > maxDirs) return { workTrees: workTrees.sort(), truncated: true };
    walked += pending.length;
    const next: string[] = [];
    for (let start = 0; start < pending.length; start += BATCH) {
      const listed = await Promise.all(pending.slice(start, start + BATCH).map((dir) => readdir(dir, { withFileTypes: true }).then((entries) => ({ dir, entries }), () => ({ dir, entries: [] }))));
      for (const { dir, entries } of listed) {
        for (const entry of entries) {
          if (entry.name === '.git') {
            if (dir !== root && (entry.isDirectory() || entry.isFile() || entry.isSymbolicLink())) workTrees.push(dir);
          } else if (entry.isDirectory() && entry.name !== 'node_modules') next.push(path.join(dir, entry.name));
        }
      }
    }
    pending = next;
  }
  return { workTrees: workTrees.sort(), truncated: false };
}
