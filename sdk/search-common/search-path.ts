/**
 * Resolving the directory (or file) a search starts from: `path` relative to the project root,
 * `~` expanded, symlinks resolved, and contained in the project (A3, via the kernel's
 * path-containment helper — the permission sandbox checks the same target first) or in one of
 * the additional directories the sandbox also allows. A search in an additional directory walks
 * with that directory as its root, so ignore files, the no-links-out rule and read-denied files
 * apply there exactly as in the project; its results are named by absolute path.
 */
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { containPath, expandHome, isWithin, resolveReal, resolveRealSync } from '../path-containment.js';
import { relativeToRoot } from './walker.js';
import { fsPath } from './display-name.js';

export interface SearchLocation {
  /** Real path of the project root. */
  root: string;
  /** Real absolute path of the start. */
  absolute: string;
  /** The start relative to the root (`''` for the root itself), `/`-separated. */
  relative: string;
  kind: 'dir' | 'file';
  /** Put before a root-relative path when it is shown: '' in the project, `<dir>/` in an additional directory. */
  prefix: string;
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; error: string };

/** How a location is named in paths shown to the model: relative to the project root, or `.`. */
export function displayPath(relative: string, prefix = ''): string {
  if (prefix !== '') return relative === '' ? prefix.replace(/\/$/, '') : prefix + relative;
  return relative === '' ? '.' : relative;
}

/** How a location is named in sentences: "the project root", "src/", "src/a.ts". */
export function describeLocation(relative: string, kind: 'dir' | 'file' = 'dir', prefix = ''): string {
  if (prefix !== '') return kind === 'dir' ? `${prefix}${relative === '' ? '' : `${relative}/`}` : prefix + relative;
  if (relative === '') return 'the project root';
  return kind === 'dir' ? `${relative}/` : relative;
}

export async function resolveSearchLocation(
  toolName: string,
  projectRoot: string,
  homeDir: string,
  input: string,
  additionalDirectories: readonly string[] = [],
): Promise<Resolved<SearchLocation>> {
  let root: string;
  let containment: Awaited<ReturnType<typeof containPath>>;
  try {
    root = await resolveReal(projectRoot);
    containment = await containPath(projectRoot, input === '' ? '.' : input, homeDir);
  } catch (error) {
    // ELOOP, EACCES, or a tree changing faster than it can be resolved: an answer, never a throw.
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { ok: false, error: `Path "${input}" cannot be resolved (${code}). Check the path, or omit path to search the whole project.` };
  }
  let prefix = '';
  if (!containment.inside) {
    const extra = additionalRootOf(containment.resolved, projectRoot, homeDir, additionalDirectories);
    if (extra === undefined) {
      const besides = additionalDirectories.length > 0 ? ' and its additional directories' : '';
      return {
        ok: false,
        error: `Path "${input}" is outside the project root (${root})${besides}; ${toolName} searches inside the project${besides} only. Pass a path relative to the project root, or omit path to search the whole project.`,
      };
    }
    root = extra;
    prefix = extra.endsWith('/') ? extra : `${extra}/`;
  }
  let info;
  try {
    info = await stat(fsPath(containment.resolved)); // a name given as shown (display-name.ts) as its bytes
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { ok: false, error: `Path "${input}" does not exist. Use glob to find the right directory, or omit path to search the whole project.` };
    }
    return { ok: false, error: `Path "${input}" cannot be read (${code ?? String(error)}).` };
  }
  const kind = info.isDirectory() ? 'dir' : info.isFile() ? 'file' : undefined;
  if (!kind) return { ok: false, error: `Path "${input}" is neither a directory nor a regular file.` };
  return { ok: true, value: { root, absolute: containment.resolved, relative: relativeToRoot(root, containment.resolved), kind, prefix } };
}

/** The real path of the additional directory holding `resolved` (the innermost), if any; one that cannot be resolved allows nothing. */
function additionalRootOf(resolved: string, projectRoot: string, homeDir: string, dirs: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const dir of dirs) {
    if (typeof dir !== 'string' || dir === '' || dir.includes('\0')) continue;
    let real: string;
    try {
      real = resolveRealSync(path.resolve(projectRoot, expandHome(dir, homeDir)));
    } catch {
      continue;
    }
    if (!statSync(real, { throwIfNoEntry: false })?.isDirectory()) continue;
    if (isWithin(real, resolved) && (best === undefined || real.length > best.length)) best = real;
  }
  return best;
}

/**
 * How results name the files under a start reached through a symlink: by the name given, as
 * ripgrep does (`path: "lnk"` → `lnk/a.ts`, not the link's target `real/a.ts`). Identity when
 * the given path is the real one, absolute, outside the project, or not a plain relative path.
 */
export function givenNames(location: SearchLocation, input: string): (rel: string) => string {
  const same = (rel: string): string => rel;
  if (location.prefix !== '' || input === '' || path.isAbsolute(input) || input.startsWith('~')) return same;
  const given = path.posix.normalize(input).replace(/\/+$/, '');
  if (given === '.' || given === '..' || given.startsWith('../') || given === location.relative || location.relative === '') return same;
  const from = location.relative;
  return (rel) => (rel === from ? given : rel.startsWith(`${from}/`) ? given + rel.slice(from.length) : rel);
}
