/**
 * The plugins of one query. The build is the default set, fresh (plugin-set state is per kernel,
 * so concurrent queries never share it). The caller's `options.plugins` (plugin objects, or module
 * specs: npm names or paths resolved from the query's working directory) are not part of it: they
 * join the run as configured plugins (kernel/added-plugins.ts), with a configured plugin's rank,
 * demotions and `replaces:` rules, refused under `allow_managed_plugins_only`, and a spec is read
 * from the project only once the project is trusted. A custom build's own plugins are what
 * `main(argv, plugins)` or `Kernel.create({ plugins })` are given.
 */
import type { AddedPlugins } from '../kernel/index.js';
import { createDefaultPlugins } from '../plugins/default-set.js';
import type { MewcodePlugin } from '../types/plugin.js';

export const QUERY_PLUGINS_ORIGIN = 'query() options.plugins';

export function buildPlugins(env: NodeJS.ProcessEnv | undefined): MewcodePlugin[] {
  return createDefaultPlugins(env ? { env } : {});
}

/** The caller's plugins, checked for shape (a TypeError naming the entry) before anything boots. */
export function addedPlugins(extra: unknown): AddedPlugins | undefined {
  if (extra === undefined) return undefined;
  if (!Array.isArray(extra)) throw new TypeError('options.plugins must be a list of MewCode plugin objects or module specs');
  const entries: (MewcodePlugin | string)[] = [];
  for (const [index, entry] of extra.entries()) {
    if (typeof entry === 'string') entries.push(entry);
    else if (typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string') entries.push(entry as MewcodePlugin);
    else throw new TypeError(`options.plugins[${index}] must be a MewCode plugin object (with a name) or a module spec`);
  }
  return entries.length > 0 ? { origin: QUERY_PLUGINS_ORIGIN, entries } : undefined;
}
