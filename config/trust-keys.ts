/**
 * Which settings need workspace trust when a project file sets them (A12), in one table so
 * the trust scan, `loadConfig` and the permission settings reader agree by construction. Add a
 * key here and it is hashed, listed in the dialog and the notice, and left out while untrusted.
 */
import type { LocatedMap, LocatedNode } from './located.js';

export type TrustPath = readonly string[];

/** In `.mewcode.yaml` / `.mewcode/config.*` and `.mewcode/config.local.*`. */
export const CONFIG_TRUST_PATHS: readonly TrustPath[] = [
  ['plugins'], // code that runs at start-up
  ['providers'], // where the conversation and an API key are sent
  ['disable'], // which plugins (deny rules, audit…) are switched off
  ['hooks'], // commands run on events
  ['mcp_servers'], // servers started or contacted
  ['bash', 'env_allowlist'], // which secrets reach model-triggered commands
  ['sandbox'], // the OS sandbox's settings (network, writable paths…)
];

/**
 * The top-level keys of a config file that the kernel and the plugins MewCode is built from read
 * (kernel/kernel-config.ts, plugins/default-set.ts; test/config/trust-plugin-sections.test.ts keeps
 * the list in step). Any other top-level key of a project's config file is the section of a plugin
 * the user or the organisation configured (or a typo): that plugin reads it as its own settings
 * (a policy's `enforce: false`), so it needs trust like the paths above, hashed and listed alike.
 */
export const BUILD_CONFIG_KEYS: readonly string[] = ['plugins', 'disable', 'provider', 'providers', 'plugin_start_timeout_ms', 'max_turns', 'max_tool_concurrency', 'bash', 'sandbox', 'skills', 'mcp'];

/** The plugin sections a project config file sets: its top-level keys neither the build reads nor a path above covers. */
export function pluginSectionPaths(root: LocatedMap, buildKeys: ReadonlySet<string>): TrustPath[] {
  const covered = new Set(CONFIG_TRUST_PATHS.map((path) => path[0]));
  return [...root.entries.keys()].filter((key) => !buildKeys.has(key) && !covered.has(key)).map((key) => [key]);
}

/** In `.mewcode/settings.*` and `.mewcode/settings.local.*` (config/settings-files.ts; both spellings of each key). */
export const SETTINGS_TRUST_PATHS: readonly TrustPath[] = [
  // What runs without asking: a repository's `Bash` or `mcp__<your server>__*` would grant itself
  // execution. Its deny and ask rules need no trust (they only ever take permissions away).
  ['permissions', 'allow'],
  ['permissions', 'default_mode'],
  ['permissions', 'defaultMode'],
  ['permissions', 'additional_directories'],
  ['permissions', 'additionalDirectories'],
  ['hooks'], // Claude Code's hook commands, run on events (the hooks plugin)
];

/**
 * In Claude Code's `.claude/settings.json` and `.claude/settings.local.json`: the same hooks and
 * permissions as MewCode's settings files (their readers read these files too), plus which Claude
 * Code plugins run (code) and which marketplaces the project wants added.
 */
export const CLAUDE_SETTINGS_TRUST_PATHS: readonly TrustPath[] = [...SETTINGS_TRUST_PATHS, ['enabledPlugins'], ['extraKnownMarketplaces']];

export const keyOf = (path: TrustPath): string => path.join('.');

export interface FoundSetting {
  key: string;
  path: TrustPath;
  node: LocatedNode;
}

function nodeAt(root: LocatedMap, path: TrustPath): LocatedNode | undefined {
  let node: LocatedNode | undefined = root;
  for (const segment of path) {
    if (node?.kind !== 'map') return undefined;
    node = node.entries.get(segment);
  }
  return node;
}

/** The trust-requiring settings a file sets; an explicit `null` (an empty `key:`) sets nothing. */
export function findTrustSettings(root: LocatedMap, paths: readonly TrustPath[]): FoundSetting[] {
  const found: FoundSetting[] = [];
  for (const path of paths) {
    const node = nodeAt(root, path);
    if (node === undefined || (node.kind === 'scalar' && node.value === null)) continue;
    found.push({ key: keyOf(path), path, node });
  }
  return found;
}

/** A copy of `root` without the given paths (the parsed file, shared with a cache, is not changed). */
export function withoutPaths(root: LocatedMap, paths: readonly TrustPath[]): LocatedMap {
  let result = root;
  for (const path of paths) result = removePath(result, path);
  return result;
}

function removePath(map: LocatedMap, path: TrustPath): LocatedMap {
  const [first, ...rest] = path;
  if (first === undefined || !map.entries.has(first)) return map;
  const entries = new Map(map.entries);
  const child = entries.get(first);
  if (rest.length === 0) entries.delete(first);
  else if (child?.kind === 'map') entries.set(first, removePath(child, rest));
  else return map;
  // Where each remaining key is written stays known (a warning about one names its line).
  return { kind: 'map', pos: map.pos, entries, ...(map.keyPos ? { keyPos: map.keyPos } : {}) };
}
