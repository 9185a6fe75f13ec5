/**
 * Where full tool outputs go when a result is cut, and their clean-up: files older than the
 * limit are removed in the background at start-up, never delaying the first request.
 *
 * The directory lives in the project, where a repository may have committed links
 * (`.mewcode/tool-output -> ~`): it is reached and cleaned only through sdk/project-state-dir.ts,
 * which never follows one. A link there is refused: nothing is written or removed through it.
 */
import { constants } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { openStateDirectory, openStateFile } from '../../sdk/project-state-dir.js';

export const DEFAULT_SPILL_DIR = path.join('.mewcode', 'tool-output');

export function spillFileName(toolCallId: string, suffix = 'txt', now = Date.now()): string {
  const safeId = toolCallId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'call';
  return `${now}-${safeId}.${suffix.replace(/[^A-Za-z0-9]/g, '') || 'txt'}`;
}

/** The spill directory as the project root plus the names below it (each checked on the way). */
export interface SpillLocation {
  root: string;
  relative: string;
}

export function spillLocation(root: string, dir: string): SpillLocation {
  return { root, relative: path.relative(root, dir) };
}

/** Creates the directory (refusing links on the way). */
export function ensureDirectory(location: SpillLocation): void {
  openStateDirectory(location.root, location.relative, { create: true })?.close();
}

/** A new spill file, created (O_EXCL, never through a link): its path as shown and its descriptor. */
export function createSpillFile(location: SpillLocation, name: string): { path: string; fd: number } {
  const dir = openStateDirectory(location.root, location.relative, { create: true })!;
  try {
    const fd = openStateFile(dir, name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    return { path: dir.shown(name), fd };
  } finally {
    dir.close();
  }
}

/**
 * Removes regular files older than `maxAgeMs`; resolves to how many were removed. A link in the
 * directory is never followed (only a regular file's own age counts, and only a name is removed);
 * a linked directory on the way rejects with StatePathRefused and nothing is removed. The
 * directory is held open (its descriptor) until the clean-up ends.
 */
export async function removeOldSpillFiles(location: SpillLocation, maxAgeMs: number, now = Date.now()): Promise<number> {
  const dir = openStateDirectory(location.root, location.relative, { create: false });
  if (dir === undefined) return 0; // no directory yet: nothing to clean
  try {
    let removed = 0;
    await Promise.all(
      (await readdir(dir.at('.'))).map(async (name) => {
        try {
          const info = await lstat(dir.at(name));
          if (info.isFile() && now - info.mtimeMs > maxAgeMs) {
            await unlink(dir.at(name));
            removed++;
          }
        } catch {
          // vanished or unreadable: not ours to worry about
        }
      }),
    );
    return removed;
  } finally {
    dir.close();
  }
}
