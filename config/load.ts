/** loadConfig: discover the (at most 3) files, parse them, merge them. Never throws for a file. */
import { resolve } from 'node:path';
import type { ConfigLayerInfo, ResolvedConfig } from '../types/config.js';
import { anyConfigFileExists, layerSpecs } from './layers.js';
import type { LocatedMap } from './located.js';
import { mergeLayers } from './merge.js';
import { createResolvedConfig } from './resolved.js';

export interface LoadConfigOptions {
  /** The working directory; it is the project root (no search in parent directories). */
  cwd: string;
  homeDir: string;
}

/**
 * `layers` lists, lowest precedence first, only the files that exist: `loaded: true` when the
 * file was used (an empty file counts), `loaded: false` with `error` when it could not be
 * parsed (its layer then contributes nothing; the message is also in `warnings`). A layer
 * without a file is absent from `layers`. When the working directory is the home directory,
 * `.mewcode/config.*` is the user file and is not read again as the project file.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const specs = layerSpecs(resolve(options.cwd), resolve(options.homeDir));
  // Discovery (cosmiconfig) is loaded only when there is something to discover.
  if (!(await anyConfigFileExists(specs))) return createResolvedConfig(mergeLayers([], []), [], []);
  const { searchLayer } = await import('./discover.js');
  const results = await Promise.all(specs.map(searchLayer));

  const layers: ConfigLayerInfo[] = [];
  const warnings: string[] = [];
  const roots: LocatedMap[] = [];
  const seenFiles = new Set<string>();

  specs.forEach((spec, i) => {
    const result = results[i];
    if (!result || result.found === false) return;
    if (result.found === 'error') {
      layers.push({ layer: spec.layer, file: result.file, loaded: false, error: result.error });
      warnings.push(result.error);
      return;
    }
    const { file } = result;
    if (seenFiles.has(file.filepath)) return;
    seenFiles.add(file.filepath);
    warnings.push(...file.warnings);
    if (file.error !== undefined) {
      layers.push({ layer: spec.layer, file: file.filepath, loaded: false, error: file.error });
      warnings.push(file.error);
      return;
    }
    layers.push({ layer: spec.layer, file: file.filepath, loaded: true });
    roots.push(file.root);
  });

  const root = mergeLayers(roots, warnings);
  return createResolvedConfig(root, layers, warnings);
}
