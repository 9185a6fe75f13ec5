/**
 * Where full tool outputs go when a result is cut, and their clean-up: files older than the
 * limit are removed in the background at start-up, never delaying the first request.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export const DEFAULT_SPILL_DIR = path.join('.mewcode', 'tool-output');

export function spillFileName(toolCallId: string, suffix = 'txt', now = Date.now()): string {
  const safeId = toolCallId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'call';
  return `${now}-${safeId}.${suffix.replace(/[^A-Za-z0-9]/g, '') || 'txt'}`;
}

export async function ensureDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}

/** Removes regular files older than `maxAgeMs`; returns how many were removed. */
export async function removeOldSpillFiles(dir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // no directory yet: nothing to clean
  }
  let removed = 0;
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      try {
        const info = await stat(file);
        if (info.isFile() && now - info.mtimeMs > maxAgeMs) {
          await rm(file, { force: true });
          removed++;
        }
      } catch {
        // vanished or unreadable: not ours to worry about
      }
    }),
  );
  return removed;
}
