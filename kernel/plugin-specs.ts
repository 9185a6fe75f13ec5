/**
 * Where each configured plugin (`plugins:`) may be loaded from. The user's own entries resolve
 * from `~/.mewcode` first, and from the project only once it is trusted: otherwise an untrusted
 * repository's node_modules (or a file it ships) would supply the code a user-level name loads.
 * Shared by the kernel's boot and the CLI's subcommand lookup, which must see the same plugins
 * (pluginLoadSpecs, below, adds the managed settings' plugins and their `allow_managed_plugins_only`).
 */
import path from 'node:path';
import type { ResolvedConfig } from '../types/config.js';
import type { ManagedPolicy } from '../types/managed.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { configScopeAt } from '../config/scope.js';
import type { PluginSpec } from './external-plugins.js';
import type { PluginEntry } from './kernel-config.js';

export interface PluginSpecPlace {
  config: ResolvedConfig;
  projectRoot: string;
  homeDir: string;
  trust?: WorkspaceTrust | undefined;
}

export function pluginSpecsFor(entries: readonly PluginEntry[], place: PluginSpecPlace): PluginSpec[] {
  const userDir = path.join(place.homeDir, '.mewcode');
  const projectAllowed = place.trust?.isTrusted() ?? true;
  return entries.map(({ use: spec, required, index }): PluginSpec => {
    // Where it is required, for the message when it cannot load (`config.yaml:4:15`).
    const at = required ? place.config.locate(['plugins', index, 'required']) ?? place.config.locate(['plugins', index]) : undefined;
    const flag = required ? { required, ...(at === undefined ? {} : { requiredAt: at }) } : {};
    if (configScopeAt(place.config, ['plugins', index]) !== 'user') return { spec, from: [place.projectRoot], ...flag };
    if (projectAllowed) return { spec, from: [userDir, place.projectRoot], ...flag };
    return { spec, from: [userDir], hint: `the project's own node_modules and files are used for a user-level plugin only once the project is trusted (--trust-project)`, ...flag };
  });
}

export interface PluginLoadInput extends PluginSpecPlace {
  /** The organisation's managed settings in force (an empty policy when there are none). */
  policy: ManagedPolicy;
  /**
   * A configured plugin refused by `allow_managed_plugins_only`, before it is imported; `required`
   * when the configuration requires it (the caller decides whether that ends the run).
   */
  refused(message: string, required: boolean): void;
}

/**
 * Every plugin module a run here imports, besides the build's own: the managed settings' plugins
 * (required, resolved from the managed file's directory only, never from a project or the user's
 * directory, which could supply another package of that name), then the configured ones, none of
 * them under `allow_managed_plugins_only`. The one list the kernel's boot and every command-line
 * path that reads plugins' declarations (subcommands, `--help`, `doctor`) import from: importing a
 * module already runs its code in this process, so a path that built its own list would run what
 * the organisation keeps out.
 */
export function pluginLoadSpecs(entries: readonly PluginEntry[], input: PluginLoadInput): PluginSpec[] {
  const { policy } = input;
  // `confined`: nor from the directories above it, NODE_PATH or the global folders (external-plugins.ts),
  // which could supply another package of that name as well.
  const managed = policy.plugins.map((plugin): PluginSpec => ({ spec: plugin.use, from: [plugin.baseDir], required: true, confined: true }));
  // An entry of the user's or the project's naming a managed module is that one, required.
  let configured = entries.filter(({ use }) => !policy.plugins.some((plugin) => plugin.use === use));
  const onlyManaged = policy.managedPluginsOnly;
  if (onlyManaged && configured.length > 0) {
    for (const { use, required } of configured) {
      input.refused(`plugin ${use} is not loaded: the organisation's managed settings (${onlyManaged.where}) allow only the build's and the managed plugins`, required === true);
    }
    configured = [];
  }
  return [...managed, ...pluginSpecsFor(configured, input)];
}

/** The managed file (`file:line:col`) that requires this spec, or undefined when no managed setting names it. */
export function managedRequirementOf(policy: ManagedPolicy, spec: PluginSpec): string | undefined {
  return policy.plugins.find((plugin) => plugin.use === spec.spec && spec.from.length === 1 && spec.from[0] === plugin.baseDir)?.where;
}
