/**
 * Which installed Claude Code plugins a run here uses. An installed plugin's own switch
 * (`mewcode plugin enable|disable`, in the manifest) is its default; a Claude-shaped settings
 * file's `enabledPlugins` entry for it wins (local over project over user, as in Claude Code;
 * the project's only once it is trusted). Nothing is fetched: a plugin that settings enable but
 * that is not installed, and a marketplace they name that is not added, each become a notice
 * with the command that installs or adds it.
 */
import { existsSync } from 'node:fs';
import type { ClaudePluginRoot } from '../../types/claude-plugins.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { emptyManifest, readManifest, type InstalledPlugin, type PluginManifest } from './manifest.js';
import { splitPluginId } from './paths.js';
import { readPluginSettings, type EnabledSetting, type PluginSettings } from './settings.js';

export interface PluginState {
  id: string;
  plugin: InstalledPlugin;
  enabled: boolean;
  /** The settings file whose `enabledPlugins` decided, when one did. */
  decidedBy?: EnabledSetting;
}

export interface EnabledPlugins {
  roots: ClaudePluginRoot[];
  states: PluginState[];
  /** Things to do: plugins enabled but not installed, marketplaces named but not added. */
  notices: string[];
  /** Problems: a manifest that cannot be read, a copy that is gone, bad settings. */
  warnings: string[];
}

export function pluginStates(manifest: PluginManifest, settings: PluginSettings): PluginState[] {
  return Object.entries(manifest.plugins).map(([id, plugin]) => {
    const decidedBy = settings.enabled.get(id);
    return { id, plugin, enabled: decidedBy?.enabled ?? plugin.enabled, ...(decidedBy ? { decidedBy } : {}) };
  });
}

export function enabledPlugins(projectRoot: string, homeDir: string, trust: WorkspaceTrust | undefined): EnabledPlugins {
  const warnings: string[] = [];
  const notices: string[] = [];
  let manifest: PluginManifest;
  try {
    manifest = readManifest(homeDir);
  } catch (error) {
    warnings.push(`claude plugins: ${(error as Error).message}; no installed plugin is used`);
    manifest = emptyManifest();
  }
  const settings = readPluginSettings(projectRoot, homeDir, trust);
  warnings.push(...settings.warnings);
  const states = pluginStates(manifest, settings);
  const roots: ClaudePluginRoot[] = [];
  for (const state of states) {
    if (!state.enabled) continue;
    if (!existsSync(state.plugin.root)) {
      warnings.push(`claude plugins: ${state.id} is installed, but its copy ${state.plugin.root} is gone; reinstall it with \`mewcode plugin install ${state.id}\``);
      continue;
    }
    roots.push({ id: state.id, root: state.plugin.root, origin: state.decidedBy ? 'settings' : 'installed' });
  }
  const mentioned = new Set<string>();
  for (const [id, setting] of settings.enabled) {
    if (!setting.enabled || manifest.plugins[id]) continue;
    const { marketplace } = splitPluginId(id);
    mentioned.add(marketplace!);
    const install = `mewcode plugin install ${id}`;
    if (manifest.marketplaces[marketplace!]) notices.push(`${setting.file} enables the plugin ${id}, which is not installed; to use it: ${install}`);
    else {
      const wanted = settings.marketplaces.get(marketplace!);
      notices.push(
        wanted?.addSpec
          ? `${setting.file} enables the plugin ${id}, which is not installed, from the marketplace ${marketplace} (named in ${wanted.file}); to use it: mewcode plugin marketplace add ${wanted.addSpec} && ${install}`
          : `${setting.file} enables the plugin ${id}, which is not installed, from the marketplace ${marketplace}, which is not known; add the marketplace (mewcode plugin marketplace add <git URL | folder>), then: ${install}`,
      );
    }
  }
  for (const wanted of settings.marketplaces.values()) {
    if (manifest.marketplaces[wanted.name] || mentioned.has(wanted.name)) continue;
    notices.push(
      wanted.addSpec
        ? `${wanted.file} names the plugin marketplace ${wanted.name}, which is not added; to add it: mewcode plugin marketplace add ${wanted.addSpec}`
        : `${wanted.file} names the plugin marketplace ${wanted.name} with a kind of source MewCode cannot add (a git repository or a folder can be); it is not used`,
    );
  }
  return { roots, states, notices, warnings };
}

