/** loadConfig: discover the (at most 3) files, parse them, merge them. Never throws for a file. */
import { resolve } from 'node:path';
import type { ConfigLayerInfo, ConfigLayerName, ResolvedConfig } from '../types/config.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { anyConfigFileExists, layerSpecs } from './layers.js';
import { type LocatedMap, formatPos, toPlain } from './located.js';
import { mergeLayers } from './merge.js';
import { type LayerRoot, createResolvedConfig } from './resolved.js';
import { CONFIG_TRUST_PATHS, findTrustSettings, withoutPaths } from './trust-keys.js';
import { createWorkspaceTrust } from './trust.js';

export interface LoadConfigOptions {
  /** The working directory; it is the project root (no search in parent directories). */
  cwd: string;
  homeDir: string;
  /**
   * Workspace trust (config/trust.ts). Without it, one is made that trusts only what
   * `~/.mewcode/trust.json` records (no flag, no environment variable), and its notice of what
   * was left out is added to `warnings`. With it, the caller shows `trust.notice()`.
   */
  trust?: WorkspaceTrust;
  /**
   * Which layers to read (default all three): an embedder of the programmatic API reads none
   * unless it asks (`settingSources`). A layer left out is not looked for at all.
   */
  layers?: readonly ConfigLayerName[];
}

/**
 * `layers` lists, lowest precedence first, only the files that exist: `loaded: true` when the
 * file was used (an empty file counts), `loaded: false` with `error` when it could not be
 * parsed (its layer then contributes nothing; the message is also in `warnings`). A layer
 * without a file is absent from `layers`. When the working directory is the home directory,
 * `.mewcode/config.*` is the user file and is not read again as the project file.
 *
 * Workspace trust (A12): in project-scope files — the project file, and
 * `.mewcode/config.local.*` (listed with `layer: 'project'`: nothing tells a file the user
 * wrote from one a checkout or an archive brought, so it keeps only its higher precedence) — the
 * settings that run code or send data (config/trust-keys.ts) are left out unless the trust
 * service approves them; the service lists what was left out (`skipped()`, `notice()`). Its
 * warnings (e.g. an unreadable trust.json) are part of `warnings`.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const cwd = resolve(options.cwd);
  const homeDir = resolve(options.homeDir);
  const wanted = options.layers;
  const specs = layerSpecs(cwd, homeDir).filter((spec) => wanted === undefined || wanted.includes(spec.layer));
  const given = options.trust;
  // Discovery (and the parser) is loaded only when there is something to discover.
  if (!(await anyConfigFileExists(specs))) return createResolvedConfig(mergeLayers([], []), [], given ? given.warnings : []);
  const trust = given ?? (await createWorkspaceTrust({ projectRoot: cwd, homeDir }));
  const { searchLayer } = await import('./discover.js');
  // In the home directory the "project" files are the user's own (links followed, as for ~/.mewcode).
  const projectRoot = cwd === homeDir ? undefined : cwd;
  const results = await Promise.all(specs.map((spec) => searchLayer(spec, projectRoot)));

  const layers: ConfigLayerInfo[] = [];
  const warnings: string[] = [...trust.warnings];
  const roots: LayerRoot[] = [];
  const fileKeys: { key: string; at: string }[] = [];
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
    const layer: ConfigLayerName = spec.layer === 'local' && trust.scopeOf(file.filepath) === 'project' ? 'project' : spec.layer;
    if (file.error !== undefined) {
      layers.push({ layer, file: file.filepath, loaded: false, error: file.error, ...(file.pluginsLine !== undefined ? { pluginsLine: file.pluginsLine } : {}) });
      warnings.push(file.error);
      return;
    }
    layers.push({ layer, file: file.filepath, loaded: true });
    for (const [key, node] of file.root.entries) fileKeys.push({ key, at: formatPos(file.root.keyPos?.get(key) ?? node.pos) });
    roots.push({ layer, file: file.filepath, root: layer === 'project' ? trustedPart(file.root, file.filepath, trust) : file.root });
  });

  const root = mergeLayers(roots.map((entry) => entry.root), warnings);
  // A trust service made here has no one else to tell what it left out.
  const notice = given ? undefined : trust.notice();
  if (notice !== undefined) warnings.push(notice);
  return createResolvedConfig(root, layers, warnings, fileKeys, roots);
}

/** A project-scope file without the trust-requiring settings the trust service does not approve. */
function trustedPart(root: LocatedMap, file: string, trust: WorkspaceTrust): LocatedMap {
  const refused = findTrustSettings(root, CONFIG_TRUST_PATHS).filter((setting) => !trust.approves(file, setting.key, toPlain(setting.node)));
  return refused.length === 0 ? root : withoutPaths(root, refused.map((setting) => setting.path));
}
