/**
 * Which layer a merged value came from, for decisions that depend on who wrote a setting — e.g.
 * the kernel keeping the permission layers and the audit whatever a project's `disable:` says:
 *
 * ```ts
 * const fromProject = (config.section('disable') as string[]).filter((_, i) => configScopeAt(config, ['disable', i]) === 'project');
 * ```
 *
 * `.mewcode/config.local.*` is listed as a `project` layer by loadConfig (it is the project's for
 * trust), so its values are `project` here too. For a list merged as a union (`plugins`, `disable`) an entry
 * written in several layers belongs to the lowest one that wrote it (its first occurrence).
 */
import type { ConfigLayerName, ConfigPath, ResolvedConfig } from '../types/config.js';

/** The layer whose file holds the value at `path`, or undefined when no file sets it. */
export function configScopeAt(config: ResolvedConfig, path: ConfigPath): ConfigLayerName | undefined {
  const where = config.locate(path);
  if (where === undefined) return undefined;
  // The longest matching file name wins, in case one layer's path is a prefix of another's.
  let best: { layer: ConfigLayerName; length: number } | undefined;
  for (const layer of config.layers) {
    if (where.startsWith(`${layer.file}:`) && (best === undefined || layer.file.length > best.length)) best = { layer: layer.layer, length: layer.file.length };
  }
  return best?.layer;
}
