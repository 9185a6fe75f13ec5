/**
 * File access for the git sweep (git-sweep.ts). The sweep runs on the host after a sandboxed
 * command, which could write only inside the writable roots but may leave links there that lead
 * anywhere: `hooks -> ~/.ssh`, a `commondir` of `../../lnk/.aws` beside `lnk -> ~`, a `.git` file
 * whose `gitdir:` runs through such a link. What the sweep judges and what it renames must be what
 * the command could have written, never what such a link leads to. So:
 *
 * - A path is followed one name at a time from a real directory, links resolved where they are met
 *   and `..` taken from where the walk really is, as the kernel (and git's real_path) resolves it.
 *   Where it ends is inside only when its real path lies in a writable root. The links met inside a
 *   root are recorded with their change times: changing a link changes where the path leads.
 * - A rename goes through a descriptor of the parent directory, opened from the outermost root
 *   containing it one name at a time without following a link (sdk/project-state-dir.ts: on Linux
 *   `/proc/self/fd/N/name`), whose real path must be the expected one. The name itself is renamed,
 *   never what a link there points to; a directory swapped for a link meanwhile refuses the rename.
 * - Files are read only once their real path was found inside, opened with O_NOFOLLOW|O_NONBLOCK
 *   (a FIFO planted at `config` cannot block the sweep), regular files only, up to a bound.
 */
import { constants, lstatSync, renameSync, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { openStateDirectory } from '../../sdk/project-state-dir.js';
import { isWithin } from './policy.js';

export const QUARANTINE_SUFFIX = '.quarantined-by-mewcode';

/** Links followed for one path before it counts as a loop (the kernel's ELOOP bound). */
const MAX_LINKS = 40;
/** A configuration file or todo list larger than this is not read (and counts as one that runs programs). */
export const MAX_JUDGED_BYTES = 4 * 1024 * 1024;

export const insideRoots = (roots: readonly string[], real: string): boolean => roots.some((root) => isWithin(root, real));

export interface Link {
  path: string;
  ctimeMs: number;
}

export interface Reached {
  /** The real path the path leads to; undefined when nothing is there (a missing name, a loop, a name below a file). */
  real: string | undefined;
  /**
   * `real` lies in a writable root; for a path that leads nowhere yet, the part that is missing
   * would be made in one (no `..` in it): whatever is made there later is found the same way.
   */
  inside: boolean;
  /** The links met in a writable root, in order (a link outside them is the system's, not the command's). */
  links: Link[];
  /** What the path leads to, for messages: the real path, or the path as far as it was followed. */
  shown: string;
}

const names = (text: string): string[] => text.split('/').filter((name) => name !== '' && name !== '.');

/**
 * Follows `to` (relative to `from`, a real directory, or absolute) as the kernel would. Reads only
 * the names on the way (lstat, readlink): nothing it leads to is opened.
 */
export async function follow(from: string, to: string, roots: readonly string[]): Promise<Reached> {
  const links: Link[] = [];
  let current = to.startsWith('/') ? '/' : from;
  let pending = names(to);
  let followed = 0;
  const nowhere = (): Reached => ({ real: undefined, inside: insideRoots(roots, current) && !pending.includes('..'), links, shown: path.join(current, ...pending) });
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    let info: Stats;
    try {
      info = await lstat(next);
    } catch {
      pending.unshift(name);
      return nowhere();
    }
    if (!info.isSymbolicLink()) {
      if (pending.length > 0 && !info.isDirectory()) {
        pending.unshift(name);
        return nowhere();
      }
      current = next;
      continue;
    }
    if (++followed > MAX_LINKS) return nowhere();
    if (insideRoots(roots, current)) links.push({ path: next, ctimeMs: info.ctimeMs });
    let target: string;
    try {
      target = await readlink(next);
    } catch {
      return nowhere();
    }
    pending = [...names(target), ...pending];
    if (target.startsWith('/')) current = '/';
  }
  return { real: current, inside: insideRoots(roots, current), links, shown: current };
}

/** True when `dir` is a directory with no link on its path (its real path is itself) inside a root. */
export async function isRealInside(dir: string, roots: readonly string[]): Promise<boolean> {
  try {
    return (await realpath(dir)) === dir && insideRoots(roots, dir);
  } catch {
    return false;
  }
}

export type SmallFile = { text: string } | { tooLarge: true } | undefined;

/** The text of the regular file at `real` (a real path already found inside); undefined when it is not one. */
export async function readSmallFile(real: string): Promise<SmallFile> {
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    if (info.size > MAX_JUDGED_BYTES) return { tooLarge: true };
    return { text: await handle.readFile('utf8') };
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export type SetAside = { movedTo: string } | { refused: string } | undefined;

/**
 * Renames the entry `file` (a link is renamed, never followed) to `<name>.quarantined-by-mewcode`
 * (`-2`, `-3` … when taken) in its parent directory, reached from the outermost root holding it
 * without following a link. `refused` when the parent is not really inside a root; undefined when
 * the entry is gone.
 */
export function setAsideEntry(file: string, roots: readonly string[]): SetAside {
  const parent = path.dirname(file);
  const name = path.basename(file);
  const root = roots.filter((candidate) => isWithin(candidate, parent)).sort((a, b) => a.length - b.length)[0];
  if (root === undefined || name === '' || name === '.' || name === '..') return { refused: `${parent} is outside the directories the command may write` };
  let dir;
  try {
    dir = openStateDirectory(root, path.relative(root, parent), { create: false });
  } catch (error) {
    return { refused: (error as Error).message };
  }
  if (dir === undefined) return undefined;
  try {
    if (dir.real !== parent) return { refused: `${parent} leads to ${dir.real}` };
    if (lstatSync(dir.at(name), { throwIfNoEntry: false }) === undefined) return undefined;
    let candidate = `${name}${QUARANTINE_SUFFIX}`;
    for (let n = 2; lstatSync(dir.at(candidate), { throwIfNoEntry: false }) !== undefined; n++) candidate = `${name}${QUARANTINE_SUFFIX}-${n}`;
    renameSync(dir.at(name), dir.at(candidate));
    return { movedTo: path.join(parent, candidate) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { refused: (error as Error).message };
  } finally {
    dir.close();
  }
}
