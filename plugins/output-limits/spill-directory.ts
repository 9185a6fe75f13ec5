/**
 * Where full tool outputs go when a result is cut, and their clean-up: files older than the
 * limit are removed in the background at start-up, never delaying the first request.
 *
 * The directory lives in the project, where a repository may have committed links
 * (`.mewcode/tool-output -> ~`): it is reached and cleaned only through sdk/project-state-dir.ts,
 * which never follows one. A link there is refused: nothing is written or removed through it.
 */
import { constants } from 'node:fs';
import { lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { openStateDirectory, openStateFile, openStateSubdirectory, type StateDirectory } from '../../sdk/project-state-dir.js';

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

/** A plain name: no separator, no `.`/`..`, nothing a folder name could not be on every system. */
const PLAIN_SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** The session's own folder below the spill directory; the directory itself without a session id. */
export function sessionFolder(location: SpillLocation, sessionId: string | undefined): SpillLocation {
  if (sessionId === undefined) return location;
  if (!PLAIN_SESSION_ID.test(sessionId)) throw new Error(`the session id ${JSON.stringify(sessionId.slice(0, 200))} is not a plain name (letters, digits, ".", "_", "-"; not starting with "."; at most 128 characters): no spill file is made for it`);
  return { root: location.root, relative: path.join(location.relative, sessionId) };
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
 * Removes regular files older than `maxAgeMs`, directly in the directory (older versions' flat
 * files) and in each session's folder; then a session's folder left empty, when its own last
 * change is older too (a running session's new folder is not taken from under it). Resolves to
 * how many files were removed. A link in the directory or in a folder is never followed (only a
 * regular file's own age counts, and only a name is removed); a linked directory on the way
 * rejects with StatePathRefused and nothing is removed. Each directory is held open (its
 * descriptor) while it is cleaned.
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
          } else if (info.isDirectory()) {
            // Counted after the await: `removed += await …` would add to the count read before it.
            const inFolder = await removeOldInFolder(dir, name, maxAgeMs, now);
            removed += inFolder;
            if (now - info.mtimeMs > maxAgeMs) await rmdir(dir.at(name)).catch(() => undefined); // only when empty
          }
        } catch {
          // vanished, unreadable or a link on the way: not ours to worry about
        }
      }),
    );
    return removed;
  } finally {
    dir.close();
  }
}

/** One session's folder: its old regular files (links and folders in it are left alone). */
async function removeOldInFolder(parent: StateDirectory, name: string, maxAgeMs: number, now: number): Promise<number> {
  const folder = openStateSubdirectory(parent, name, { create: false });
  if (folder === undefined) return 0;
  try {
    let removed = 0;
    for (const entry of await readdir(folder.at('.'))) {
      try {
        const info = await lstat(folder.at(entry));
        if (info.isFile() && now - info.mtimeMs > maxAgeMs) {
          await unlink(folder.at(entry));
          removed++;
        }
      } catch {
        // vanished or unreadable
      }
    }
    return removed;
  } finally {
    folder.close();
  }
}
