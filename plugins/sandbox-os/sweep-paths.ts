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
 * - Names and paths are byte strings (byte-names.ts) and reach the file system as their bytes
 *   (byte-fs.ts): a name that is not UTF-8 is looked up as itself, never as another.
 * - A path that stops short for any reason but a missing name (a directory this user may not
 *   search, a loop of links, a path too long) says so (`blocked`): the caller cannot take it for
 *   "nothing there".
 */
import type { Stats } from 'node:fs';
import path from 'node:path';
import { printable } from './byte-names.js';
import { lstat, openBelow, readlink, readRegularFile, realpath, searchable, type Bytes } from './byte-fs.js';
import { isPathWithin } from '../../types/path-within.js';

export const QUARANTINE_SUFFIX = '.quarantined-by-mewcode';

/** Links followed for one path before it counts as a loop (the kernel's ELOOP bound). */
const MAX_LINKS = 40;
/** A configuration file or todo list larger than this is not read (and counts as one that runs programs). */
export const MAX_JUDGED_BYTES = 4 * 1024 * 1024;

export const insideRoots = (roots: readonly string[], real: string): boolean => roots.some((root) => isPathWithin(root, real));

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
  /**
   * Set when it leads nowhere for a reason other than a missing name (or a name below a file):
   * why (an errno code, or a loop of links), and the directory it stopped in.
   */
  blocked?: { why: string; at: string };
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
  const nowhere = (why?: string): Reached => ({
    real: undefined,
    inside: insideRoots(roots, current) && !pending.includes('..'),
    links,
    shown: path.join(current, ...pending),
    ...(why === undefined ? {} : { blocked: { why, at: current } }),
  });
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
    } catch (error) {
      pending.unshift(name);
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      return nowhere(code === 'ENOENT' || code === 'ENOTDIR' ? undefined : code);
    }
    if (!info.isSymbolicLink()) {
      if (pending.length > 0 && !info.isDirectory()) {
        pending.unshift(name);
        return nowhere();
      }
      current = next;
      continue;
    }
    if (++followed > MAX_LINKS) return nowhere('a loop of links');
    if (insideRoots(roots, current)) links.push({ path: next, ctimeMs: info.ctimeMs });
    let target: string;
    try {
      target = await readlink(next);
    } catch (error) {
      return nowhere((error as NodeJS.ErrnoException).code ?? 'unknown error');
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

/**
 * Whether what could not be read at `dir` (`code`: readdir's or lstat's error) may hide something
 * the command left. A name that is gone, or is no longer a directory, hides nothing. A directory
 * this user may not search hides nothing new either when the command could not have searched it:
 * the command ran as this user, so it could only if the directory is this user's and had its mode
 * changed during the command (which moves its change time past `since`). Anything else may.
 */
export async function mayHide(dir: string, code: string | undefined, since: number): Promise<boolean> {
  if (code === 'ENOENT' || code === 'ENOTDIR') return false;
  if (code !== 'EACCES' && code !== 'EPERM') return true;
  if (await searchable(dir)) return true; // listable no, searchable yes: names inside can be reached
  const info = await lstat(dir).catch(() => undefined);
  return info === undefined || (info.uid === process.getuid?.() && info.ctimeMs >= since);
}

/** A path (a byte string) for a message. */
export const shownPath = printable;

export type SmallFile = Bytes;

/** The bytes of the regular file at `real` (a real path already found inside); undefined when it is not one. */
export const readSmallFile = (real: string): Promise<SmallFile> => readRegularFile(real, MAX_JUDGED_BYTES);

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
  const root = roots.filter((candidate) => isPathWithin(candidate, parent)).sort((a, b) => a.length - b.length)[0];
  if (root === undefined || name === '' || name === '.' || name === '..') return { refused: `${shownPath(parent)} is outside the directories the command may write` };
  let dir;
  try {
    dir = openBelow(root, names(path.relative(root, parent)));
  } catch (error) {
    return { refused: printable((error as Error).message) };
  }
  if (dir === undefined) return undefined;
  try {
    if (dir.real !== parent) return { refused: `${shownPath(parent)} leads to ${shownPath(dir.real)}` };
    if (dir.lstat(name) === undefined) return undefined;
    let candidate = `${name}${QUARANTINE_SUFFIX}`;
    for (let n = 2; dir.lstat(candidate) !== undefined; n++) candidate = `${name}${QUARANTINE_SUFFIX}-${n}`;
    dir.rename(name, candidate);
    return { movedTo: path.join(parent, candidate) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { refused: printable((error as Error).message) };
  } finally {
    dir.close();
  }
}
