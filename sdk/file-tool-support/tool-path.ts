/**
 * Shared by the file tools (a library folder, not a plugin). Where a model-given path points.
 * Relative paths are relative to the project root and a leading `~` is the home directory.
 * Containment is not decided on these strings: the sandbox layer checks the path before the call
 * (A3) and the tools check what they actually open (contained-fs.ts, A15). No substring test
 * such as `..`, which would reject valid names like `a..b.ts` (T4).
 */
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';
import { expandHome, resolveReal } from '../path-containment.js';

export interface ToolPath {
  /** Absolute, normalised, symlinks not resolved: what the model asked for. */
  absolute: string;
  /** Symlinks resolved: the key of the FileReadTracker, so a read via a link counts for the target. */
  real: string;
  /** Relative to the project root when inside it, else absolute: what messages show. */
  display: string;
}

export async function resolveToolPath(input: string, projectRoot: string, homeDir: string): Promise<ToolPath> {
  const absolute = toolPathAbsolute(input, projectRoot, homeDir);
  return { absolute, real: await realPathOf(absolute), display: displayPath(absolute, projectRoot) };
}

export function toolPathAbsolute(input: string, projectRoot: string, homeDir: string): string {
  return path.resolve(projectRoot, expandHome(input, homeDir));
}

export async function realPathOf(absolute: string): Promise<string> {
  try {
    return await resolveReal(absolute);
  } catch {
    // EACCES or ELOOP on an ancestor: the file operation that follows reports it precisely.
    return absolute;
  }
}

export function displayPath(absolute: string, projectRoot: string): string {
  const root = path.resolve(projectRoot);
  if (!isPathWithin(root, absolute)) return absolute;
  return path.relative(root, absolute) || '.';
}
