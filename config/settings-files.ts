/**
 * MewCode's settings files — permission rules, hooks, the sandbox — in one list, so every reader
 * (the permission-rules, hooks and sandbox-os plugins, the trust scan, `mewcode doctor`) reads the
 * same files in the same order:
 *
 *   user     ~/.mewcode/settings.yaml | settings.yml | settings.json
 *   project  <root>/.mewcode/settings.yaml | settings.yml | settings.json
 *   local    <root>/.mewcode/settings.local.yaml | settings.local.yml | settings.local.json
 *
 * Any of them holds YAML or JSON (the parser takes both). Unlike the config layers (where the first
 * file found wins), EVERY spelling that exists is read, in the order above: a settings file holds
 * deny rules, and a second spelling read by one component and ignored by another once turned the
 * sandbox off from `settings.json` while that file's deny rules vanished. Lists — allow, ask and
 * deny rules, hooks — add up; a single value (`default_mode`, `sandbox`) comes from the first
 * file of the scope, in this order, that sets it. Two spellings in one scope are reported
 * (`spellingsWarning`), naming both, so nobody keeps one by mistake.
 *
 * Claude Code's settings files hold the same `hooks` and `permissions` (same shape), so the hooks
 * and permission-rules readers, the trust scan and doctor read them too, each in its scope after
 * MewCode's own (`withClaudeSettingsFile`):
 *
 *   user     ~/.claude/settings.json
 *   project  <root>/.claude/settings.json
 *   local    <root>/.claude/settings.local.json
 *
 * They are not spellings of MewCode's files (no spellings warning), and the sandbox does not read
 * them: Claude Code's `sandbox` key has another shape. When the project is the home directory the
 * project's two are left out (`.claude/settings.json` is then the user's, read once).
 */
import path from 'node:path';
import { projectBoundary } from './project-file.js';

/**
 * The top-level keys of MewCode's settings files (permission-rules, hooks, sandbox-os read one
 * each); any other is reported as unknown, with the nearest of these (config/unknown-keys.ts).
 */
export const MEWCODE_SETTINGS_KEYS: readonly string[] = ['permissions', 'hooks', 'sandbox'];

/** The scopes of the settings files, highest precedence first. */
export type SettingsFileScope = 'local' | 'project' | 'user';
export const SETTINGS_FILE_SCOPES: readonly SettingsFileScope[] = ['local', 'project', 'user'];

const EXTENSIONS = ['yaml', 'yml', 'json'] as const;

/** The names of one scope's files in `.mewcode/`, in reading order. */
export const SETTINGS_FILE_NAMES: Readonly<Record<'shared' | 'local', readonly string[]>> = {
  shared: EXTENSIONS.map((ext) => `settings.${ext}`),
  local: EXTENSIONS.map((ext) => `settings.local.${ext}`),
};

/** The files of one scope (absolute), in reading order; most do not exist. */
export function settingsFilesOf(scope: SettingsFileScope, projectRoot: string, homeDir: string): string[] {
  const dir = path.join(scope === 'user' ? homeDir : projectRoot, '.mewcode');
  return SETTINGS_FILE_NAMES[scope === 'local' ? 'local' : 'shared'].map((name) => path.join(dir, name));
}

/** The Claude Code settings file of one scope (absolute), or undefined (a project that is the home directory). */
export function claudeSettingsFileOf(scope: SettingsFileScope, projectRoot: string, homeDir: string): string | undefined {
  if (scope === 'user') return path.join(homeDir, '.claude', 'settings.json');
  if (projectBoundary(projectRoot, homeDir) === undefined) return undefined;
  return path.join(projectRoot, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/**
 * The files the hooks and permission-rules readers read for one scope: MewCode's spellings, then
 * Claude Code's file (so a single value such as `default_mode` set in both comes from MewCode's).
 */
export function withClaudeSettingsFile(scope: SettingsFileScope, projectRoot: string, homeDir: string): string[] {
  const claude = claudeSettingsFileOf(scope, projectRoot, homeDir);
  return [...settingsFilesOf(scope, projectRoot, homeDir), ...(claude !== undefined ? [claude] : [])];
}

/**
 * The top-level keys of a Claude Code settings file MewCode reads (hooks and permissions here, the
 * plugin keys in config/claude-plugins); the others (`env`, `model`, `apiKeyHelper`,
 * `statusLine`…) have no equivalent and are named in one notice (the permission-rules plugin).
 */
export const CLAUDE_SETTINGS_KEYS_READ = [
  '$schema',
  'hooks',
  'permissions',
  'enabledPlugins',
  'extraKnownMarketplaces',
  // The MCP plugin's: a disabled `.mcp.json` server is not started; approval is workspace trust.
  'disabledMcpjsonServers',
  'enabledMcpjsonServers',
  'enableAllProjectMcpServers',
] as const;

/** Whether a file is one of Claude Code's settings files (`.claude/settings.json`, `.claude/settings.local.json`). */
export function isClaudeSettingsFile(file: string): boolean {
  return path.basename(path.dirname(file)) === '.claude' && ['settings.json', 'settings.local.json'].includes(path.basename(file));
}

/**
 * The warning for a scope with more than one spelling (`existing`: the files of that scope found,
 * in reading order), or undefined. One text, so a reader and doctor say it alike (and doctor
 * shows it once).
 */
export function spellingsWarning(scope: SettingsFileScope, existing: readonly string[]): string | undefined {
  if (existing.length < 2) return undefined;
  return (
    `settings: ${existing.join(' and ')} are the same ${scope} settings file spelled ${existing.length} ways; ` +
    `MewCode reads them all (their rules and hooks add up; a single value such as default_mode or sandbox comes from ${existing[0]}). ` +
    'Merge them into one file to keep one place for these settings'
  );
}
