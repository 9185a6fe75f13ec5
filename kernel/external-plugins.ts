/**
 * Loads the plugins named in configuration (`plugins:`): npm package names resolved from
 * node_modules, or relative paths, each from the directories its entry may use (`PluginSpec.from`,
 * in order): a plugin named in the user's own file resolves from `~/.mewcode` and reaches the
 * project's node_modules only once the project is trusted, so a cloned repository cannot plant the
 * code a user-level name loads. A missing, broken or incompatible plugin is reported by name and
 * skipped; the rest still runs (K2).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MewcodePlugin } from '../types/plugin.js';
import { errorMessage } from './plugin-error.js';
import { resolvePackageEntry } from './package-entry.js';
import { pluginApi } from './plugin-api.js';
import { KERNEL_VERSION } from './version.js';

export interface PluginSpec {
  spec: string;
  /** Directories to resolve it from, first match wins (a package's node_modules, a path's base). */
  from: readonly string[];
  /** Said when it is found nowhere, e.g. why the project's node_modules were not searched. */
  hint?: string;
}

export async function loadExternalPlugins(specs: readonly PluginSpec[], warn: (message: string) => void): Promise<MewcodePlugin[]> {
  if (specs.length === 0) return [];
  // Only external plugins can use inversify's decorators, which need the Reflect metadata API.
  await import('reflect-metadata');
  const loaded = await Promise.all(specs.map((spec) => loadOne(spec, warn)));
  return loaded.filter((p): p is MewcodePlugin => p !== undefined);
}

async function loadOne({ spec, from, hint }: PluginSpec, warn: (message: string) => void): Promise<MewcodePlugin | undefined> {
  let plugin: unknown;
  try {
    const file = resolveFromAny(spec, from, hint);
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    const exported = module.default ?? module;
    plugin = typeof exported === 'function' ? await (exported as (api: typeof pluginApi) => unknown)(pluginApi) : exported;
  } catch (error) {
    warn(`plugin ${spec} could not be loaded: ${errorMessage(error)}; skipped`);
    return undefined;
  }
  if (!isPlugin(plugin)) {
    warn(`plugin ${spec} does not export a plugin (an object with a "name", or a factory returning one); skipped`);
    return undefined;
  }
  if (plugin.kernel !== undefined) {
    const { default: semver } = await import('semver');
    const range = semver.validRange(plugin.kernel);
    if (!range) {
      warn(`plugin ${plugin.name} (${spec}) declares an invalid kernel range "${plugin.kernel}"; skipped`);
      return undefined;
    }
    if (!semver.satisfies(KERNEL_VERSION, range, { includePrerelease: true })) {
      warn(`plugin ${plugin.name} (${spec}) requires MewCode kernel ${plugin.kernel}, but this kernel is ${KERNEL_VERSION}; skipped`);
      return undefined;
    }
  }
  return plugin;
}

function isPlugin(value: unknown): value is MewcodePlugin {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

function resolveFromAny(spec: string, bases: readonly string[], hint: string | undefined): string {
  const failures: string[] = [];
  for (const base of bases) {
    try {
      return resolveSpec(spec, base);
    } catch (error) {
      failures.push(errorMessage(error));
    }
  }
  throw new Error(`${failures.join('; ') || 'nowhere to look'}${hint ? ` (${hint})` : ''}`);
}

/**
 * A path (./x, ../x, /x) is taken relative to the base directory; anything else is a package name
 * (or a package's subpath), resolved as `import` would (package-entry.ts).
 */
function resolveSpec(spec: string, projectRoot: string): string {
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const file = path.resolve(projectRoot, spec);
    if (!existsSync(file)) throw new Error(`no file at ${file}`);
    return file;
  }
  return resolvePackageEntry(spec, projectRoot);
}
