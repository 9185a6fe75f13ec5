/**
 * Where each configured plugin (`plugins:`) may be loaded from. The user's own entries resolve
 * from `~/.mewcode` first, and from the project only once it is trusted: otherwise an untrusted
 * repository's node_modules (or a file it ships) would supply the code a user-level name loads.
 * Shared by the kernel's boot and the CLI's subcommand lookup, which must see the same plugins.
 */
import path from 'node:path';
import type { ResolvedConfig } from '../types/config.js';
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
    const flag = required ? { required } : {};
    if (configScopeAt(place.config, ['plugins', index]) !== 'user') return { spec, from: [place.projectRoot], ...flag };
    if (projectAllowed) return { spec, from: [userDir, place.projectRoot], ...flag };
    return { spec, from: [userDir], hint: `the project's own node_modules and files are used for a user-level plugin only once the project is trusted (--trust-project)`, ...flag };
  });
}
