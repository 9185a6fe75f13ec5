/**
 * Which plugins run, in which order: defaults (the build's own list), then configured plugins.
 * In the build's list a later plugin of the same name replaces the earlier one in its place; a
 * configured plugin may take a name already in the set only when it says so (`replaces: [name]`),
 * otherwise it is refused with both named. `replaces` drops the named plugins (taking the place
 * of the first); configuration can never replace an essential or safety layer, nor a plugin that
 * configuration or managed settings require. `disable:` removes
 * by name (not essential ones, and a safety layer only when the user's own file asks);
 * `dependsOn` orders and requires.
 */
import type { MewcodePlugin } from '../types/plugin.js';
import { ConfigurationError } from './configuration-error.js';

export interface PluginSetOptions {
  /** Where a configured plugin came from (its `plugins:` entry), for messages. */
  sourceOf?(plugin: MewcodePlugin): string | undefined;
  /** A configured plugin refused; the default says it with `warn` (a caller may make it fatal). */
  refuse?(plugin: MewcodePlugin, message: string): void;
  /** Required by configuration: `disable:` cannot remove it either. */
  isRequired?(plugin: MewcodePlugin): boolean;
  /**
   * The plugins managed settings require: no other configured plugin may take their name or
   * replace them (`replaces:`): a user's plugin must not drop the organisation's policy.
   */
  managedPlugins?: ReadonlySet<MewcodePlugin>;
  /**
   * Set (to the managed file) while managed settings apply: a safety layer then cannot be disabled
   * even by the user's own file, since the organisation's rules live in those layers.
   */
  safetyLockedBy?: string;
  /**
   * Why a plugin must run (essential, a safety layer, required by configuration or by managed
   * settings), or undefined: such a plugin whose dependency is missing, disabled or cyclic stops
   * the boot (ConfigurationError) instead of being skipped.
   */
  mustRun?(plugin: MewcodePlugin): string | undefined;
}

export function resolvePluginSet(
  defaults: readonly MewcodePlugin[],
  extra: readonly MewcodePlugin[],
  disable: readonly string[],
  warn: (message: string) => void,
  /** Names in `disable` that came from a project's files rather than the user's own. */
  disabledByProject: ReadonlySet<string> = new Set(),
  options: PluginSetOptions = {},
): MewcodePlugin[] {
  const list: MewcodePlugin[] = [];
  const isRequired = (plugin: MewcodePlugin): boolean => plugin.required === true || options.isRequired?.(plugin) === true;
  const refuse = options.refuse ?? ((_plugin: MewcodePlugin, message: string) => warn(message));
  const named = (plugin: MewcodePlugin): string => {
    const source = options.sourceOf?.(plugin);
    return source ? `${plugin.name} (${source})` : plugin.name;
  };
  // A plugin named in configuration may not stand in for an essential one (the blacklist, the
  // sandbox) or a safety layer (the permission layers, the audit): configuration must never be
  // able to switch those off or decide what they did (A1). A custom build may.
  const protectedLayers = new Map<string, string>();
  for (const plugin of defaults) {
    if (plugin.essential) protectedLayers.set(plugin.name, 'essential plugin');
    else if (plugin.safety) protectedLayers.set(plugin.name, 'safety layer');
  }
  const configured: MewcodePlugin[] = [];
  const gone = new Set<MewcodePlugin>();
  for (const plugin of extra) {
    const managedNamed = (name: string): boolean => [...(options.managedPlugins ?? [])].some((held) => held.name === name && held !== plugin);
    // A plugin the configuration requires (`required: true`) is as much a policy as a managed one:
    // `replaces:` cannot drop it any more than `disable:` can.
    const requiredNamed = (name: string): boolean => [...defaults, ...extra].some((held) => held.name === name && held !== plugin && isRequired(held));
    const guarded = (name: string): string | undefined =>
      protectedLayers.get(name) ?? (managedNamed(name) ? 'plugin required by managed settings' : requiredNamed(name) ? 'required plugin' : undefined);
    const takesOver = [plugin.name, ...(plugin.replaces ?? [])].filter((name) => guarded(name) !== undefined);
    if (takesOver.length > 0) {
      const kinds = takesOver.map((name) => `${guarded(name)} ${name}`).join(', ');
      refuse(plugin, `plugins: ${plugin.name} would replace the ${kinds}; only a custom build may do that. ${plugin.name} skipped`);
      continue;
    }
    // One name, one plugin: a configured plugin does not silently take the place of another.
    const holder = [...defaults, ...configured].find((p) => p.name === plugin.name);
    if (holder && !(plugin.replaces ?? []).includes(plugin.name)) {
      const incumbent = defaults.includes(holder) ? `the built-in plugin ${holder.name}` : `plugin ${named(holder)}`;
      refuse(plugin, `plugins: ${named(plugin)} has the name of ${incumbent}; it was not loaded (declare replaces: ['${plugin.name}'] to stand in for it)`);
      continue;
    }
    // Replacing a plugin is said, naming both: a project's plugin with `replaces: ['hooks']` would
    // otherwise switch off the user's guard hooks with nothing shown. Under managed settings, a
    // plugin the managed file did not name may not replace one that enforces them at all.
    const replacedHere = replacedPlugins(plugin, [...defaults, ...configured].filter((held) => !gone.has(held)));
    const enforcers = options.safetyLockedBy === undefined || options.managedPlugins?.has(plugin) ? [] : replacedHere.filter((held) => MANAGED_ENFORCERS.has(held.name));
    if (enforcers.length > 0) {
      const names = enforcers.map((held) => held.name).join(', ');
      refuse(plugin, `plugins: ${named(plugin)} would replace ${names}, which enforces the managed settings (${options.safetyLockedBy}); only a plugin the managed settings name may. ${plugin.name} skipped`);
      continue;
    }
    for (const held of replacedHere) {
      gone.add(held);
      const incumbent = defaults.includes(held) ? `the built-in plugin ${held.name}` : `plugin ${named(held)}`;
      warn(`plugins: ${named(plugin)} replaces ${incumbent}, which does not run`);
    }
    configured.push(plugin);
  }
  for (const plugin of [...defaults, ...configured]) {
    const replaced = new Set([plugin.name, ...(plugin.replaces ?? [])]);
    const at = list.findIndex((p) => replaced.has(p.name));
    if (at < 0) {
      list.push(plugin);
      continue;
    }
    list[at] = plugin;
    for (let i = list.length - 1; i > at; i--) if (replaced.has((list[i] as MewcodePlugin).name)) list.splice(i, 1);
  }

  const disabled = new Set(disable);
  const enabled = list.filter((plugin) => {
    if (!disabled.has(plugin.name)) return true;
    if (plugin.essential) {
      warn(`plugins: ${plugin.name} is essential and cannot be disabled by configuration; keeping it`);
      return true;
    }
    if (isRequired(plugin)) {
      warn(`plugins: ${plugin.name} is required and cannot be disabled by configuration; keeping it`);
      return true;
    }
    if (plugin.safety && options.safetyLockedBy !== undefined) {
      warn(`plugins: ${plugin.name} is a safety layer, which managed settings keep (${options.safetyLockedBy}); keeping it`);
      return true;
    }
    if (plugin.safety && disabledByProject.has(plugin.name)) {
      warn(`plugins: ${plugin.name} is a safety layer, which a project's disable: cannot remove (only ~/.mewcode/config.yaml can); keeping it`);
      return true;
    }
    return false;
  });
  for (const name of disabled) {
    if (!list.some((p) => p.name === name)) warn(`plugins: disable names ${name}, which is not a loaded plugin`);
  }
  const skipped = (plugin: MewcodePlugin, why: DependencyProblem): void => {
    const reason = options.mustRun?.(plugin);
    if (reason !== undefined) throw new ConfigurationError(`${why.cannotRun}. ${reason}, so MewCode will not run without it.`);
    warn(why.skipped);
  };
  return orderByDependencies(enabled, skipped);
}

/**
 * The built-in plugins that enforce managed settings besides the safety and essential layers
 * (which configuration can never replace): the hooks plugin runs the organisation's hooks, mcp
 * applies its allowed and denied servers, tool-bash runs every command through the OS sandbox the
 * organisation may force. Documented in docs/plugin-contract.md, "Plugin set".
 */
export const MANAGED_ENFORCERS: ReadonlySet<string> = new Set(['hooks', 'mcp', 'tool-bash', 'permission-rules', 'permission-mode', 'permission-blacklist', 'permission-sandbox', 'sandbox-os', 'permission-audit']);

/** The plugins already in the set that `plugin` takes the place of (its own name with `replaces`, or a name it lists). */
function replacedPlugins(plugin: MewcodePlugin, present: readonly MewcodePlugin[]): MewcodePlugin[] {
  const names = new Set(plugin.replaces ?? []);
  return present.filter((held) => held !== plugin && names.has(held.name));
}

/** Stable topological order; a plugin whose dependency is absent (or cyclic) is skipped loudly. */
/** A plugin whose dependency is missing or cyclic, said as the warning of a skip and as the reason it cannot run. */
interface DependencyProblem {
  skipped: string;
  cannotRun: string;
}

function orderByDependencies(plugins: MewcodePlugin[], warn: (plugin: MewcodePlugin, why: DependencyProblem) => void): MewcodePlugin[] {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const ordered: MewcodePlugin[] = [];
  const state = new Map<string, 'visiting' | 'done' | 'failed'>();

  const visit = (plugin: MewcodePlugin, chain: string[]): boolean => {
    const seen = state.get(plugin.name);
    if (seen === 'done') return true;
    if (seen === 'failed') return false;
    if (seen === 'visiting') {
      const cycle = `plugins: ${plugin.name} is part of a dependency cycle (${[...chain, plugin.name].join(' -> ')})`;
      warn(plugin, { skipped: `${cycle}; skipped`, cannotRun: cycle });
      return false;
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of plugin.dependsOn ?? []) {
      const target = byName.get(dependency);
      if (!target) {
        const missing = `plugins: ${plugin.name} depends on ${dependency}, which is not loaded`;
        warn(plugin, { skipped: `${missing}; ${plugin.name} skipped`, cannotRun: missing });
        state.set(plugin.name, 'failed');
        return false;
      }
      if (!visit(target, [...chain, plugin.name])) {
        if (state.get(plugin.name) !== 'failed') warn(plugin, { skipped: `plugins: ${plugin.name} skipped because ${dependency} could not load`, cannotRun: `plugins: ${plugin.name} cannot run because ${dependency} could not load` });
        state.set(plugin.name, 'failed');
        return false;
      }
    }
    state.set(plugin.name, 'done');
    ordered.push(plugin);
    return true;
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
