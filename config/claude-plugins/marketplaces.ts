/**
 * `mewcode plugin marketplace add|list|update|remove`: the marketplaces the user knows, kept in
 * the manifest. A local folder is read where it is (offline, and a change there is seen at once);
 * a git repository is cloned under `~/.mewcode/plugins/marketplaces/<name>` with `git clone` and
 * updated with `git fetch` (the commit is recorded each time).
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isPathStrictlyWithin } from '../../types/path-within.js';
import { cloneRepository, headCommit, pullRepository } from './git.js';
import { readManifest, updateManifest, type InstalledPlugin, type MarketplaceRecord, type MarketplaceSource } from './manifest.js';
import { looksLikeGitUrl, readCatalogue, type MarketplaceCatalogue } from './marketplace-file.js';
import { marketplaceCloneDir, pluginDataDir, pluginId, pluginsHome } from './paths.js';
import { reservedMarketplaceNameOffence } from './reserved-names.js';

export interface MarketplaceReport {
  record: MarketplaceRecord;
  catalogue: MarketplaceCatalogue;
  /** For an update: the commit before. */
  previousCommit?: string;
  /** `add` of a marketplace that was already there from the same source. */
  alreadyAdded?: boolean;
}

const GITHUB_SHORTHAND = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** What `marketplace add <spec>` names: a local folder (or its marketplace.json), or a git repository (`url[#ref]`, `owner/repo[@ref]`). */
export function resolveMarketplaceSpec(spec: string, cwd: string, homeDir: string): { source: MarketplaceSource; ref?: string } {
  const expanded = spec.startsWith('~/') ? path.join(homeDir, spec.slice(2)) : spec;
  const local = path.resolve(cwd, expanded);
  const pathLike = /^(?:\.{1,2}(?:\/|$)|\/|~\/)/.test(spec);
  if (!spec.includes('://') && (pathLike || existsSync(local))) {
    if (!existsSync(local)) throw new Error(`nothing at ${local}`);
    // `…/.claude-plugin/marketplace.json` names the folder above it.
    if (statSync(local).isFile()) {
      if (path.basename(local) !== 'marketplace.json' || path.basename(path.dirname(local)) !== '.claude-plugin') throw new Error(`${local} is a file: name the marketplace's folder (the one holding .claude-plugin/marketplace.json)`);
      return { source: { kind: 'directory', path: path.dirname(path.dirname(local)) } };
    }
    return { source: { kind: 'directory', path: local } };
  }
  const [url, ref] = spec.split('#', 2) as [string, string | undefined];
  // Claude Code also takes a catalogue's own URL; MewCode installs from clones and folders only.
  if (/^https?:\/\/[^#?]*\.json(?:[?#]|$)/i.test(spec)) {
    throw new Error(`${spec}: adding a marketplace.json by its URL is not supported by MewCode; add the git repository or a folder that holds .claude-plugin/marketplace.json`);
  }
  if (looksLikeGitUrl(url)) return { source: { kind: 'git', url }, ...(ref ? { ref } : {}) };
  // `owner/repo@ref`, as Claude Code spells a GitHub marketplace at a branch or tag.
  const [repo, atRef] = ref === undefined && url.includes('@') ? (url.split('@', 2) as [string, string]) : [url, ref];
  if (GITHUB_SHORTHAND.test(repo)) return { source: { kind: 'git', url: `https://github.com/${repo}.git` }, ...(atRef ? { ref: atRef } : {}) };
  throw new Error(`${spec} is neither a folder nor a git repository URL (https://…, file://…, git@host:path, owner/repo[@ref])`);
}

const sameSource = (a: MarketplaceSource, b: MarketplaceSource): boolean => (a.kind === 'git' && b.kind === 'git' ? a.url === b.url : a.kind === 'directory' && b.kind === 'directory' ? a.path === b.path : false);

export const describeSource = (source: MarketplaceSource): string => (source.kind === 'git' ? source.url : source.path);

export async function addMarketplace(homeDir: string, spec: string, cwd: string = process.cwd()): Promise<MarketplaceReport> {
  const manifest = readManifest(homeDir); // a broken manifest stops here, before anything is fetched
  const { source, ref } = resolveMarketplaceSpec(spec, cwd, homeDir);
  const now = new Date().toISOString();
  if (source.kind === 'directory') {
    const catalogue = readCatalogue(source.path);
    refuseReservedName(catalogue.file, catalogue.name, source);
    const existing = manifest.marketplaces[catalogue.name];
    if (existing && sameSource(existing.source, source)) return { record: existing, catalogue, alreadyAdded: true };
    if (existing) throw clash(catalogue, existing);
    const record: MarketplaceRecord = { name: catalogue.name, source, root: source.path, addedAt: now, updatedAt: now };
    updateManifest(homeDir, (m) => void (m.marketplaces[record.name] = record));
    return { record, catalogue };
  }
  const staging = path.join(pluginsHome(homeDir), 'marketplaces', `.adding-${randomBytes(6).toString('hex')}`);
  await mkdir(path.dirname(staging), { recursive: true });
  try {
    const commit = await cloneRepository(source.url, staging, ref ? { ref } : {});
    let catalogue: MarketplaceCatalogue;
    try {
      catalogue = readCatalogue(staging);
    } catch (error) {
      // Name the repository, not the temporary clone.
      throw new Error(`${source.url}: ${(error as Error).message.split(staging).join('<repository>')}`);
    }
    refuseReservedName(`${source.url}: .claude-plugin/marketplace.json`, catalogue.name, source);
    const existing = manifest.marketplaces[catalogue.name];
    if (existing && sameSource(existing.source, source)) return { record: existing, catalogue: readCatalogue(existing.root), alreadyAdded: true };
    if (existing) throw clash(catalogue, existing);
    const root = marketplaceCloneDir(homeDir, catalogue.name);
    rmSync(root, { recursive: true, force: true }); // a clone left by an interrupted remove
    renameSync(staging, root);
    const record: MarketplaceRecord = { name: catalogue.name, source, root, commit, addedAt: now, updatedAt: now };
    updateManifest(homeDir, (m) => void (m.marketplaces[record.name] = record));
    return { record, catalogue: { ...catalogue, file: catalogue.file.replace(staging, root), warnings: catalogue.warnings.map((w) => w.replace(staging, root)) } };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A name reserved for Anthropic, from anywhere else (reserved-names.ts): refused before anything is recorded. */
function refuseReservedName(file: string, name: string, source: MarketplaceSource): void {
  const offence = reservedMarketplaceNameOffence(name, source);
  if (offence) throw new Error(`${file} ${offence}`);
}

function clash(catalogue: MarketplaceCatalogue, existing: MarketplaceRecord): Error {
  return new Error(`${catalogue.file} names the marketplace "${catalogue.name}", but a marketplace of that name is already added from ${describeSource(existing.source)}; remove it first (mewcode plugin marketplace remove ${catalogue.name})`);
}

export function unknownMarketplace(name: string, known: readonly string[]): Error {
  return new Error(`no marketplace named "${name}" has been added (${known.length > 0 ? `known: ${known.join(', ')}` : 'none is known yet'}); add it with \`mewcode plugin marketplace add <git URL | folder>\``);
}

/** Every known marketplace with its catalogue, or the reason its catalogue cannot be read. */
export function listMarketplaces(homeDir: string): { record: MarketplaceRecord; catalogue?: MarketplaceCatalogue; error?: string }[] {
  const manifest = readManifest(homeDir);
  return Object.values(manifest.marketplaces).map((record) => {
    try {
      return { record, catalogue: readCatalogue(record.root) };
    } catch (error) {
      return { record, error: (error as Error).message };
    }
  });
}

/** Fetches a git marketplace's newest commit (a folder is read again); `name` undefined: every one. */
export async function updateMarketplaces(homeDir: string, name: string | undefined): Promise<{ name: string; report?: MarketplaceReport; error?: string }[]> {
  const manifest = readManifest(homeDir);
  const names = name === undefined ? Object.keys(manifest.marketplaces) : [name];
  if (name !== undefined && !manifest.marketplaces[name]) throw unknownMarketplace(name, Object.keys(manifest.marketplaces));
  const results: { name: string; report?: MarketplaceReport; error?: string }[] = [];
  for (const each of names) {
    const record = manifest.marketplaces[each]!;
    try {
      let commit = record.commit;
      if (record.source.kind === 'git') {
        commit = existsSync(record.root) ? await pullRepository(record.root) : await cloneRepository(record.source.url, record.root);
        commit ??= await headCommit(record.root);
      }
      const catalogue = readCatalogue(record.root);
      const updated: MarketplaceRecord = { ...record, ...(commit ? { commit } : {}), updatedAt: new Date().toISOString() };
      updateManifest(homeDir, (m) => void (m.marketplaces[each] = updated));
      results.push({ name: each, report: { record: updated, catalogue, ...(record.commit ? { previousCommit: record.commit } : {}) } });
    } catch (error) {
      results.push({ name: each, error: (error as Error).message });
    }
  }
  return results;
}

/** Forgets a marketplace, deletes its clone and uninstalls its plugins (as Claude Code does); returns their ids. */
export function removeMarketplace(homeDir: string, name: string): { record: MarketplaceRecord; uninstalled: string[] } {
  return updateManifest(homeDir, (manifest) => {
    const record = manifest.marketplaces[name];
    if (!record) throw unknownMarketplace(name, Object.keys(manifest.marketplaces));
    const uninstalled: string[] = [];
    for (const [id, plugin] of Object.entries(manifest.plugins)) {
      if (plugin.marketplace !== name) continue;
      removeInstalledCopy(homeDir, plugin);
      delete manifest.plugins[id];
      uninstalled.push(id);
    }
    if (record.source.kind === 'git' && isPathStrictlyWithin(pluginsHome(homeDir), record.root)) rmSync(record.root, { recursive: true, force: true });
    delete manifest.marketplaces[name];
    return { record, uninstalled };
  });
}

/**
 * Deletes what an installed plugin left: its copy, its `${CLAUDE_PLUGIN_DATA}` folder and the
 * marketplace's cache folder once empty — only ever under ~/.mewcode/plugins (the manifest is a
 * file a hand may edit).
 */
export function removeInstalledCopy(homeDir: string, plugin: Pick<InstalledPlugin, 'root' | 'name' | 'marketplace'>): void {
  const home = pluginsHome(homeDir);
  const root = path.resolve(plugin.root);
  if (isPathStrictlyWithin(home, root)) {
    rmSync(root, { recursive: true, force: true });
    const parent = path.dirname(root);
    if (isPathStrictlyWithin(path.join(home, 'cache'), parent) && readdirSync(parent).length === 0) rmSync(parent, { recursive: true, force: true });
  }
  rmSync(pluginDataDir(homeDir, pluginId(plugin.name, plugin.marketplace)), { recursive: true, force: true });
}
