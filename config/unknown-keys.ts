/**
 * The one report of a top-level key nobody reads in MewCode's own config and settings files: a
 * misspelt `permisions:` or `max_turn:` was silently ignored, so a deny rule or a turn limit the
 * user wrote did not apply. One warning per key, naming file:line:col, with the nearest known key
 * when it is close (a typo), never an error: the rest of the file loads.
 */
import { terminalSafe } from './terminal-safe.js';

export interface FileKey {
  key: string;
  /** file:line:col of the key. */
  at: string;
}

/** Edit distance (insert, delete, substitute, swap of neighbours); small strings only. */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known key `name` is most likely a misspelling of, if any is close enough. */
export function closestKey(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase().replace(/-/g, '_');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // A third of the key may differ (`provder` → `provider`, `permisions` → `permissions`), at least 1, at most 3.
    const limit = Math.min(3, Math.max(1, Math.floor(candidate.length / 3)));
    const d = lower === candidate.toLowerCase() ? 0 : distance(lower, candidate.toLowerCase());
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

const MAX_NAMED = 10;

/** `<prefix> <file:line:col>: unknown key "k" (did you mean "…"?); ignored` for each key not in `known`. */
export function unknownKeyWarnings(prefix: string, keys: readonly FileKey[], known: ReadonlySet<string>): string[] {
  const warnings: string[] = [];
  const unknown = keys.filter(({ key }) => !known.has(key));
  for (const [index, { key, at }] of unknown.entries()) {
    // A file of thousands of stray keys (data pasted in) gets a few lines, not thousands.
    if (index === MAX_NAMED) {
      const rest = unknown.slice(MAX_NAMED);
      const files = [...new Set(rest.map((entry) => entry.at.replace(/:\d+:\d+$/, '')))].join(', ');
      warnings.push(`${prefix} ${rest.length} more unknown keys in ${files}; ignored`);
      break;
    }
    const near = closestKey(key, known);
    warnings.push(`${prefix} ${at}: unknown key "${terminalSafe(key)}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; ignored`);
  }
  return warnings;
}
