/**
 * The workspace trust service (SPEC A12, types/trust.ts). Created before the kernel:
 *
 * ```ts
 * const trust = await createWorkspaceTrust({ projectRoot: cwd, homeDir, env: process.env, flag: options.trustProject });
 * const config = await loadConfig({ cwd, homeDir, trust }); // untrusted settings left out
 * ```
 *
 * Trusted when, in this order: `flag` (--trust-project), `MEWCODE_TRUST_PROJECT=1` in `env`
 * (both for this run only, nothing written), or trust.json holds this project's real path with
 * the hash of its current trust-requiring settings (`stored`), or `grant()` was called
 * (`dialog`). trust.json is read only when the project has such settings.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { PendingTrust, SettingsScope, TrustSource, WorkspaceTrust } from '../types/trust.js';
import { canonicalHash, canonicalJson } from './canonical-json.js';
import { type ScannedSetting, scanProject } from './trust-scan.js';
import { readTrustFile, trustFilePath, writeTrust } from './trust-store.js';
import { terminalSafe } from './trust-summary.js';

export interface WorkspaceTrustOptions {
  projectRoot: string;
  homeDir: string;
  /** The environment, for MEWCODE_TRUST_PROJECT (`1` or `true`). */
  env?: NodeJS.ProcessEnv;
  /** --trust-project: trusted for this run. */
  flag?: boolean;
  /** Whether trust.json is consulted (default true); false gives a service that is never trusted from storage. */
  stored?: boolean;
}

/** The hash of exactly these settings' values (files relative to the project root). */
export function settingsHash(settings: readonly Pick<ScannedSetting, 'display' | 'key' | 'value'>[]): Promise<string> {
  const items = settings
    .map((s) => ({ file: s.display, key: s.key, value: s.value }))
    .sort((a, b) => (a.file === b.file ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.file < b.file ? -1 : 1));
  return canonicalHash({ version: 1, settings: items });
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
  const scan = await scanProject(root, homeDir);
  const realRoot = realOrResolved(root);
  // Hashed only when needed: a project without such settings never loads node:crypto here.
  let hash: Promise<string> | undefined;
  const currentHash = () => (hash ??= settingsHash(scan.settings));
  const warnings = [...scan.warnings];

  let source: TrustSource = 'none';
  let changed = false;
  if (options.flag === true) source = 'flag';
  else if (envTrusts(options.env)) source = 'env';
  else if (scan.settings.length > 0 && options.stored !== false) {
    const stored = readTrustFile(trustFilePath(homeDir));
    if (stored.warning) warnings.push(stored.warning);
    const record = Object.hasOwn(stored.file.projects, realRoot) ? stored.file.projects[realRoot] : undefined;
    if (record !== undefined && record.hash === (await currentHash())) source = 'stored';
    else if (record) changed = true;
  }

  const refused: string[] = [];
  const refuse = (entry: string): false => {
    if (!refused.includes(entry)) refused.push(entry);
    return false;
  };
  const userDir = path.join(homeDir, '.mewcode') + path.sep;
  const isTrusted = () => source !== 'none';

  const skipped = (): string[] => {
    const all = isTrusted() ? [] : scan.settings.map((s) => `${s.display}: ${s.key}`);
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
      const settings = isTrusted() ? [] : scan.settings.map((s) => ({ file: s.display, key: s.key, summary: s.summary }));
      return { projectRoot: realRoot, settings, changed: changed && !isTrusted() };
    },
    async grant() {
      await writeTrust(trustFilePath(homeDir), realRoot, await currentHash());
      source = 'dialog';
      changed = false;
      // Refusals so far were for want of trust; the CLI loads the configuration again after this.
      refused.length = 0;
    },
    skipped,
    notice() {
      if (skipped().length === 0) return undefined;
      const scanned = isTrusted() ? [] : scan.settings.map((s) => `  ${s.display}: ${s.key}: ${s.summary}`);
      const unexpected = refused.filter((entry) => isTrusted() || !scan.settings.some((s) => `${s.display}: ${s.key}` === entry));
      const lines = [...scanned, ...unexpected.map((entry) => `  ${entry} (changed after the trust check)`)];
      const why = isTrusted()
        ? 'were skipped because they changed while MewCode was starting'
        : changed
          ? 'were skipped: they changed since you trusted this project'
          : 'were skipped: this project is not trusted';
      return [
        `trust: these settings of ${terminalSafe(realRoot)} that run code or send data ${why}:`,
        ...lines,
        'Review them; to apply them pass --trust-project (or set MEWCODE_TRUST_PROJECT=1) for one run, or trust the project when an interactive session asks.',
      ].join('\n');
    },
    scopeOf(file: string): SettingsScope {
      const absolute = path.resolve(file);
      if (scan.trackedLocal.has(absolute)) return 'project';
      if (scan.personalLocal.has(absolute)) return 'local';
      if (absolute.startsWith(userDir)) return 'user';
      return 'project'; // anything else in the project, including a local file the scan did not see
    },
    approves(file: string, key: string, value: unknown): boolean {
      const absolute = path.resolve(file);
      const display = path.relative(root, absolute).split(path.sep).join('/');
      if (!isTrusted()) return refuse(`${display}: ${key}`);
      const seen = scan.settings.find((s) => s.file === absolute && s.key === key);
      if (seen === undefined || canonicalJson(seen.value) !== canonicalJson(value)) return refuse(`${display}: ${key}`);
      return true;
    },
  };
  return service;
}
