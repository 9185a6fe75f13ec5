/**
 * Reading a marketplace's catalogue, `<root>/.claude-plugin/marketplace.json`, in Claude Code's
 * shape: `{ name, owner: {name}, plugins: [{ name, source, version?, description? … }] }`.
 *
 * The catalogue as a whole must be usable (an object with a safe `name` and a `plugins` list), or
 * reading it throws an error naming the file and the reason. One bad entry (no name, no source, a
 * name already used by an earlier entry) is left out with a warning naming the file and the entry;
 * the others are kept. Fields MewCode does not use are ignored, as Claude Code ignores unknown ones.
 */
import { parseJsonWithinDepth } from '../nesting-depth.js';
import path from 'node:path';
import { isSafeName } from './paths.js';
import { isRecord } from '../is-record.js';
import { claudeFlag } from '../../types/claude-boolean.js';
import { COMPONENT_KEYS, type ComponentKey } from './bundle/plugin-manifest.js';
import { readConfigFile } from '../config-file.js';

/** Where a plugin entry's files come from. `git` covers Claude Code's `github`, `url` and `git-subdir` sources. */
export type PluginSource =
  | { kind: 'relative'; path: string }
  | { kind: 'git'; url: string; ref?: string; sha?: string; subdir?: string };

export interface MarketplaceEntry {
  name: string;
  source: PluginSource;
  version?: string;
  description?: string;
  /** `author` as the entry gives it (used when the entry is the plugin's whole definition). */
  author?: unknown;
  /** `strict: false`: the entry is the plugin's whole definition; otherwise its parts add to plugin.json's. */
  strict: boolean;
  /** The parts the entry itself declares (`commands`, `skills`…), as written. */
  components: Partial<Record<ComponentKey, unknown>>;
}

export interface MarketplaceCatalogue {
  file: string;
  name: string;
  owner?: string;
  description?: string;
  plugins: MarketplaceEntry[];
  warnings: string[];
}

export const catalogueFile = (root: string): string => path.join(root, '.claude-plugin', 'marketplace.json');

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A string source that is a git URL rather than a folder of the marketplace. */
export function looksLikeGitUrl(text: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/|git@[^:]+:)/i.test(text) || /\.git$/.test(text);
}

const GITHUB_REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** The entry's `source` as MewCode can fetch it, or the reason it cannot. */
export function parseSource(value: unknown, pluginRoot: string | undefined): PluginSource | string {
  if (value === undefined || value === null || value === '') return 'it has no "source"';
  if (typeof value === 'string') {
    if (looksLikeGitUrl(value)) return { kind: 'git', url: value };
    // A bare name is looked up under metadata.pluginRoot, as Claude Code does.
    const relative = !value.startsWith('./') && !value.startsWith('../') && pluginRoot !== undefined ? path.posix.join(pluginRoot, value) : value;
    return { kind: 'relative', path: relative };
  }
  if (!isRecord(value)) return '"source" must be a path or an object';
  const ref = str(value.ref);
  const sha = str(value.sha);
  const pin = { ...(ref ? { ref } : {}), ...(sha ? { sha } : {}) };
  switch (value.source) {
    case 'github': {
      const repo = str(value.repo);
      if (!repo || !GITHUB_REPO.test(repo)) return 'a "github" source needs "repo": "owner/name"';
      return { kind: 'git', url: `https://github.com/${repo}.git`, ...pin };
    }
    case 'url':
    case 'git': {
      const url = str(value.url);
      if (!url) return `a "${String(value.source)}" source needs "url"`;
      return { kind: 'git', url, ...pin };
    }
    case 'git-subdir': {
      const url = str(value.url);
      const subdir = str(value.path);
      if (!url || !subdir) return 'a "git-subdir" source needs "url" and "path"';
      return { kind: 'git', url, subdir, ...pin };
    }
    default:
      return `source type ${JSON.stringify(value.source)} is not supported by MewCode (a folder of the marketplace, or a git repository: "github", "url", "git-subdir")`;
  }
}

/** Reads and checks the catalogue at `root`; throws an Error naming the file when it is unusable. */
export function readCatalogue(root: string): MarketplaceCatalogue {
  const file = catalogueFile(root);
  const read = readConfigFile(file);
  if (!read.ok) throw new Error(read.missing ? `${file} does not exist: not a Claude Code marketplace` : `cannot read ${read.problem}`);
  const text = read.text;
  let data: unknown;
  try {
    data = parseJsonWithinDepth(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(data)) throw new Error(`${file}: the catalogue must be a JSON object`);
  const name = str(data.name);
  if (!name) throw new Error(`${file}: "name" (the marketplace's name) is missing`);
  if (!isSafeName(name)) throw new Error(`${file}: the marketplace name ${JSON.stringify(name)} is not a plain name (letters, digits, ".", "_", "-")`);
  if (!Array.isArray(data.plugins)) throw new Error(`${file}: "plugins" must be a list`);
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  const pluginRoot = str(metadata.pluginRoot);
  const warnings: string[] = [];
  const plugins: MarketplaceEntry[] = [];
  const seen = new Set<string>();
  data.plugins.forEach((entry: unknown, index: number) => {
    const where = `${file}: plugins[${index}]`;
    if (!isRecord(entry)) return void warnings.push(`${where} is not an object; skipped`);
    const pluginName = str(entry.name);
    if (!pluginName) return void warnings.push(`${where} has no "name"; skipped`);
    if (!isSafeName(pluginName)) return void warnings.push(`${where}: the name ${JSON.stringify(pluginName)} is not a plain name; skipped`);
    if (seen.has(pluginName)) return void warnings.push(`${where}: the name "${pluginName}" is used by an earlier entry, which is kept; this one is skipped`);
    const source = parseSource(entry.source, pluginRoot);
    if (typeof source === 'string') return void warnings.push(`${where} ("${pluginName}"): ${source}; skipped`);
    seen.add(pluginName);
    const version = str(entry.version);
    const description = str(entry.description);
    const components = Object.fromEntries(COMPONENT_KEYS.filter((key) => entry[key] !== undefined && entry[key] !== null).map((key) => [key, entry[key]]));
    plugins.push({
      name: pluginName,
      source,
      ...(version ? { version } : {}),
      ...(description ? { description } : {}),
      ...(entry.author !== undefined ? { author: entry.author } : {}),
      strict: claudeFlag(entry.strict, 'strict', true, (message) => warnings.push(`${where} ("${pluginName}"): ${message}`)),
      components,
    });
  });
  const owner = isRecord(data.owner) ? str(data.owner.name) : undefined;
  const description = str(data.description) ?? str(metadata.description);
  return { file, name, plugins, warnings, ...(owner ? { owner } : {}), ...(description ? { description } : {}) };
}
