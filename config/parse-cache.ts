/**
 * One parse per file text per process: the trust check, `loadConfig` and the permission
 * settings reader look at the same few files at start-up, so the second and third reader of an
 * unchanged file get the first one's result. A parsed file is never changed by its readers
 * (LocatedMap is read-only; `withoutPaths` copies). Keyed by path and compared by the whole text,
 * so a file changed in between is parsed again.
 */
import type { ParsedConfigFile } from './parse-file.js';

const MAX_ENTRIES = 32;
const cache = new Map<string, { text: string; parsed: ParsedConfigFile }>();
let parser: Promise<typeof import('./parse-file.js')> | undefined;

/** The parser is loaded (with the `yaml` package) only when a file is actually parsed. */
export async function parseConfigTextCached(filepath: string, text: string): Promise<ParsedConfigFile> {
  const hit = cache.get(filepath);
  if (hit && hit.text === text) return hit.parsed;
  const { parseConfigText } = await (parser ??= import('./parse-file.js'));
  const parsed = parseConfigText(filepath, text);
  cache.delete(filepath);
  cache.set(filepath, { text, parsed });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return parsed;
}
