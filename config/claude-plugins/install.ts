/**
 * `mewcode plugin install|uninstall|enable|disable`: copies of a marketplace's plugins under
 * `~/.mewcode/plugins/cache/<marketplace>/<plugin>`, recorded in the manifest. A plugin in a
 * folder of the marketplace is copied from it (the clone, for a git marketplace); a plugin in a
 * repository of its own is cloned with git at the entry's ref or sha. Installing again replaces
 * the copy (that is how a plugin is updated). A new copy is made beside the old one and swapped
 * in, so a failed install leaves the installed plugin as it was. A marketplace entry that defines
 * parts of its plugin (`strict`, entry-definition.ts) has them written into the copy's plugin.json.
 */
import { parseJsonWithinDepth } from '../nesting-depth.js';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, lstatSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';
import { PLUGIN_NAME } from './bundle/plugin-manifest.js';
import { applyEntryDefinition } from './entry-definition.js';
import { cloneRepository } from './git.js';
import { readManifest, updateManifest, type InstalledPlugin, type MarketplaceRecord, type PluginManifest } from './manifest.js';
import { readCatalogue, type MarketplaceEntry } from './marketplace-file.js';
import { removeInstalledCopy, unknownMarketplace } from './marketplaces.js';
import { installedPluginDir, pluginId, splitPluginId } from './paths.js';
import { readPluginSettings } from './settings.js';
import { reservedMarketplaceNameOffence } from './reserved-names.js';

export interface InstallReport {
  plugin: InstalledPlugin;
  /** It was installed before (the copy was replaced). */
  reinstalled: boolean;
  warnings: string[];
  notes: string[];
}

interface Found {
  entry: MarketplaceEntry;
  marketplace: MarketplaceRecord;
  catalogueFile: string;
}

/** `name@marketplace`, or a bare name that exactly one known marketplace offers. */
function findInMarketplaces(manifest: PluginManifest, spec: string, warnings: string[]): Found {
  const { name, marketplace } = splitPluginId(spec);
  const known = Object.keys(manifest.marketplaces);
  if (marketplace !== undefined && !manifest.marketplaces[marketplace]) throw unknownMarketplace(marketplace, known);
  const candidates = marketplace !== undefined ? [manifest.marketplaces[marketplace]!] : Object.values(manifest.marketplaces);
  if (candidates.length === 0) throw unknownMarketplace(spec, known);
  const found: Found[] = [];
  for (const record of candidates) {
    // A record an older MewCode added under a name reserved for Anthropic installs nothing.
    const reserved = reservedMarketplaceNameOffence(record.name, record.source);
    if (reserved) {
      if (marketplace !== undefined) throw new Error(`marketplace ${record.name} ${reserved}; remove it (mewcode plugin marketplace remove ${record.name})`);
      warnings.push(`marketplace ${record.name} ${reserved}; not searched`);
      continue;
    }
    let catalogue;
    try {
      catalogue = readCatalogue(record.root);
    } catch (error) {
      if (marketplace !== undefined) throw error;
      warnings.push(`marketplace ${record.name}: ${(error as Error).message}; not searched`);
      continue;
    }
    if (marketplace !== undefined) warnings.push(...catalogue.warnings);
    const entry = catalogue.plugins.find((p) => p.name === name);
    if (entry) found.push({ entry, marketplace: record, catalogueFile: catalogue.file });
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new Error(`several marketplaces offer "${name}": ${found.map((f) => pluginId(name, f.marketplace.name)).join(', ')}; name one`);
  throw new Error(marketplace !== undefined ? `marketplace ${marketplace} has no plugin named "${name}" (${readCatalogue(candidates[0]!.root).file})` : `no known marketplace offers a plugin named "${name}" (searched: ${candidates.map((c) => c.name).join(', ')})`);
}

export async function installPlugin(homeDir: string, spec: string): Promise<InstallReport> {
  const warnings: string[] = [];
  const notes: string[] = [];
  const manifest = readManifest(homeDir);
  const { entry, marketplace, catalogueFile } = findInMarketplaces(manifest, spec, warnings);
  const id = pluginId(entry.name, marketplace.name);
  const target = installedPluginDir(homeDir, marketplace.name, entry.name);
  await mkdir(path.dirname(target), { recursive: true });
  const staging = `${target}.${randomBytes(6).toString('hex')}.new`;
  let commit: string | undefined;
  let from: string;
  try {
    if (entry.source.kind === 'relative') {
      const source = path.resolve(marketplace.root, entry.source.path);
      from = `${entry.source.path} in ${marketplace.name}`;
      if (!existsSync(source) || !statSync(source).isDirectory()) throw new Error(`${catalogueFile}: plugin "${entry.name}": its source ${entry.source.path} is not a folder of the marketplace (${source})`);
      const realRoot = realpathSync(marketplace.root);
      const realSource = realpathSync(source);
      if (!isPathWithin(realRoot, realSource)) throw new Error(`${catalogueFile}: plugin "${entry.name}": its source ${entry.source.path} lies outside the marketplace`);
      cpSync(realSource, staging, { recursive: true, verbatimSymlinks: true, filter: copyFilter(realSource, warnings) });
      commit = marketplace.commit;
    } else {
      const { url, subdir } = entry.source;
      from = subdir ? `${url} (${subdir})` : url;
      const clone = `${staging}.clone`;
      try {
        commit = await cloneRepository(url, clone, { ...(entry.source.ref ? { ref: entry.source.ref } : {}), ...(entry.source.sha ? { sha: entry.source.sha } : {}) });
        const wanted = subdir ? path.resolve(clone, subdir) : clone;
        if (!existsSync(wanted) || !statSync(wanted).isDirectory()) throw new Error(`${catalogueFile}: plugin "${entry.name}": ${url} has no folder ${subdir}`);
        // Links resolved, as for a marketplace folder's source: a subdirectory that is a link out of
        // the clone would be copied as that link, and the install would then write through it.
        const realClone = realpathSync(clone);
        const folder = realpathSync(wanted);
        if (!isPathWithin(realClone, folder)) throw new Error(`${catalogueFile}: plugin "${entry.name}": its path ${subdir} lies outside the repository`);
        cpSync(folder, staging, { recursive: true, verbatimSymlinks: true, filter: copyFilter(folder, warnings) });
      } finally {
        rmSync(clone, { recursive: true, force: true });
      }
    }
    const shown = entry.source.kind === 'relative' ? path.join(path.resolve(marketplace.root, entry.source.path), '.claude-plugin', 'plugin.json') : `.claude-plugin/plugin.json of ${from}`;
    const pluginVersion = checkPluginManifest(staging, entry.name, shown);
    applyEntryDefinition(staging, entry, catalogueFile, shown);
    // The name its commands, agents and MCP tools are called by: one a run would refuse is refused now.
    const name = pluginJsonName(staging) ?? entry.name;
    if (!PLUGIN_NAME.test(name)) throw new Error(`plugin "${entry.name}": ${JSON.stringify(name)} cannot be a plugin name (letters, digits, "-" and "_"; its commands are /${name}:…), and ${shown} gives no other; not installed`);
    const version = entry.version ?? pluginVersion;
    // Swap the new copy in; the old one (a reinstall) goes only once the new one is in place.
    const old = `${target}.${randomBytes(6).toString('hex')}.old`;
    if (existsSync(target)) renameSync(target, old);
    renameSync(staging, target);
    rmSync(old, { recursive: true, force: true });
    const previous = manifest.plugins[id];
    // Only the user's own settings file (the home directory as the project: no project files are read).
    const userChoice = readPluginSettings(homeDir, homeDir, undefined).enabled.get(id);
    const enabled = previous?.enabled ?? (userChoice?.scope === 'user' ? userChoice.enabled : true);
    if (!previous && userChoice?.scope === 'user' && !userChoice.enabled) notes.push(`${userChoice.file} disables ${id}: installed disabled (mewcode plugin enable ${id} turns it on)`);
    const plugin: InstalledPlugin = { name: entry.name, marketplace: marketplace.name, root: target, from, installedAt: new Date().toISOString(), enabled, ...(version ? { version } : {}), ...(commit ? { commit } : {}) };
    updateManifest(homeDir, (m) => {
      for (const other of Object.values(m.plugins)) {
        if (other.name === entry.name && other.marketplace !== marketplace.name) warnings.push(`a plugin named "${entry.name}" is also installed from ${other.marketplace}; where their commands or agents share a name, use the one you mean by its plugin's name (<plugin>:<name>), or disable one of them`);
      }
      m.plugins[id] = plugin;
    });
    return { plugin, reinstalled: previous !== undefined, warnings, notes };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * What a copy leaves out: `.git`, and links that lead out of the plugin (or nowhere): a plugin
 * may not bring in the user's other files under its own name.
 */
function copyFilter(root: string, warnings: string[]): (file: string) => boolean {
  return (file) => {
    if (path.basename(file) === '.git') return false;
    if (!lstatSync(file).isSymbolicLink()) return true;
    let real: string | undefined;
    try {
      real = realpathSync(file);
    } catch {
      real = undefined;
    }
    if (real !== undefined && isPathWithin(root, real)) return true;
    warnings.push(`${file} is a link ${real === undefined ? 'to nothing' : `out of the plugin (to ${real})`}; not copied`);
    return false;
  };
}

/** A present `.claude-plugin/plugin.json` must be a JSON object: a plugin that could never load is not installed. Returns its version. */
function checkPluginManifest(dir: string, name: string, shown: string): string | undefined {
  const file = path.join(dir, '.claude-plugin', 'plugin.json');
  if (!existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = parseJsonWithinDepth(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`plugin "${name}": ${shown} is not valid JSON (${(error as Error).message}); not installed`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`plugin "${name}": ${shown} is not a JSON object; not installed`);
  const version = (data as Record<string, unknown>).version;
  return typeof version === 'string' && version.trim() !== '' ? version.trim() : undefined;
}

/** The `name` of a copy's plugin.json, when it has one (as written: a run checks it). */
function pluginJsonName(dir: string): string | undefined {
  try {
    const data: unknown = parseJsonWithinDepth(readFileSync(path.join(dir, '.claude-plugin', 'plugin.json'), 'utf8'));
    const name = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).name : undefined;
    return typeof name === 'string' ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The installed plugin `spec` names: `name@marketplace`, or a name only one installed plugin has. */
export function findInstalled(manifest: PluginManifest, spec: string): InstalledPlugin {
  const { name, marketplace } = splitPluginId(spec);
  const matches = Object.values(manifest.plugins).filter((p) => p.name === name && (marketplace === undefined || p.marketplace === marketplace));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new Error(`several installed plugins are named "${name}": ${matches.map((p) => pluginId(p.name, p.marketplace)).join(', ')}; name one`);
  const installed = Object.keys(manifest.plugins);
  throw new Error(`no installed plugin ${spec} (${installed.length > 0 ? `installed: ${installed.join(', ')}` : 'none is installed'}); install it with \`mewcode plugin install <plugin>@<marketplace>\``);
}

export function uninstallPlugin(homeDir: string, spec: string): InstalledPlugin {
  return updateManifest(homeDir, (manifest) => {
    const plugin = findInstalled(manifest, spec);
    removeInstalledCopy(homeDir, plugin);
    delete manifest.plugins[pluginId(plugin.name, plugin.marketplace)];
    return plugin;
  });
}

/** Turns an installed plugin on or off; `changed` false when it already was. */
export function setPluginEnabled(homeDir: string, spec: string, enabled: boolean): { plugin: InstalledPlugin; changed: boolean } {
  return updateManifest(homeDir, (manifest) => {
    const plugin = findInstalled(manifest, spec);
    const changed = plugin.enabled !== enabled;
    plugin.enabled = enabled;
    return { plugin, changed };
  });
}
