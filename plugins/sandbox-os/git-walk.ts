/**
 * Where the git sweep (git-sweep.ts) looks: every `.git` entry and every directory shaped like a
 * git directory below a writable root, the submodules the root's index registers wherever they
 * are, and the git directories inside the root's own `.git` (`modules/…`, `worktrees/…`). The walk
 * never follows a link (a directory's entries are read as they are, and only real directories are
 * entered), and skips `node_modules` unless the index could not be read (then nothing registered
 * there would otherwise be found).
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gitlinkPaths } from './git-index.js';
import { isWithin } from './policy.js';
import { follow, isRealInside, readSmallFile } from './sweep-paths.js';

/** Directories walked per root for `.git` entries. */
export const MAX_SWEEP_DIRS = 20_000;

/** Skipped by the walk (their git directories are found through the index instead). */
const SKIPPED = 'node_modules';

export interface GitEntry {
  path: string;
  kind: 'dir' | 'file' | 'link';
  /** Device and inode: the same path holding another entry later is a new entry. */
  id: string;
}

/** Directories listed at once (the thread pool reads them side by side). */
const WALK_BATCH = 64;

/** Every `.git` below `root` (not `root/.git` itself), skipping node_modules unless `everywhere`; bounded. */
export async function findGitEntries(root: string, everywhere = false): Promise<{ entries: GitEntry[]; truncated: boolean }> {
  const found: { path: string; kind: GitEntry['kind'] }[] = [];
  let level = [root];
  let visited = 0;
  let truncated = false;
  while (level.length > 0 && !truncated) {
    if (visited + level.length > MAX_SWEEP_DIRS) {
      level = level.slice(0, MAX_SWEEP_DIRS - visited);
      truncated = true;
    }
    visited += level.length;
    const next: string[] = [];
    for (let i = 0; i < level.length; i += WALK_BATCH) {
      const batch = level.slice(i, i + WALK_BATCH);
      const listed = await Promise.all(batch.map((dir) => readdir(dir, { withFileTypes: true }).catch(() => [])));
      batch.forEach((dir, j) => {
        const children = listed[j]!;
        // A directory git takes for a git directory by its shape (HEAD, objects/, refs/: a "bare"
        // repository), found by git from there and below; the root's own only where it has no .git.
        if (looksLikeGitDir(children) && (dir !== root || !children.some((child) => child.name === '.git'))) found.push({ path: dir, kind: 'dir' });
        for (const child of children) {
          const full = path.join(dir, child.name);
          if (child.name === '.git') {
            if (dir !== root) found.push({ path: full, kind: child.isSymbolicLink() ? 'link' : child.isDirectory() ? 'dir' : 'file' });
          } else if (child.isDirectory() && (everywhere || child.name !== SKIPPED)) next.push(full);
        }
      });
    }
    level = next;
  }
  const entries: GitEntry[] = [];
  for (const entry of found) {
    const id = await identity(entry.path);
    if (id) entries.push({ ...entry, id });
  }
  return { entries, truncated };
}

/**
 * What git's discovery may accept as a git directory without a `.git`: HEAD beside objects/ and
 * refs/ (links to directories count: git follows them), or beside a `commondir` (objects and refs
 * are then the common directory's). Erring wide only means judging a directory's config and hooks.
 */
function looksLikeGitDir(children: readonly Dirent[]): boolean {
  let head = false;
  let objects = false;
  let refs = false;
  let commondir = false;
  const dirOrLink = (child: Dirent): boolean => child.isDirectory() || child.isSymbolicLink();
  for (const child of children) {
    if (child.name === 'HEAD' && !child.isDirectory()) head = true;
    else if (child.name === 'objects' && dirOrLink(child)) objects = true;
    else if (child.name === 'refs' && dirOrLink(child)) refs = true;
    else if (child.name === 'commondir' && !child.isDirectory()) commondir = true;
  }
  return head && ((objects && refs) || commondir);
}

export async function identity(file: string): Promise<string | undefined> {
  try {
    const info = await lstat(file);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/** What is at `file` as a walk entry (its kind and identity), or undefined when nothing is. */
async function gitEntryAt(file: string): Promise<GitEntry | undefined> {
  try {
    const info = await lstat(file);
    return { path: file, kind: info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : 'file', id: `${info.dev}:${info.ino}` };
  } catch {
    return undefined;
  }
}

/**
 * The `.git` of each submodule the root's index registers (a gitlink), as walk entries, and what
 * could not be read (`unread`: then the walk has to go everywhere). The index is the root's git
 * directory's: `.git` itself, or where a `.git` file points (a linked worktree). A submodule
 * behind a link (`lnk/sub` with `lnk` a link) is left out: git refuses to enter one.
 */
export async function gitlinkEntries(root: string, roots: readonly string[]): Promise<{ entries: GitEntry[]; unread?: string }> {
  const dotGit = path.join(root, '.git');
  const own = await gitEntryAt(dotGit);
  let gitDir: string | undefined;
  if (own?.kind === 'dir') gitDir = dotGit;
  else if (own?.kind === 'file') {
    const read = await readSmallFile(dotGit);
    const text = read && 'text' in read ? read.text : '';
    if (text.startsWith('gitdir: ')) gitDir = (await follow(root, text.slice('gitdir: '.length).replace(/[\r\n]+$/, ''), roots)).real;
  }
  if (gitDir === undefined) return { entries: [] };
  const listed = await gitlinkPaths(gitDir, root);
  const entries: GitEntry[] = [];
  for (const relative of listed.gitlinks) {
    const file = path.join(root, relative, '.git');
    if (!isWithin(root, file) || !(await isRealInside(path.dirname(file), roots))) continue;
    const entry = await gitEntryAt(file); // none: not checked out
    if (entry) entries.push(entry);
  }
  return { entries, unread: listed.unread };
}

/**
 * The git directories under `<root>/.git/modules` (found by their HEAD, nested names) and
 * `.git/worktrees`. Only real directories: a link there is judged where a `.git` file points
 * through it (git-sweep.ts), never followed here.
 */
export async function innerGitDirs(gitDir: string): Promise<string[]> {
  const out: string[] = [];
  const realDir = async (dir: string): Promise<boolean> => (await lstat(dir).catch(() => undefined))?.isDirectory() === true;
  let level = (await realDir(path.join(gitDir, 'modules'))) ? [path.join(gitDir, 'modules')] : [];
  for (let depth = 0; depth < 8 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let children;
      try {
        children = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const child of children) {
        if (!child.isDirectory()) continue;
        const full = path.join(dir, child.name);
        if ((await lstat(path.join(full, 'HEAD')).catch(() => undefined)) !== undefined) {
          out.push(full);
          next.push(path.join(full, 'modules'));
        } else next.push(full);
      }
    }
    level = next;
  }
  const worktrees = path.join(gitDir, 'worktrees');
  if (await realDir(worktrees)) {
    for (const child of await readdir(worktrees, { withFileTypes: true }).catch(() => [])) if (child.isDirectory()) out.push(path.join(worktrees, child.name));
  }
  return out;
}

/** Path → identity of every `.git` entry and inner git directory: what a later sweep compares with. */
export type GitBaseline = Map<string, string>;

/** The baseline before a root's first command. */
export async function gitBaseline(roots: readonly string[]): Promise<GitBaseline> {
  const baseline: GitBaseline = new Map();
  for (const root of roots) {
    const gitlinks = await gitlinkEntries(root, roots);
    for (const entry of (await findGitEntries(root, gitlinks.unread !== undefined)).entries) baseline.set(entry.path, entry.id);
    for (const entry of gitlinks.entries) baseline.set(entry.path, entry.id);
    for (const inner of await innerGitDirs(path.join(root, '.git'))) {
      const id = await identity(inner);
      if (id) baseline.set(inner, id);
    }
  }
  return baseline;
}
