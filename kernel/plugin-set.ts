/**
 * Which plugins run, in which order: defaults, then configured plugins; a later plugin of the same
 * name replaces the earlier one in its place; `replaces` drops the named plugins (taking the place
 * of the first); `disable:` removes by name (not essential ones, and a safety layer only when the
 * user's own file asks); `dependsOn` orders and requires.
 */
import type { MewcodePlugin } from '../types/plugin.js';

export function resolvePluginSet(
  defaults: readonly MewcodePlugin[],
  extra: readonly MewcodePlugin[],
  disable: readonly string[],
  warn: (message: string) => void,
  /** Names in `disable` that came from a project's files rather than the user's own. */
  disabledByProject: ReadonlySet<string> = new Set(),
): MewcodePlugin[] {
  const list: MewcodePlugin[] = [];
  const essential = new Set(defaults.filter((p) => p.essential).map((p) => p.name));
  // A plugin named in configuration may not stand in for an essential one (the blacklist, the
  // sandbox): configuration must never be able to switch those layers off (SPEC A1).
  const configured = extra.filter((plugin) => {
    const takesOver = namesTakenOver(plugin, essential);
    if (takesOver.length === 0) return true;
    warn(`plugins: ${plugin.name} would replace the essential plugin ${takesOver.join(', ')}; only a custom build may do that. ${plugin.name} skipped`);
    return false;
  });
  // Allowed (configured plugins load only from trusted places), but never silent: a configured
  // plugin standing in for a permission layer or the audit decides what those layers did.
  const safety = new Set(defaults.filter((p) => p.safety).map((p) => p.name));
  for (const plugin of configured) {
    const takesOver = namesTakenOver(plugin, safety);
    if (takesOver.length > 0) warn(`plugins: ${plugin.name} (from configuration) replaces the safety layer ${takesOver.join(', ')}`);
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
    if (plugin.safety && disabledByProject.has(plugin.name)) {
      warn(`plugins: ${plugin.name} is a safety layer, which a project's disable: cannot remove (only ~/.mewcode/config.yaml can); keeping it`);
      return true;
    }
    return false;
  });
  for (const name of disabled) {
    if (!list.some((p) => p.name === name)) warn(`plugins: disable names ${name}, which is not a loaded plugin`);
  }
  return orderByDependencies(enabled, warn);
}

/** Stable topological order; a plugin whose dependency is absent (or cyclic) is skipped loudly. */
function orderByDependencies(plugins: MewcodePlugin[], warn: (message: string) => void): MewcodePlugin[] {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const ordered: MewcodePlugin[] = [];
  const state = new Map<string, 'visiting' | 'done' | 'failed'>();

  const visit = (plugin: MewcodePlugin, chain: string[]): boolean => {
    const seen = state.get(plugin.name);
    if (seen === 'done') return true;
    if (seen === 'failed') return false;
    if (seen === 'visiting') {
      warn(`plugins: ${plugin.name} is part of a dependency cycle (${[...chain, plugin.name].join(' -> ')}); skipped`);
      return false;
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of plugin.dependsOn ?? []) {
      const target = byName.get(dependency);
      if (!target) {
        warn(`plugins: ${plugin.name} depends on ${dependency}, which is not loaded; ${plugin.name} skipped`);
        state.set(plugin.name, 'failed');
        return false;
      }
      if (!visit(target, [...chain, plugin.name])) {
        if (state.get(plugin.name) !== 'failed') warn(`plugins: ${plugin.name} skipped because ${dependency} could not load`);
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

/** Which of `names` this plugin stands in for: its own name, and what it `replaces`. */
function namesTakenOver(plugin: MewcodePlugin, names: ReadonlySet<string>): string[] {
  return [plugin.name, ...(plugin.replaces ?? [])].filter((name) => names.has(name));
}
