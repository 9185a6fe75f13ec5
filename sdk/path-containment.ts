/**
 * A3 path containment, shared by the sandbox layer and tools that take a directory
 * (bash's workdir, glob and grep roots): make the path absolute against the project root,
 * normalise it, resolve symlinks (for a path that does not exist yet, through its nearest
 * existing ancestor, then re-append the rest; a dangling symlink is followed, so a link to a
 * file outside that does not exist yet is outside), and require `resolved === root` or a prefix of
 * `root + separator` — never a bare string prefix (`/repo2` is not inside `/repo`).
 */
import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isPathWithin } from '../types/path-within.js';
import { fsPath, pathFromBytes } from './search-common/display-name.js';

export type Containment = { inside: true; resolved: string } | { inside: false; resolved: string };

const MAX_LINK_HOPS = 40; // Linux's limit for one path resolution

/**
 * The real path of `target`: the real path of its deepest existing part (the whole path when it
 * exists) plus the missing names — except that a deepest part which is a dangling symlink is
 * followed. Throws ELOOP (also for a loop of dangling links), EACCES, ENAMETOOLONG.
 */
export function resolveRealSync(target: string, hops = 0): string {
  // The deepest part that exists, without following its last name (lstat; a missing level costs
  // no exception). ELOOP, EACCES and ENAMETOOLONG propagate: the call is denied.
  const rest: string[] = [];
  let current = path.resolve(target);
  let stats: Stats | undefined;
  for (;;) {
    try {
      stats = lstatSync(fsPath(current), { throwIfNoEntry: false }); // escaped bytes as bytes (display-name.ts)
    } catch (error) {
      if (errorCode(error) !== 'ENOTDIR') throw error;
    }
    if (stats !== undefined) break;
    const parent = path.dirname(current);
    if (parent === current) return path.resolve(target);
    rest.unshift(path.basename(current));
    current = parent;
  }
  let real: string | undefined;
  try {
    real = pathFromBytes(realpathSync.native(fsPath(current), { encoding: 'buffer' }));
  } catch (error) {
    if (!isMissing(error)) throw error;
    // Removed or renamed between the lstat and the realpath (the tree is changing): start over.
    if (!stats.isSymbolicLink()) {
      if (hops >= MAX_LINK_HOPS) throw error;
      return resolveRealSync(target, hops + 1);
    }
  }
  if (real !== undefined) return rest.length === 0 ? real : path.join(real, ...rest);
  // A dangling link would otherwise keep its own name, as if it were a new file inside: follow it.
  if (hops >= MAX_LINK_HOPS) throw Object.assign(new Error(`too many levels of symbolic links: ${target}`), { code: 'ELOOP' });
  const link = pathFromBytes(readlinkSync(fsPath(current), { encoding: 'buffer' }));
  const parent = resolveRealSync(path.dirname(current), hops + 1);
  return resolveRealSync(path.resolve(parent, link, ...rest), hops + 1);
}

/**
 * Where `target` (a path under `root`, existing or not) really leads when a symbolic link on the
 * way takes it elsewhere; undefined when it is exactly where its path says. For files MewCode
 * itself writes inside a project a repository could have planted links in.
 */
export function redirectedByLink(root: string, target: string): string | undefined {
  const expected = path.join(resolveRealSync(root), path.relative(root, target));
  const real = resolveRealSync(target);
  return real === expected ? undefined : real;
}

/** Async form of resolveRealSync, for callers that prefer it. */
export async function resolveReal(target: string): Promise<string> {
  return resolveRealSync(target);
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : (error as Error | undefined)?.message ?? String(error);
}

/** `candidate` is `root` or below it (part of mewcode/sdk: the shared test under its published name). */
export function isWithin(root: string, candidate: string): boolean {
  return isPathWithin(root, candidate);
}

/** Expand a leading `~` (the model sometimes writes it) against the home directory. */
export function expandHome(input: string, homeDir: string): string {
  if (input === '~') return homeDir;
  if (input.startsWith('~/')) return path.join(homeDir, input.slice(2));
  return input;
}

export async function containPath(root: string, input: string, homeDir: string): Promise<Containment> {
  const realRoot = resolveRealSync(root);
  const resolved = resolveRealSync(path.resolve(root, expandHome(input, homeDir)));
  return { inside: isWithin(realRoot, resolved), resolved };
}
