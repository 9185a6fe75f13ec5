/**
 * The checks of `mewcode doctor` that need no kernel and belong to no plugin: Node.js,
 * configuration files and workspace trust (the proxy's is doctor-proxy.ts). Each returns its
 * lines; none throws for what it finds. The plugins' checks (OS sandbox, ripgrep, audit log…)
 * come with the plugins.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SETTINGS_FILE_SCOPES, claudeSettingsFileOf, settingsFilesOf, spellingsWarning } from '../config/settings-files.js';
import type { ResolvedConfig } from '../types/config.js';
import type { TrustSource, WorkspaceTrust } from '../types/trust.js';
import type { CheckLine } from './doctor-report.js';
import { terminalSafe } from '../config/terminal-safe.js';

/** package.json `engines.node` (test/bin/doctor.test.ts keeps the two equal). */
export const MIN_NODE_VERSION = '20.11.0';

function versionParts(version: string): number[] {
  return version.replace(/^v/, '').split('.').map((part) => Number.parseInt(part, 10) || 0);
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < 3; i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

export function checkNode(version: string = process.versions.node): CheckLine[] {
  const minimum = MIN_NODE_VERSION.replace(/\.0$/, '');
  if (compareVersions(version, MIN_NODE_VERSION) >= 0) return [{ status: 'ok', check: 'node', message: `Node.js ${version} (needs >= ${minimum})` }];
  return [{ status: 'fail', check: 'node', message: `Node.js ${version} is too old (MewCode needs >= ${minimum})`, hint: `install Node.js ${minimum} or later` }];
}

/**
 * One line per configuration file found (ok, or fail when it cannot be used: its settings are
 * then missing from every run) and one warn line per other loading problem.
 */
export function checkConfig(config: ResolvedConfig, shownElsewhere: ReadonlySet<string> = new Set()): CheckLine[] {
  const lines: CheckLine[] = [];
  const errors = new Set<string>(shownElsewhere);
  for (const layer of config.layers) {
    if (layer.loaded) {
      lines.push({ status: 'ok', check: 'config', message: `${layer.layer} file ${layer.file}` });
    } else {
      const error = layer.error ?? 'it could not be read';
      errors.add(error);
      // `config: <file>:<line>:<col>: <message>` (config/parse-file.ts): the place once, then why.
      const located = /^config: (.*?):(\d+):(\d+): ([\s\S]*)$/.exec(error);
      const what = located && located[1] === layer.file ? `${layer.file}:${located[2]}:${located[3]} cannot be used: ${located[4]}` : `${layer.file} cannot be used: ${error.replace(/^config: /, '')}`;
      lines.push({
        status: 'fail',
        check: 'config',
        message: `${layer.layer} file ${what}`,
        hint: 'fix the file; until then MewCode runs without any of its settings',
      });
    }
  }
  for (const warning of config.warnings) {
    if (errors.has(warning)) continue;
    lines.push({ status: 'warn', check: 'config', message: warning.replace(/^config: /, ''), hint: 'the setting named is ignored until it is fixed' });
  }
  if (config.layers.length === 0) {
    lines.unshift({ status: 'ok', check: 'config', message: 'no configuration files (~/.mewcode/config.yaml, .mewcode.yaml, .mewcode/config.yaml, .mewcode/config.local.yaml)' });
  }
  return lines;
}

/**
 * One line per settings file found (permission rules, hooks, the sandbox: config/settings-files.ts,
 * the list their readers share, and Claude Code's settings files, whose hooks and permissions apply), and a warning where one scope has two spellings (the permission
 * rules say the same at every start; doctor shows it once).
 */
export function checkSettingsFiles(projectRoot: string, homeDir: string): { lines: CheckLine[]; warnings: string[] } {
  const lines: CheckLine[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const scope of [...SETTINGS_FILE_SCOPES].reverse()) {
    // In the home directory the project's files are the user's: listed once.
    const found = settingsFilesOf(scope, projectRoot, homeDir).filter((file) => existsSync(file) && !seen.has(path.resolve(file)));
    for (const file of found) {
      seen.add(path.resolve(file));
      lines.push({ status: 'ok', check: 'settings', message: `${scope} file ${file}` });
    }
    // Claude Code's file of the scope: its hooks and permissions are read too (not a spelling of MewCode's).
    const claude = claudeSettingsFileOf(scope, projectRoot, homeDir);
    if (claude !== undefined && existsSync(claude) && !seen.has(path.resolve(claude))) {
      seen.add(path.resolve(claude));
      lines.push({ status: 'ok', check: 'settings', message: `${scope} file ${claude} (Claude Code's: its hooks and permissions)` });
    }
    const warning = spellingsWarning(scope, found);
    if (warning === undefined) continue;
    warnings.push(warning);
    lines.push({ status: 'warn', check: 'settings', message: warning.replace(/^settings: /, ''), hint: 'keep one file per scope' });
  }
  return { lines, warnings };
}

const SOURCES: Record<Exclude<TrustSource, 'none'>, string> = {
  flag: '--trust-project',
  env: 'MEWCODE_TRUST_PROJECT',
  stored: 'recorded in ~/.mewcode/trust.json',
  dialog: 'granted in this session',
};

const TRUST_HINT = 'review them; pass --trust-project (or set MEWCODE_TRUST_PROJECT=1) to apply them for a run, or trust the project when an interactive session asks';

export function checkTrust(trust: WorkspaceTrust): CheckLine[] {
  const lines: CheckLine[] = [];
  const pending = trust.pending();
  if (trust.isTrusted()) {
    lines.push({ status: 'ok', check: 'trust', message: `project trusted (${SOURCES[trust.source as Exclude<TrustSource, 'none'>] ?? trust.source}): its plugins, providers, hooks and other code-running settings apply` });
  } else if (pending.settings.length === 0) {
    lines.push({ status: 'ok', check: 'trust', message: 'project not trusted; none of its settings needs trust' });
  } else {
    const settings = pending.settings.map((s) => terminalSafe(`${s.file}: ${s.key}`)).join(', ');
    const why = pending.changed ? 'changed since you trusted this project' : 'this project is not trusted';
    lines.push({ status: 'warn', check: 'trust', message: `${pending.settings.length} setting${pending.settings.length === 1 ? '' : 's'} that run code or send data are skipped (${why}): ${settings}`, hint: TRUST_HINT });
  }
  for (const warning of trust.warnings) lines.push({ status: 'warn', check: 'trust', message: warning, hint: 'see the file named' });
  return lines;
}
