/**
 * Loads the plugins named in configuration (`plugins:`): npm package names resolved from
 * node_modules, or relative paths, each from the directories its entry may use (`PluginSpec.from`,
 * in order): a plugin named in the user's own file resolves from `~/.mewcode` and reaches the
 * project's node_modules only once the project is trusted, so a cloned repository cannot plant the
 * code a user-level name loads. A missing, broken or incompatible plugin is reported by name and
 * skipped, and the rest still runs (K2) — unless configuration marks it required, then the
 * caller's `fail` stops the run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MewcodePlugin } from '../types/plugin.js';
import { errorMessage } from './plugin-error.js';
import { manifestPluginFiles, resolvePackageEntry } from './package-entry.js';
import { pluginApi } from './plugin-api.js';
import { pinPlugin } from './pinned-plugin.js';
import { PluginDeclarationError } from './plugin-declaration.js';
import { importsRunningMewcode } from './running-mewcode.js';
import { confineImports } from './confined-imports.js';
import { syntaxErrorLocation } from './syntax-error-location.js';
import { KERNEL_VERSION } from './version.js';
import { monotonicMs } from '../types/monotonic-clock.js';
import { bounded } from './decision-bounds.js';

export interface PluginSpec {
  spec: string;
  /** Directories to resolve it from, first match wins (a package's node_modules, a path's base). */
  from: readonly string[];
  /** Said when it is found nowhere, e.g. why the project's node_modules were not searched. */
  hint?: string;
  /** Configuration marks it required: a failure to load it is fatal (the caller decides how). */
  required?: boolean;
  /** Where configuration marks it required (`file:line:col`), for messages. */
  requiredAt?: string;
  /**
   * The organisation's managed plugins: a package name resolves from `<from>/node_modules` alone
   * (not the directories above it, NODE_PATH or the global folders) and its files must really lie
   * in `from` (package-entry.ts), so a package the user placed elsewhere never stands in for it.
   */
  confined?: boolean;
}

export interface ExternalPlugin {
  plugin: MewcodePlugin;
  spec: PluginSpec;
  /** How long importing its file (and what that loads) and running its factory took, for `--debug-boot`. */
  loadMs: number;
}

/**
 * `fail(spec, message, critical, error)` is called for each plugin that cannot be used; it may
 * throw (a required plugin), which rejects the whole load. `critical`: the plugin's own declaration
 * reads as required (`requried: true`, `required: "yes"`), so the caller treats it as required too.
 * `error`: what was thrown, whose stack the caller shows under `--debug`.
 * `warn` says what loads anyway but is worth saying (a field the contract does not have).
 */
export async function loadExternalPlugins(
  specs: readonly PluginSpec[],
  fail: (spec: PluginSpec, message: string, critical?: boolean, error?: unknown) => void,
  warn: (message: string) => void = () => undefined,
): Promise<ExternalPlugin[]> {
  if (specs.length === 0) return [];
  // Only external plugins can use inversify's decorators, which need the Reflect metadata API.
  await import('reflect-metadata');
  const loaded = await Promise.all(specs.map(async (spec) => {
    const plugins = await loadPackage(spec, (message, critical, error) => fail(spec, message, critical, error), (message) => warn(`${message} (${spec.spec})`));
    return plugins.map(({ plugin, loadMs }) => ({ plugin, spec, loadMs }));
  }));
  return loaded.flat();
}

/** The plugins of one `plugins:` entry: its entry file's, or each file its package.json's `mewcode.plugins` lists. */
async function loadPackage(entry: PluginSpec, fail: LoadFailure, warn: (message: string) => void): Promise<Loaded[]> {
  let files: string[];
  let manifest: string[] | undefined;
  try {
    manifest = manifestFiles(entry);
    files = manifest ?? [resolveFromAny(entry)];
  } catch (error) {
    fail(`plugin ${entry.spec} could not be loaded: ${errorMessage(error)}`, false, error);
    return [];
  }
  // A managed plugin's imports stay in the managed directory too, not only its entry files.
  if (entry.confined === true) for (const base of entry.from) confineImports(base);
  // A package of several plugin files: a failure names the file, since the others still load.
  const plugins = await Promise.all(files.map((file) => loadOne(manifest === undefined ? entry.spec : `${entry.spec} (${file})`, file, fail, warn)));
  return plugins.filter((p): p is Loaded => p !== undefined);
}

/** The first base where the package is found decides, as for its entry. */
function manifestFiles({ spec, from, confined }: PluginSpec): string[] | undefined {
  for (const base of from) {
    const files = manifestPluginFiles(spec, base, confined === true);
    if (files !== undefined) return files ?? undefined;
  }
  return undefined;
}

/**
 * How long a plugin's module (its top-level code, a top-level await) and its factory may take to
 * give the plugin. Loading only defines the plugin; waiting on a server belongs in start(), which
 * has its own bound. A module or factory that never settles would otherwise hang every run,
 * `doctor` too, with nobody named.
 */
export const PLUGIN_LOAD_TIMEOUT_MS = 30_000;

class LoadBoundError extends Error {}

/** The step's outcome, or a rejection naming it once the bound has passed (or nothing is left that could settle it). */
function withinLoadBound<T>(step: Promise<T>, what: string): Promise<T> {
  return bounded(step, { ms: PLUGIN_LOAD_TIMEOUT_MS }, (why) => {
    throw new LoadBoundError(why === 'timeout' ? `${what} did not finish within ${PLUGIN_LOAD_TIMEOUT_MS} ms` : `${what} waits on something that can never finish (nothing is left running that could settle it)`);
  });
}

type LoadFailure = (message: string, critical?: boolean, error?: unknown) => void;
interface Loaded {
  plugin: MewcodePlugin;
  loadMs: number;
}

async function loadOne(spec: string, file: string, fail: LoadFailure, warn: (message: string) => void): Promise<Loaded | undefined> {
  const started = monotonicMs();
  let module: { default?: unknown };
  try {
    importsRunningMewcode(file);
    module = (await withinLoadBound(import(pathToFileURL(file).href), 'its module (top-level code)')) as { default?: unknown };
  } catch (error) {
    // Node 20 says where neither for an ES module's syntax error: find it (never running the code).
    const where = error instanceof SyntaxError ? await syntaxErrorLocation(file) : undefined;
    fail(`plugin ${spec} could not be loaded: ${errorMessage(error)}${where === undefined ? '' : ` (at ${where})`}`, false, error);
    return undefined;
  }
  let plugin: unknown;
  try {
    const exported = module.default ?? module;
    plugin = typeof exported === 'function' ? await withinLoadBound(Promise.resolve().then(() => (exported as (api: typeof pluginApi) => unknown)(pluginApi)), 'its factory') : exported;
  } catch (error) {
    fail(`plugin ${spec} could not be loaded: ${error instanceof LoadBoundError ? error.message : `its factory threw: ${errorMessage(error)}`}`, false, error);
    return undefined;
  }
  if (!isPlugin(plugin)) {
    fail(`plugin ${spec} does not export a plugin (an object with a "name", or a factory returning one)`);
    return undefined;
  }
  let pinned: MewcodePlugin;
  try {
    pinned = pinPlugin(plugin, warn);
  } catch (error) {
    fail(`plugin ${spec} cannot be loaded: ${errorMessage(error)}`, error instanceof PluginDeclarationError && error.critical, error);
    return undefined;
  }
  const loadMs = monotonicMs() - started;
  const checked = await checkKernelRange(pinned, spec, fail);
  return checked === undefined ? undefined : { plugin: checked, loadMs };
}

/** The plugin, or undefined (said) when it declares a kernel range this kernel is not in. */
async function checkKernelRange(plugin: MewcodePlugin, spec: string, fail: (message: string) => void): Promise<MewcodePlugin | undefined> {
  if (plugin.kernel !== undefined) {
    const { default: semver } = await import('semver');
    const range = semver.validRange(plugin.kernel);
    if (!range) {
      fail(`plugin ${plugin.name} (${spec}) declares an invalid kernel range "${plugin.kernel}"`);
      return undefined;
    }
    if (!semver.satisfies(KERNEL_VERSION, range, { includePrerelease: true })) {
      fail(`plugin ${plugin.name} (${spec}) requires MewCode kernel ${plugin.kernel}, but this kernel is ${KERNEL_VERSION}`);
      return undefined;
    }
  }
  return plugin;
}

function isPlugin(value: unknown): value is MewcodePlugin {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

function resolveFromAny({ spec, from: bases, hint, confined }: PluginSpec): string {
  const failures: string[] = [];
  for (const base of bases) {
    try {
      return resolveSpec(spec, base, confined === true);
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
function resolveSpec(spec: string, projectRoot: string, confined: boolean): string {
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const file = path.resolve(projectRoot, spec);
    if (!existsSync(file)) throw new Error(`no file at ${file}`);
    return file;
  }
  return resolvePackageEntry(spec, projectRoot, confined);
}
