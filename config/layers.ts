/**
 * Where each configuration layer's file may be. Kept apart from discovery so a run can see that
 * no file exists (a few stat calls) without loading the discovery and the parser at all.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigLayerName } from '../types/config.js';

export interface LayerSpec {
  layer: ConfigLayerName;
  /** The directory searched. */
  dir: string;
  searchPlaces: readonly string[];
}

export const USER_SEARCH_PLACES = ['config.yaml', 'config.yml', 'config.json'] as const;
export const PROJECT_SEARCH_PLACES = [
  '.mewcode.yaml',
  '.mewcode.yml',
  '.mewcode.json',
  '.mewcode/config.yaml',
  '.mewcode/config.yml',
  '.mewcode/config.json',
] as const;
export const LOCAL_SEARCH_PLACES = ['config.local.yaml', 'config.local.yml', 'config.local.json'] as const;

export function layerSpecs(cwd: string, homeDir: string): LayerSpec[] {
  return [
    { layer: 'user', dir: join(homeDir, '.mewcode'), searchPlaces: USER_SEARCH_PLACES },
    { layer: 'project', dir: cwd, searchPlaces: PROJECT_SEARCH_PLACES },
    { layer: 'local', dir: join(cwd, '.mewcode'), searchPlaces: LOCAL_SEARCH_PLACES },
  ];
}

/** True when at least one candidate file of any layer exists. */
export async function anyConfigFileExists(specs: readonly LayerSpec[]): Promise<boolean> {
  const checks = specs.flatMap((spec) =>
    spec.searchPlaces.map((place) =>
      access(join(spec.dir, place)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return (await Promise.all(checks)).some(Boolean);
}
