/**
 * Plugins a host adds to one run beside the build's (`query()`'s `options.plugins`). They are
 * configured plugins, not the build's: a program that embeds MewCode is as much the user as a
 * `plugins:` line, and the build is what the package's `main` / `Kernel.create` were given. So they
 * get a configured plugin's rank, its demotions (`essential`, `safety`), its `replaces:` rules, and
 * under `allow_managed_plugins_only` they are refused before any module is imported. A module
 * spec resolves from the project only once the project is trusted (as a user-level `plugins:`
 * entry does); an absolute path is the host's own file and resolves anywhere. The host asked for
 * each one by name, so one that is refused or cannot be loaded ends the boot (a
 * ConfigurationError naming it), instead of a run without it.
 */
import path from 'node:path';
import type { ManagedPolicy } from '../types/managed.js';
import type { MewcodePlugin } from '../types/plugin.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { ConfigurationError } from './configuration-error.js';
import { loadExternalPlugins, type ExternalPlugin, type PluginSpec } from './external-plugins.js';
import { pinPlugin } from './pinned-plugin.js';

export interface AddedPlugins {
  /** Who added them, for messages: `query() options.plugins`. */
  origin: string;
  /** Plugin objects, or module specs (npm names or paths) resolved from the project root. */
  entries: readonly (MewcodePlugin | string)[];
}

export interface AddedPluginPlace {
  policy: ManagedPolicy;
  projectRoot: string;
  trust?: WorkspaceTrust | undefined;
  /** Says a field the plugin contract does not have (a plugin object's own declaration). */
  warn: (message: string) => void;
}

/** The added plugins as configured ones (each with its source, for messages); throws when one is refused or missing. */
export async function loadAddedPlugins(added: AddedPlugins | undefined, place: AddedPluginPlace): Promise<ExternalPlugin[]> {
  if (!added || added.entries.length === 0) return [];
  const onlyManaged = place.policy.managedPluginsOnly;
  if (onlyManaged) {
    const names = added.entries.map((entry) => (typeof entry === 'string' ? entry : entry.name)).join(', ');
    throw new ConfigurationError(`${added.origin}: plugin ${names} is not loaded: the organisation's managed settings (${onlyManaged.where}) allow only the build's and the managed plugins`);
  }
  const trusted = place.trust?.isTrusted() ?? true;
  const specs: PluginSpec[] = [];
  const objects: ExternalPlugin[] = [];
  for (const entry of added.entries) {
    if (typeof entry !== 'string') {
      // Checked and pinned as a configured plugin's module is: `requried: true` or `required: 'yes'` stops the boot.
      let pinned: MewcodePlugin;
      try {
        pinned = pinPlugin(entry, place.warn);
      } catch (error) {
        throw new ConfigurationError(`${added.origin}: plugin ${JSON.stringify(String((entry as { name?: unknown }).name))} cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
      }
      objects.push({ plugin: pinned, spec: { spec: added.origin, from: [] }, loadMs: 0 });
      continue;
    }
    if (trusted || path.isAbsolute(entry)) specs.push({ spec: entry, from: [place.projectRoot] });
    else specs.push({ spec: entry, from: [], hint: `${added.origin} resolves a name or a relative path from the project only once the project is trusted (trustProject, or pass the plugin object or an absolute path)` });
  }
  const loaded = await loadExternalPlugins(specs, (_spec, message) => {
    throw new ConfigurationError(`${added.origin}: ${message}`);
  });
  return [...loaded, ...objects];
}
