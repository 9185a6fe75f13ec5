/**
 * Where Claude Code plugins installed with `mewcode plugin install` live, all under the user's own
 * directory (never a project's: what is installed is the user's choice):
 *
 *   ~/.mewcode/plugins/installed.json                 the manifest (manifest.ts)
 *   ~/.mewcode/plugins/marketplaces/<marketplace>/    clones of git marketplaces
 *   ~/.mewcode/plugins/cache/<marketplace>/<plugin>/  installed copies
 *   ~/.mewcode/plugins/data/<plugin-id>/              ${CLAUDE_PLUGIN_DATA}, until the plugin is uninstalled
 */
import path from 'node:path';

export const pluginsHome = (homeDir: string): string => path.join(homeDir, '.mewcode', 'plugins');
export const manifestPath = (homeDir: string): string => path.join(pluginsHome(homeDir), 'installed.json');
export const marketplaceCloneDir = (homeDir: string, marketplace: string): string => path.join(pluginsHome(homeDir), 'marketplaces', marketplace);
/** Where `${CLAUDE_PLUGIN_DATA}` points: kept across updates (not across an uninstall), one folder per plugin id. */
export function pluginDataDir(homeDir: string, id: string): string {
  return path.join(pluginsHome(homeDir), 'data', id.replace(/[^A-Za-z0-9_-]/g, '-'));
}
export const installedPluginDir = (homeDir: string, marketplace: string, plugin: string): string => path.join(pluginsHome(homeDir), 'cache', marketplace, plugin);

/** Marketplace and plugin names become directory names: kebab-case-ish, never a path. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function isSafeName(name: string): boolean {
  return SAFE_NAME.test(name) && name !== '.' && name !== '..';
}

/** `name@marketplace`, as Claude Code's `enabledPlugins` keys spell an installed plugin. */
export const pluginId = (name: string, marketplace: string): string => `${name}@${marketplace}`;

export function splitPluginId(id: string): { name: string; marketplace: string | undefined } {
  const at = id.lastIndexOf('@');
  return at > 0 ? { name: id.slice(0, at), marketplace: id.slice(at + 1) } : { name: id, marketplace: undefined };
}
