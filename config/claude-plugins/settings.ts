/**
 * Claude Code's plugin settings, read from Claude-shaped settings files:
 *
 *   ~/.claude/settings.json             user     applies directly
 *   <project>/.claude/settings.json     project  applies once the project is trusted
 *   <project>/.claude/settings.local.json local  the same (a checkout can bring it too)
 *
 * `enabledPlugins: {"fmt@team-tools": true, "old@team-tools": false}` turns installed plugins on
 * or off (local over project over user, as in Claude Code); `extraKnownMarketplaces: {"team-tools":
 * {"source": {"source": "github", "repo": "org/plugins"}}}` names marketplaces the project wants.
 * Nothing here fetches anything: what is named but not installed or added becomes a notice with
 * the command that does it.
 *
 * The project's two keys go through the workspace trust service (config/trust-scan.ts lists them
 * in the notice and the dialog); while the project is untrusted they are left out. A bad value
 * is skipped with a warning naming the file and key.
 */
import { parseJsonWithinDepth } from '../nesting-depth.js';
import path from 'node:path';
import { projectBoundary } from '../project-file.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { isRecord } from '../is-record.js';
import { readConfigFile } from '../config-file.js';
import { terminalSafe } from '../terminal-safe.js';

export type PluginSettingsScope = 'user' | 'project' | 'local';

export const CLAUDE_PLUGIN_SETTING_KEYS = ['enabledPlugins', 'extraKnownMarketplaces'] as const;

export interface PluginSettingsFile {
  scope: PluginSettingsScope;
  file: string;
}

/** The project's files come after the user's: a later file's entry wins. */
export function pluginSettingsFiles(projectRoot: string, homeDir: string): PluginSettingsFile[] {
  const files: PluginSettingsFile[] = [{ scope: 'user', file: path.join(homeDir, '.claude', 'settings.json') }];
  // In the home directory, `.claude/settings.json` is the user's file, read once above.
  if (projectBoundary(projectRoot, homeDir) !== undefined) {
    files.push({ scope: 'project', file: path.join(projectRoot, '.claude', 'settings.json') }, { scope: 'local', file: path.join(projectRoot, '.claude', 'settings.local.json') });
  }
  return files;
}

export interface EnabledSetting {
  enabled: boolean;
  file: string;
  scope: PluginSettingsScope;
}

export interface WantedMarketplace {
  name: string;
  /** What to pass to `mewcode plugin marketplace add`, or undefined when MewCode cannot add this kind of source. */
  addSpec?: string;
  file: string;
  scope: PluginSettingsScope;
}

export interface PluginSettings {
  /** By `name@marketplace`: the deciding file's choice. */
  enabled: Map<string, EnabledSetting>;
  marketplaces: Map<string, WantedMarketplace>;
  warnings: string[];
}

/**
 * Reads the files synchronously (the plugin-directory sources are asked at boot). `trust`
 * undefined: the project's keys are left out (fail closed) and a warning says why.
 */
export function readPluginSettings(projectRoot: string, homeDir: string, trust: WorkspaceTrust | undefined): PluginSettings {
  const result: PluginSettings = { enabled: new Map(), marketplaces: new Map(), warnings: [] };
  const root = projectBoundary(projectRoot, homeDir);
  for (const { scope, file } of pluginSettingsFiles(projectRoot, homeDir)) {
    const read = readConfigFile(file, scope === 'user' ? undefined : root);
    if (!read.ok) {
      if (!read.missing) result.warnings.push(`plugin settings: cannot read ${file}: ${read.reason}; its enabledPlugins and extraKnownMarketplaces are ignored`);
      continue;
    }
    let data: unknown;
    try {
      data = parseJsonWithinDepth(read.text);
    } catch (error) {
      result.warnings.push(`plugin settings: ${file} is not valid JSON (${(error as Error).message}); its enabledPlugins and extraKnownMarketplaces are ignored`);
      continue;
    }
    if (!isRecord(data)) continue;
    for (const key of CLAUDE_PLUGIN_SETTING_KEYS) {
      const value = data[key];
      if (value === undefined || value === null) continue;
      // The trust service lists what it refuses in its one notice.
      if (scope !== 'user' && !trust?.approves(file, key, value)) {
        if (!trust) result.warnings.push(`plugin settings: ${file}: ${key} is the project's, and this build has no workspace trust service; ignored`);
        continue;
      }
      if (!isRecord(value)) {
        result.warnings.push(`plugin settings: ${file}: ${key} must be an object; ignored`);
        continue;
      }
      if (key === 'enabledPlugins') readEnabled(value, file, scope, result);
      else readMarketplaces(value, file, scope, path.dirname(path.dirname(file)), result);
    }
  }
  return result;
}

function readEnabled(value: Record<string, unknown>, file: string, scope: PluginSettingsScope, result: PluginSettings): void {
  for (const [id, enabled] of Object.entries(value)) {
    if (!/^[^@\s]+@[^@\s]+$/.test(id)) {
      result.warnings.push(`plugin settings: ${file}: enabledPlugins["${terminalSafe(id)}"]: a plugin is named "<plugin>@<marketplace>"; skipped`);
      continue;
    }
    // Claude Code also accepts a list of version constraints here; any such value means enabled.
    if (typeof enabled !== 'boolean' && !Array.isArray(enabled)) {
      result.warnings.push(`plugin settings: ${file}: enabledPlugins["${terminalSafe(id)}"] must be true or false; skipped`);
      continue;
    }
    result.enabled.set(id, { enabled: enabled !== false, file, scope });
  }
}

function readMarketplaces(value: Record<string, unknown>, file: string, scope: PluginSettingsScope, base: string, result: PluginSettings): void {
  for (const [name, entry] of Object.entries(value)) {
    const source = isRecord(entry) && isRecord(entry.source) ? entry.source : undefined;
    if (!source) {
      result.warnings.push(`plugin settings: ${file}: extraKnownMarketplaces["${terminalSafe(name)}"] needs "source": {"source": "github"|"git"|"directory", …}; skipped`);
      continue;
    }
    const addSpec = addSpecOf(source, base);
    result.marketplaces.set(name, { name, file, scope, ...(addSpec ? { addSpec } : {}) });
  }
}

/** The `marketplace add` argument for a settings-side source. */
function addSpecOf(source: Record<string, unknown>, base: string): string | undefined {
  const text = (key: string): string | undefined => (typeof source[key] === 'string' && (source[key] as string).trim() !== '' ? (source[key] as string).trim() : undefined);
  switch (source.source) {
    case 'github':
      return text('repo') && `${text('repo')}${text('ref') ? `#${text('ref')}` : ''}`;
    case 'git':
    case 'url': {
      const url = text('url');
      return url && !/\.json$/i.test(url) ? `${url}${text('ref') ? `#${text('ref')}` : ''}` : undefined;
    }
    case 'directory':
      return text('path') && path.resolve(base, text('path')!);
    case 'file':
      return text('path') && path.resolve(base, text('path')!);
    default:
      return undefined;
  }
}
