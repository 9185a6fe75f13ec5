/**
 * A configured plugin's declaration, read once when it is loaded and frozen. The kernel decides
 * by a plugin's name and flags who it is: whose taps rank as the organisation's, who owns a tool,
 * a command or a service, whose permission layer must be asked, whom a failure blames. A plugin
 * that could change its own object after load (assign `name`, answer it through a getter, flip
 * `required` or `replaces`) would be checked as itself at boot and then act as another plugin — an
 * organisation's, say, whose redaction it would undo from the stage after it. So the kernel never
 * holds the module's object: it holds this copy, whose identity fields are plain data read once,
 * and whose methods call the module's own (bound to it, so `this` still works in them).
 *
 * A name must also be one the kernel can tell apart: tap names are `<plugin>` or
 * `<plugin>:<detail>`, so a name holding `:` (or blank) could pass for another plugin's taps.
 */
import type { ConfigSection } from '../types/config.js';
import type { MewcodePlugin } from '../types/plugin.js';
import { checkPluginFields, flagValue } from './plugin-declaration.js';

const METHODS = ['apply', 'start', 'warm', 'dispose'] as const;
const FLAGS = ['essential', 'safety', 'required'] as const;

/** Why `name` cannot name a plugin, or undefined when it can. */
export function pluginNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'its name is not a non-empty string';
  if (name.includes(':')) return `its name "${name}" holds ":", which separates a plugin's name from a tap's detail`;
  if (name !== name.trim()) return `its name "${name}" starts or ends with white space`;
  return undefined;
}

/**
 * The frozen copy the kernel keeps of a loaded plugin; throws (with what is wrong) for a
 * declaration it cannot pin: a bad name, lists that are not lists of strings, methods that are
 * not functions, flags that are not booleans. A field the contract does not have is said through
 * `warn`, or refused when it reads as `required` (plugin-declaration.ts: a PluginDeclarationError
 * marked critical, which stops the run as a required plugin's failure does).
 */
export function pinPlugin(plugin: MewcodePlugin, warn: (message: string) => void = () => undefined): MewcodePlugin {
  const read = <K extends keyof MewcodePlugin>(key: K): MewcodePlugin[K] => plugin[key];
  const name = read('name');
  const problem = pluginNameProblem(name);
  if (problem !== undefined) throw new Error(problem);
  checkPluginFields(plugin, name, warn);
  const pinned: Record<string, unknown> = { name };
  for (const key of ['version', 'kernel'] as const) {
    const value = read(key);
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new Error(`its "${key}" is not a string`);
    pinned[key] = value;
  }
  for (const key of FLAGS) {
    // `required: "yes"` read as false would fail open: a flag is true or false, or nothing.
    const value = flagValue(key, read(key), name);
    if (value !== undefined) pinned[key] = value;
  }
  for (const key of ['replaces', 'dependsOn', 'configKeys'] as const) {
    const value = read(key) as unknown;
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) throw new Error(`its "${key}" is not a list of names`);
    pinned[key] = Object.freeze([...(value as string[])]);
  }
  // A whole number of milliseconds above 0: Infinity, 1e10 or NaN would reach setTimeout (Node
  // warns and fires at once), a negative or a string would mean nothing. Capped where it is used.
  const timeout = read('startTimeoutMs') as unknown;
  if (timeout !== undefined) {
    if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout <= 0) {
      throw new Error(`its "startTimeoutMs" is ${typeof timeout === 'number' ? String(timeout) : typeof timeout}, not a whole number of milliseconds above 0`);
    }
    pinned.startTimeoutMs = timeout;
  }
  for (const key of METHODS) {
    const method = read(key) as unknown;
    if (method === undefined) continue;
    if (typeof method !== 'function') throw new Error(`its "${key}" is not a function`);
    pinned[key] = (method as (...args: unknown[]) => unknown).bind(plugin);
  }
  const config = read('config');
  if (config !== undefined) pinned.config = pinSection(config);
  const bindings = read('bindings');
  if (bindings !== undefined) pinned.bindings = bindings;
  for (const key of ['subcommands', 'doctorChecks'] as const) {
    const value = read(key) as unknown;
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw new Error(`its "${key}" is not a list`);
    pinned[key] = Object.freeze(value.map((entry: { name: unknown; run: unknown }) => Object.freeze({ ...entry, run: typeof entry.run === 'function' ? entry.run.bind(entry) : entry.run })));
  }
  return Object.freeze(pinned) as unknown as MewcodePlugin;
}

function pinSection(section: ConfigSection): ConfigSection {
  const { key, parse } = section;
  if (typeof key !== 'string' || typeof parse !== 'function') throw new Error('its "config" is not a section (a "key" and a "parse" function)');
  return Object.freeze({ key, parse: parse.bind(section) });
}
