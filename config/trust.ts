/**
 * The workspace trust service (A12, types/trust.ts). Created before the kernel:
 *
 * ```ts
 * const trust = await createWorkspaceTrust({ projectRoot: cwd, homeDir, env: process.env, flag: options.trustProject });
 * const config = await loadConfig({ cwd, homeDir, trust }); // untrusted settings left out
 * ```
 *
 * Trusted when, in this order: `flag` (--trust-project), `MEWCODE_TRUST_PROJECT=1` in `env`
 * (both for this run only, nothing written), or trust.json holds this project's real path with
 * the hash of its current trust-requiring settings and of the code they name (`stored`), or
 * `grant()` was called (`dialog`). trust.json is read only when the project has such settings.
 * The record also keeps one hash per setting, so when the project changed the notice and the
 * dialog can say which settings or files did. A file of code too large to hash is never trusted
 * from storage (each start asks again).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { PendingTrust, SettingsScope, TrustSource, WorkspaceTrust } from '../types/trust.js';
import { canonicalHash, canonicalJson } from './canonical-json.js';
import { type ScannedSetting, scanProject } from './trust-scan.js';
import { readTrustFile, trustFilePath, writeTrust } from './trust-store.js';
import { terminalSafe } from './trust-summary.js';
import { BUILD_CONFIG_KEYS } from './trust-keys.js';

export interface WorkspaceTrustOptions {
  projectRoot: string;
  homeDir: string;
  /** The environment, for MEWCODE_TRUST_PROJECT (`1` or `true`). */
  env?: NodeJS.ProcessEnv;
  /** --trust-project: trusted for this run. */
  flag?: boolean;
  /** Whether trust.json is consulted (default true); false gives a service that is never trusted from storage. */
  stored?: boolean;
  /**
   * Top-level config keys a custom build's own plugins read, besides MewCode's (BUILD_CONFIG_KEYS):
   * a project's value for them is no configured plugin's section and needs no trust.
   */
  buildConfigKeys?: readonly string[];
}

/** The hash of exactly these settings' values (files relative to the project root). */
export function settingsHash(settings: readonly Pick<ScannedSetting, 'display' | 'key' | 'value'>[]): Promise<string> {
  const items = settings
    .map((s) => ({ file: s.display, key: s.key, value: s.value }))
    .sort((a, b) => (a.file === b.file ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.file < b.file ? -1 : 1));
  return canonicalHash({ version: 1, settings: items });
}

/** How a setting is named in the notice, the dialog and the per-setting hashes. */
const settingId = (s: Pick<ScannedSetting, 'display' | 'key'>): string => `${s.display}: ${s.key}`;

/** One hash per setting, so a later start can tell which of them changed. */
async function itemHashes(settings: readonly ScannedSetting[]): Promise<Record<string, string>> {
  const items: Record<string, string> = {};
  for (const s of settings) items[settingId(s)] = await canonicalHash({ file: s.display, key: s.key, value: s.value });
  return items;
}

/** The settings that differ from what the user trusted (new, changed or gone); undefined when the record cannot tell. */
async function changedSince(recorded: Record<string, string> | undefined, settings: readonly ScannedSetting[]): Promise<string[] | undefined> {
  if (recorded === undefined) return undefined;
  const now = await itemHashes(settings);
  const changed = Object.keys(now).filter((id) => recorded[id] !== now[id]);
  for (const id of Object.keys(recorded)) if (!Object.hasOwn(now, id)) changed.push(`${id} (removed)`);
  return changed;
}

function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

const envTrusts = (env: NodeJS.ProcessEnv | undefined): boolean => {
  const value = env?.MEWCODE_TRUST_PROJECT?.trim().toLowerCase();
  return value === '1' || value === 'true';
};

export async function createWorkspaceTrust(options: WorkspaceTrustOptions): Promise<WorkspaceTrust> {
  const root = path.resolve(options.projectRoot);
  const homeDir = path.resolve(options.homeDir);
  const scan = await scanProject(root, homeDir, new Set([...BUILD_CONFIG_KEYS, ...(options.buildConfigKeys ?? [])]));
  const realRoot = realOrResolved(root);
  // Hashed only when needed: a project without such settings never loads node:crypto here.
  let hash: Promise<string> | undefined;
  const currentHash = () => (hash ??= settingsHash(scan.settings));
  const warnings = [...scan.warnings];

  let source: TrustSource = 'none';
  let changed = false;
  /** What changed since the user trusted the project, when the record can tell. */
  let changedItems: string[] | undefined;
  const unverifiable = scan.settings.filter((s) => s.unverifiable === true).map(settingId);
  if (options.flag === true) source = 'flag';
  else if (envTrusts(options.env)) source = 'env';
  else if (scan.settings.length > 0 && options.stored !== false) {
    const stored = readTrustFile(trustFilePath(homeDir));
    if (stored.warning) warnings.push(stored.warning);
    const record = Object.hasOwn(stored.file.projects, realRoot) ? stored.file.projects[realRoot] : undefined;
    if (record !== undefined && record.hash === (await currentHash()) && unverifiable.length === 0) source = 'stored';
    else if (record) {
      // A record whose hash still matches failed only for code too large to verify (the notice says so).
      changed = record.hash !== (await currentHash());
      if (changed) changedItems = await changedSince(record.items, scan.settings);
    }
  }
  const isChanged = (s: ScannedSetting): boolean => changedItems?.includes(settingId(s)) === true;

  const refused: string[] = [];
  const refuse = (entry: string): false => {
    if (!refused.includes(entry)) refused.push(entry);
    return false;
  };
  const userDir = path.join(homeDir, '.mewcode') + path.sep;
  // A project inside the user's directory (a marketplace's clone, a skill's checkout under
  // ~/.mewcode) is a repository like any other: none of its files is the user's.
  const realUserDir = realOrResolved(path.join(homeDir, '.mewcode')) + path.sep;
  const projectInUserDir = [root, realRoot].some((dir) => (dir + path.sep).startsWith(userDir) || (dir + path.sep).startsWith(realUserDir));
  const isTrusted = () => source !== 'none';
  const displayOf = (file: string): string => path.relative(root, path.resolve(file)).split(path.sep).join('/');

  const skipped = (): string[] => {
    const all = isTrusted() ? [] : scan.settings.map((s) => `${s.display}: ${terminalSafe(s.key)}`);
    for (const entry of refused) if (!all.includes(entry)) all.push(entry);
    return all;
  };

  const service: WorkspaceTrust = {
    projectRoot: realRoot,
    get source() {
      return source;
    },
    warnings,
    isTrusted,
    pending(): PendingTrust {
      const settings = isTrusted() ? [] : scan.settings.map((s) => ({ file: s.display, key: s.key, summary: isChanged(s) ? `changed since you trusted it: ${s.summary}` : s.summary }));
      return { projectRoot: realRoot, settings, changed: changed && !isTrusted() };
    },
    async grant() {
      await writeTrust(trustFilePath(homeDir), realRoot, await currentHash(), await itemHashes(scan.settings));
      source = 'dialog';
      changed = false;
      // Refusals so far were for want of trust; the CLI loads the configuration again after this.
      refused.length = 0;
    },
    skipped,
    notice() {
      if (skipped().length === 0) return undefined;
      const scanned = isTrusted() ? [] : scan.settings.map((s) => `  ${terminalSafe(s.display)}: ${terminalSafe(s.key)}: ${s.summary}${isChanged(s) ? ' (changed)' : ''}`);
      const unexpected = refused.filter((entry) => isTrusted() || !scan.settings.some((s) => settingId(s) === entry));
      const lines = [...scanned, ...unexpected.map((entry) => `  ${terminalSafe(entry)} (changed after the trust check)`)];
      const removed = isTrusted() ? [] : (changedItems ?? []).filter((id) => id.endsWith(' (removed)')).map((id) => `  ${terminalSafe(id)}`);
      const tooLarge = isTrusted() || unverifiable.length === 0 ? [] : [`Files of code too large to hash (${unverifiable.join(', ')}) are never remembered as trusted: each start asks again.`];
      const why = isTrusted()
        ? 'were skipped because they changed while MewCode was starting'
        : changed
          ? 'were skipped: they changed since you trusted this project'
          : 'were skipped: this project is not trusted';
      return [
        `trust: these settings of ${terminalSafe(realRoot)} that run code or send data ${why}:`,
        ...lines,
        ...removed,
        ...tooLarge,
        'Review them; to apply them pass --trust-project (or set MEWCODE_TRUST_PROJECT=1) for one run, or trust the project when an interactive session asks.',
      ].join('\n');
    },
    scopeOf(file: string): SettingsScope {
      const absolute = path.resolve(file);
      if (scan.localFiles.has(absolute)) return 'project';
      if (absolute.startsWith(userDir) && !projectInUserDir) return 'user';
      // Anything else in the project — a `*.local.*` file included, whatever git says of it:
      // only what the user trusted, as MewCode hashed it, runs.
      return 'project';
    },
    approves(file: string, key: string, value: unknown): boolean {
      const absolute = path.resolve(file);
      const display = displayOf(file);
      if (!isTrusted()) return refuse(`${display}: ${key}`);
      const seen = scan.settings.find((s) => s.file === absolute && s.key === key);
      if (seen === undefined || canonicalJson(seen.value) !== canonicalJson(value)) return refuse(`${display}: ${key}`);
      return true;
    },
  };
  return service;
}
