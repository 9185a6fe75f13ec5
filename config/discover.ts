/**
 * Finds the configuration file of each layer with cosmiconfig (`searchStrategy: 'none'`: only
 * the given directory is looked at, never its parents) and parses it with `parseConfigText`.
 *
 *   user     <homeDir>/.mewcode/config.yaml | config.yml | config.json
 *   project  <cwd>/.mewcode.yaml | .mewcode.yml | .mewcode.json
 *            | .mewcode/config.yaml | .mewcode/config.yml | .mewcode/config.json
 *   local    <cwd>/.mewcode/config.local.yaml | config.local.yml | config.local.json
 *
 * In each layer the first file found wins, even if it is empty or broken (an empty file is an
 * empty configuration; a broken one is reported and the layer contributes nothing).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import type { Loader, PublicExplorer } from 'cosmiconfig';
import type { LayerSpec } from './layers.js';
import { parseConfigTextCached } from './parse-cache.js';
import type { ParsedConfigFile } from './parse-file.js';

// The parser (and the `yaml` package behind it) is loaded only when a file is actually found:
// a run with no configuration files never pays for it.
const parser = (): Promise<typeof import('./parse-file.js')> => import('./parse-file.js');

export type LayerSearchResult =
  | { found: false }
  | { found: true; file: ParsedConfigFile }
  /** cosmiconfig itself failed (not a parse error: those are in `file.error`). */
  | { found: 'error'; file: string; error: string };

/** Our loader never throws, so one broken file never hides the rest of the search. The cache
 * lets a file the trust check already parsed (same text) be used without parsing it again. */
const loader: Loader = async (filepath, content) => parseConfigTextCached(filepath, content);

// An explorer depends only on its search places (the directory is given to `search`), so
// each is built once per process: building one makes cosmiconfig look for its own "meta
// config" in process.cwd(), which is synchronous.
const explorers = new Map<string, PublicExplorer>();

function explorerFor(searchPlaces: readonly string[]): PublicExplorer {
  const id = searchPlaces.join('\n');
  let explorer = explorers.get(id);
  if (!explorer) {
    explorer = cosmiconfig('mewcode', {
      searchPlaces: [...searchPlaces],
      searchStrategy: 'none',
      ignoreEmptySearchPlaces: false, // an empty file is found (and is an empty config)
      cache: false, // every loadConfig reads the files afresh
      loaders: { '.yaml': loader, '.yml': loader, '.json': loader },
    });
    explorers.set(id, explorer);
  }
  return explorer;
}

function isParsedFile(value: unknown): value is ParsedConfigFile {
  return typeof value === 'object' && value !== null && 'root' in value && 'filepath' in value;
}

/** A config file is a regular file of at most this size (a repository could link it to /dev/zero). */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** The first candidate that exists, when it is not something a config file can be. */
async function unusableCandidate(spec: LayerSpec): Promise<LayerSearchResult | undefined> {
  for (const place of spec.searchPlaces) {
    const file = join(spec.dir, place);
    const info = await stat(file).catch(() => undefined);
    if (info === undefined) continue;
    if (info.isFile() && info.size <= MAX_CONFIG_FILE_BYTES) return undefined;
    const why = info.isFile() ? `it is larger than ${MAX_CONFIG_FILE_BYTES / 1024 / 1024} MiB` : 'it is not a regular file';
    return { found: 'error', file, error: `config: cannot read the ${spec.layer} configuration (${file}): ${why}` };
  }
  return undefined;
}

export async function searchLayer(spec: LayerSpec): Promise<LayerSearchResult> {
  const unusable = await unusableCandidate(spec);
  if (unusable) return unusable;
  try {
    const result = await explorerFor(spec.searchPlaces).search(spec.dir);
    if (result === null) return { found: false };
    const parsed: unknown = result.config;
    return { found: true, file: isParsedFile(parsed) ? parsed : (await parser()).emptyConfigFile(result.filepath) };
  } catch (error) {
    const file = (error as { filepath?: unknown }).filepath;
    const where = typeof file === 'string' ? file : spec.dir;
    const message = error instanceof Error ? error.message : String(error);
    return {
      found: 'error',
      file: where,
      error: `config: cannot read the ${spec.layer} configuration (${where}): ${message}`,
    };
  }
}
