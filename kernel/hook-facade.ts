/**
 * What a plugin sees of the hooks: a read-only object of tap-only facades. A plugin cannot replace
 * a hook, read or clear its taps, intercept it, or tap under another plugin's name; each tap is
 * recorded so it can be removed when the plugin is disposed (also after a failed `apply`).
 */
import type { HookName, KernelHooks, PluginHooks } from '../types/hooks.js';
import { HOOK_NAMES, pluginOfTap } from './hooks.js';

const TAP_METHODS = ['tap', 'tapAsync', 'tapPromise'] as const;
type TapMethod = (typeof TAP_METHODS)[number];

interface RawHook {
  taps: { name: string }[];
  tap(options: unknown, fn: unknown): void;
  tapAsync(options: unknown, fn: unknown): void;
  tapPromise(options: unknown, fn: unknown): void;
  intercept(interceptor: object): void;
}

export class ClosedHookError extends Error {}

/** Who taps through a facade: a plugin (names enforced) or the host build (names checked against plugins). */
export interface TapOwner {
  /** The plugin's name; undefined for the host (tests, custom builds). */
  readonly plugin: string | undefined;
  /** For the host: names it may not use (loaded plugins'). */
  isReserved?(name: string): boolean;
  /** Set for a facade that may not tap at all (the container's Kernel service): why. */
  readonly refuse?: string;
}

/** Taps made through facades, so a plugin's can be removed. */
export class TapLedger {
  private readonly taps = new Map<string, { hook: RawHook; tap: object }[]>();
  /** Plugins whose taps were removed (a failed apply, shutdown): they tap nothing any more. */
  private readonly removed = new Set<string>();

  isRemoved(plugin: string): boolean {
    return this.removed.has(plugin);
  }

  record(plugin: string, hook: RawHook, tap: object): void {
    const list = this.taps.get(plugin) ?? [];
    list.push({ hook, tap });
    this.taps.set(plugin, list);
  }

  /** Remove every tap the plugin made; returns how many. */
  removeAll(plugin: string): number {
    this.removed.add(plugin);
    const list = this.taps.get(plugin) ?? [];
    for (const { hook, tap } of list) {
      const index = hook.taps.indexOf(tap as { name: string });
      if (index >= 0) hook.taps.splice(index, 1);
    }
    // tapable has no untap. The tap is spliced out of `hook.taps` (the list a hook compiles its call
    // from: readable API, but writing it is undocumented) and an empty interceptor added, which
    // drops the compiled call (also undocumented), so the next call runs without the removed taps.
    // test/kernel/tapable-untap.test.ts fails if a tapable upgrade changes either. Once a hook.
    for (const hook of new Set(list.map((entry) => entry.hook))) hook.intercept({});
    this.taps.delete(plugin);
    return list.length;
  }
}

const HOOK_SET: ReadonlySet<string> = new Set(HOOK_NAMES);

/**
 * The hooks as one plugin (or the host) sees them. Each hook's facade is made at its first use:
 * the kernel makes a set per plugin at boot, and a plugin taps a few of the catalogue's hooks
 * (making all of them cost ≈ 1 ms of every launch). Read-only like a frozen object: listing and
 * reading the hooks work, anything else throws a message naming the plugin.
 */
export function createPluginHooks(hooks: KernelHooks, owner: TapOwner, ledger: TapLedger): PluginHooks {
  const made = new Map<string, object>();
  const facadeOf = (name: HookName): object => {
    let facade = made.get(name);
    if (!facade) made.set(name, (facade = closed(hookFacade(name, hooks[name] as unknown as RawHook, owner, ledger), `hook ${name}`, owner)));
    return facade;
  };
  const refuse = (property: PropertyKey, action: string): never => {
    throw new ClosedHookError(`hooks are closed: ${who(owner)} tried to ${action} "${String(property)}" of the hooks; plugins may only tap hooks`);
  };
  // The target stays empty and extensible: the hooks are reported by the traps, never stored on it.
  return new Proxy({} as PluginHooks, {
    get(_target, property) {
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') return undefined;
      if (!HOOK_SET.has(property)) {
        throw new ClosedHookError(`hooks are closed: ${who(owner)} tried to use "${property}" of the hooks; the hooks are: ${HOOK_NAMES.join(', ')}`);
      }
      return facadeOf(property as HookName);
    },
    has: (_target, property) => typeof property === 'string' && HOOK_SET.has(property),
    ownKeys: () => [...HOOK_NAMES],
    getOwnPropertyDescriptor: (_target, property) =>
      typeof property === 'string' && HOOK_SET.has(property) ? { value: facadeOf(property as HookName), writable: false, enumerable: true, configurable: true } : undefined,
    set: (_target, property) => refuse(property, 'replace'),
    deleteProperty: (_target, property) => refuse(property, 'delete'),
    defineProperty: (_target, property) => refuse(property, 'redefine'),
    setPrototypeOf: () => refuse('prototype', 'replace'),
    preventExtensions: () => refuse('extensibility', 'change'),
  });
}

function hookFacade(hookName: HookName, hook: RawHook, owner: TapOwner, ledger: TapLedger): object {
  const facade: Record<string, unknown> = {};
  for (const method of TAP_METHODS) {
    facade[method] = (options: unknown, fn: unknown) => tapThrough(hookName, hook, method, options, fn, owner, ledger);
  }
  return Object.freeze(facade);
}

function tapThrough(hookName: HookName, hook: RawHook, method: TapMethod, options: unknown, fn: unknown, owner: TapOwner, ledger: TapLedger): void {
  if (owner.refuse !== undefined) throw new ClosedHookError(`hook ${hookName}: ${owner.refuse}`);
  if (owner.plugin !== undefined && ledger.isRemoved(owner.plugin)) {
    throw new ClosedHookError(`plugin ${owner.plugin} tried to tap hook ${hookName} after it was removed (it failed, or MewCode is shutting down); a removed plugin taps nothing`);
  }
  const tapOptions = typeof options === 'string' ? { name: options } : { ...(options as object) };
  const name = (tapOptions as { name?: unknown }).name;
  if (typeof name !== 'string' || name.length === 0) throw new ClosedHookError(`${who(owner)} tapped hook ${hookName} without a name`);
  if (owner.plugin !== undefined && pluginOfTap(name) !== owner.plugin) {
    throw new ClosedHookError(`plugin ${owner.plugin} tried to tap hook ${hookName} under the name "${name}"; a plugin taps only under its own name ("${owner.plugin}" or "${owner.plugin}:<detail>")`);
  }
  if (owner.plugin === undefined && owner.isReserved?.(pluginOfTap(name))) {
    throw new ClosedHookError(`a tap on hook ${hookName} used the name "${name}", which belongs to a loaded plugin`);
  }
  // Taps are ordered by stage alone: the permission chain judges a tap by its stage, so a tap must
  // sit where its stage says (tapable's `before`, or a stage it does not read as a number, would
  // put it ahead of the blacklist and sandbox while its stage claims a later place).
  const { before: ahead, stage } = tapOptions as { before?: unknown; stage?: unknown };
  if (ahead !== undefined) {
    throw new ClosedHookError(`${who(owner)} tried to tap hook ${hookName} with "before"; taps are ordered by stage only`);
  }
  if (stage !== undefined && (typeof stage !== 'number' || Number.isNaN(stage))) {
    throw new ClosedHookError(`${who(owner)} tapped hook ${hookName} with stage ${JSON.stringify(stage) ?? String(stage)}; a stage must be a number`);
  }
  // tapable lets the options override the tap's kind and function (`type`, `fn`): a tap whose
  // `type` the hook cannot call would hang it, one whose `fn` differs from the one given would run
  // unchecked code. The method says the kind; the second argument is the function.
  for (const key of ['type', 'fn', 'context'] as const) {
    if (key in tapOptions) throw new ClosedHookError(`${who(owner)} tapped hook ${hookName} with "${key}" in its options; the tap method sets the kind and the function`);
  }
  if (typeof fn !== 'function') throw new ClosedHookError(`${who(owner)} tapped hook ${hookName} with ${fn === null ? 'null' : typeof fn} where a function was due`);
  const before = new Set(hook.taps);
  hook[method](tapOptions, fn);
  const added = hook.taps.find((tap) => !before.has(tap));
  if (added) ledger.record(owner.plugin ?? '(host)', hook, added);
}

function who(owner: TapOwner): string {
  return owner.plugin === undefined ? 'the host build' : `plugin ${owner.plugin}`;
}

/** Any write, delete or unknown read throws a message that names the plugin and what it tried. */
function closed<T extends object>(target: T, what: string, owner: TapOwner): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') return Reflect.get(object, property, receiver);
      if (!(property in object)) {
        const allowed = what === 'the hooks' ? `the hooks are: ${HOOK_NAMES.join(', ')}` : 'a plugin may only tap (tap, tapAsync, tapPromise)';
        throw new ClosedHookError(`hooks are closed: ${who(owner)} tried to use "${property}" of ${what}; ${allowed}`);
      }
      return Reflect.get(object, property, receiver);
    },
    set(_object, property) {
      throw new ClosedHookError(`hooks are closed: ${who(owner)} tried to replace "${String(property)}" of ${what}; plugins may only tap hooks`);
    },
    deleteProperty(_object, property) {
      throw new ClosedHookError(`hooks are closed: ${who(owner)} tried to delete "${String(property)}" of ${what}; plugins may only tap hooks`);
    },
    defineProperty(_object, property) {
      throw new ClosedHookError(`hooks are closed: ${who(owner)} tried to redefine "${String(property)}" of ${what}; plugins may only tap hooks`);
    },
  });
}
