/**
 * Finds the configuration file of each layer (only the given directory is looked at, never its
 * parents) and parses it with `parseConfigText`.
 *
 *   user     <homeDir>/.mewcode/config.yaml | config.yml | config.json
 *   project  <cwd>/.mewcode.yaml | .mewcode.yml | .mewcode.json
 *            | .mewcode/config.yaml | .mewcode/config.yml | .mewcode/config.json
 *   local    <cwd>/.mewcode/config.local.yaml | config.local.yml | config.local.json
 *
 * In each layer the first file found wins, even if it is empty or broken (an empty file is an
 * empty configuration; a broken one is reported and the layer contributes nothing).
 *
 * Each candidate is read with the shared reader of project-supplied files (project-file.ts), not
 * with cosmiconfig (which reads through any link, blocks on a FIFO and reads a device to its
 * end): the project's and the local layer's file must be a regular file really inside the
 * project (`.mewcode.yaml -> /proc/self/environ` is refused), the user's may be a link anywhere.
 */
import { join } from 'node:path';
import type { LayerSpec } from './layers.js';
import { parseConfigTextCached } from './parse-cache.js';
import type { ParsedConfigFile } from './parse-file.js';
import { MAX_CONFIG_FILE_BYTES, readConfigFile } from './config-file.js';

export type LayerSearchResult =
  | { found: false }
  | { found: true; file: ParsedConfigFile }
  /** The file could not be used (not a parse error: those are in `file.error`). */
  | { found: 'error'; file: string; error: string };

/** A config file is a regular file of at most this size (a repository could link it to /dev/zero). */
export { MAX_CONFIG_FILE_BYTES };

export async function searchLayer(spec: LayerSpec, projectRoot?: string): Promise<LayerSearchResult> {
  for (const place of spec.searchPlaces) {
    const file = join(spec.dir, place);
    const read = readConfigFile(file, spec.layer !== 'user' ? projectRoot : undefined);
    if (read.ok) return { found: true, file: await parseConfigTextCached(file, read.text) };
    if (read.missing) continue;
    return { found: 'error', file, error: `config: cannot read the ${spec.layer} configuration (${file}): ${read.reason}` };
  }
  return { found: false };
}
