/**
 * The plugins of one query: the default set, fresh (plugin-set state is per kernel, so concurrent
 * queries never share it), then the caller's, given as plugin objects or module specs (an npm name
 * or a path, resolved from the query's working directory as a configured plugin would be). A
 * module that cannot be loaded fails the query: the caller asked for it by name.
 */
import path from 'node:path';
import { loadExternalPlugins } from '../kernel/external-plugins.js';
import { createDefaultPlugins } from '../plugins/default-set.js';
import type { MewcodePlugin } from '../types/plugin.js';

export async function queryPlugins(extra: readonly (MewcodePlugin | string)[], cwd: string, env: NodeJS.ProcessEnv | undefined): Promise<MewcodePlugin[]> {
  const objects: MewcodePlugin[] = [];
  const specs: string[] = [];
  for (const [index, entry] of extra.entries()) {
    if (typeof entry === 'string') specs.push(entry);
    else if (typeof entry === 'object' && entry !== null && typeof entry.name === 'string') objects.push(entry);
    else throw new TypeError(`options.plugins[${index}] must be a MewCode plugin object (with a name) or a module spec`);
  }
  const failures: string[] = [];
  const loaded = await loadExternalPlugins(
    specs.map((spec) => ({ spec, from: [path.resolve(cwd)], required: true })),
    (_spec, message) => failures.push(message),
  );
  if (failures.length > 0) throw new Error(failures.join('; '));
  return [...createDefaultPlugins(env ? { env } : {}), ...loaded.map((entry) => entry.plugin), ...objects];
}
