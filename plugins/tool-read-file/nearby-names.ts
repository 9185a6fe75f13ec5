/**
 * For a missing file, names in the same directory the model may have meant: same name in another
 * case, or same stem with another extension (`index.js` for `index.ts`). One readdir, no walking.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

const MAX_SUGGESTIONS = 3;

export async function nearbyNames(absolute: string, display: string): Promise<string[]> {
  const wanted = path.basename(absolute).toLowerCase();
  const stem = stemOf(wanted);
  let entries: string[];
  try {
    entries = await readdir(path.dirname(absolute));
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
