/**
 * The manifest of installed Claude Code plugins and known marketplaces,
 * `~/.mewcode/plugins/installed.json`: what is installed, from which marketplace, at which
 * commit and version, and whether it is enabled.
 *
 * Written atomically (a new file beside it, fsynced, renamed over), so a reader never sees half
 * a manifest. A manifest that cannot be read as one is never overwritten: every command reads it
 * first and stops with an error naming the file, so fixing it by hand loses nothing.
 */
import { parseJsonWithinDepth } from '../nesting-depth.js';
import { closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { manifestPath } from './paths.js';
import { isRecord } from '../is-record.js';
import { readConfigFile } from '../config-file.js';

export type MarketplaceSource = { kind: 'git'; url: string } | { kind: 'directory'; path: string };

export interface MarketplaceRecord {
  name: string;
  source: MarketplaceSource;
  /** The folder holding `.claude-plugin/marketplace.json`: the clone of a git marketplace, or the local folder itself. */
  root: string;
  /** HEAD of the clone after the last add or update (git marketplaces). */
  commit?: string;
  addedAt: string;
  updatedAt: string;
}

export interface InstalledPlugin {
  name: string;
  marketplace: string;
  /** The installed copy (absolute). */
  root: string;
  /** The marketplace entry's version, else the plugin.json's. */
  version?: string;
  /** The commit the copy was taken from (the plugin's own repository, or the marketplace's). */
  commit?: string;
  /** Where it came from, for people: `./plugins/fmt in team-tools`, a git URL… */
  from: string;
  installedAt: string;
  enabled: boolean;
}

export interface PluginManifest {
  version: 1;
  marketplaces: Record<string, MarketplaceRecord>;
  /** By `name@marketplace`. */
  plugins: Record<string, InstalledPlugin>;
}

export class ManifestError extends Error {}

export const emptyManifest = (): PluginManifest => ({ version: 1, marketplaces: {}, plugins: {} });

const isString = (value: unknown): value is string => typeof value === 'string';
const optionalString = (value: unknown): boolean => value === undefined || isString(value);

function validSource(value: unknown): value is MarketplaceSource {
  if (!isRecord(value)) return false;
  return (value.kind === 'git' && isString(value.url)) || (value.kind === 'directory' && isString(value.path));
}

function problemOf(data: unknown): string | undefined {
  if (!isRecord(data)) return 'it is not a JSON object';
  if (data.version !== 1) return `unknown "version" ${JSON.stringify(data.version)} (expected 1)`;
  if (!isRecord(data.marketplaces)) return '"marketplaces" is not an object';
  if (!isRecord(data.plugins)) return '"plugins" is not an object';
  for (const [key, m] of Object.entries(data.marketplaces)) {
    if (!isRecord(m) || m.name !== key || !validSource(m.source) || !isString(m.root) || !optionalString(m.commit)) return `marketplaces["${key}"] is not a marketplace record`;
  }
  for (const [key, p] of Object.entries(data.plugins)) {
    if (!isRecord(p) || !isString(p.name) || !isString(p.marketplace) || key !== `${p.name}@${p.marketplace}` || !isString(p.root) || typeof p.enabled !== 'boolean' || !optionalString(p.version) || !optionalString(p.commit)) {
      return `plugins["${key}"] is not an installed-plugin record`;
    }
  }
  return undefined;
}

/** The manifest, or an empty one when there is none yet; throws ManifestError naming the file when it is unreadable or malformed. */
export function readManifest(homeDir: string): PluginManifest {
  const file = manifestPath(homeDir);
  const read = readConfigFile(file);
  if (!read.ok && read.missing) return emptyManifest();
  if (!read.ok) throw new ManifestError(`cannot read ${read.problem}`);
  const text = read.text;
  let data: unknown;
  try {
    data = parseJsonWithinDepth(text);
  } catch (error) {
    throw new ManifestError(`${file} is not valid JSON (${(error as Error).message}); it was left as it is: repair it, or move it away to start with no installed plugins`);
  }
  const problem = problemOf(data);
  if (problem) throw new ManifestError(`${file} is not a MewCode plugin manifest: ${problem}; it was left as it is: repair it, or move it away to start with no installed plugins`);
  return data as PluginManifest;
}

export function writeManifest(homeDir: string, manifest: PluginManifest): void {
  const file = manifestPath(homeDir);
  mkdirSync(path.dirname(file), { recursive: true });
  // O_EXCL below refuses a name that exists; no need for node:crypto (read at every start) for it.
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, `${JSON.stringify(manifest, null, 2)}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, file);
}

/** Reads, changes and writes the manifest; nothing is written when `change` throws. */
export function updateManifest<T>(homeDir: string, change: (manifest: PluginManifest) => T): T {
  const manifest = readManifest(homeDir);
  const result = change(manifest);
  writeManifest(homeDir, manifest);
  return result;
}
