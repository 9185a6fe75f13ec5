/**
 * Resolving the directory (or file) a search starts from: `path` relative to the project root,
 * `~` expanded, symlinks resolved, and contained in the project (A3, via the kernel's
 * path-containment helper — the permission sandbox checks the same target first).
 */
import { stat } from 'node:fs/promises';
import { containPath, resolveReal } from '../path-containment.js';
import { relativeToRoot } from './walker.js';

export interface SearchLocation {
  /** Real path of the project root. */
  root: string;
  /** Real absolute path of the start. */
  absolute: string;
  /** The start relative to the root (`''` for the root itself), `/`-separated. */
  relative: string;
  kind: 'dir' | 'file';
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; error: string };

/** How a location is named in paths shown to the model: relative to the project root, or `.`. */
export function displayPath(relative: string): string {
  return relative === '' ? '.' : relative;
}

/** How a location is named in sentences: "the project root", "src/", "src/a.ts". */
export function describeLocation(relative: string, kind: 'dir' | 'file' = 'dir'): string {
  if (relative === '') return 'the project root';
  return kind === 'dir' ? `${relative}/` : relative;
}

export async function resolveSearchLocation(
  toolName: string,
  projectRoot: string,
  homeDir: string,
  input: string,
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
  if (!containment.inside) {
    return {
      ok: false,
      error: `Path "${input}" is outside the project root (${root}); ${toolName} searches inside the project only. Pass a path relative to the project root, or omit path to search the whole project.`,
    };
  }
  let info;
  try {
    info = await stat(containment.resolved);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { ok: false, error: `Path "${input}" does not exist. Use glob to find the right directory, or omit path to search the whole project.` };
    }
    return { ok: false, error: `Path "${input}" cannot be read (${code ?? String(error)}).` };
  }
  const kind = info.isDirectory() ? 'dir' : info.isFile() ? 'file' : undefined;
  if (!kind) return { ok: false, error: `Path "${input}" is neither a directory nor a regular file.` };
  return { ok: true, value: { root, absolute: containment.resolved, relative: relativeToRoot(root, containment.resolved), kind } };
}
