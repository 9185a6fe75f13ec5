/**
 * For a missing file, names in the same directory the model may have meant: same name in another
 * case, or same stem with another extension (`index.js` for `index.ts`). One readdir, no walking.
 * The directory is opened and verified like a file (A15): a directory that is (or was just
 * swapped into) a link out of the project lends no names.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { openForRead, useDescriptorPaths, type FileScope } from '../../sdk/file-tool-support/contained-fs.js';

const MAX_SUGGESTIONS = 3;

export async function nearbyNames(absolute: string, display: string, scope: FileScope): Promise<string[]> {
  const wanted = path.basename(absolute).toLowerCase();
  const stem = stemOf(wanted);
  let entries: string[];
  try {
    const dir = await openForRead(path.dirname(absolute), scope);
    try {
      entries = await readdir(useDescriptorPaths() ? `/proc/self/fd/${dir.handle.fd}` : dir.realPath);
    } finally {
      await dir.handle.close();
    }
  } catch {
    return [];
  }
  const prefix = display.slice(0, display.length - path.basename(absolute).length);
  return entries
    .filter((name) => {
      const lower = name.toLowerCase();
      return lower === wanted || (stem !== '' && stemOf(lower) === stem);
    })
    .sort()
    .slice(0, MAX_SUGGESTIONS)
    .map((name) => prefix + name);
}

function stemOf(name: string): string {
  const dot = name.indexOf('.', 1);
  return dot === -1 ? name : name.slice(0, dot);
}
