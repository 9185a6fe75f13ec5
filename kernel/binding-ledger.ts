/**
 * Who bound which service. Every plugin's `bindings` module is loaded through `guardModule`,
 * which sees each `bind`, `rebind` and `unbind` it makes:
 * - `TOKENS.Tool` goes to the plugin's own tool token (its tools are resolved, and fail, alone),
 *   and `TOKENS.Command` to its own command token (the kernel binds the commands it accepts:
 *   one plugin per command name);
 * - the multi-bound tokens (tools, provider factories, user interfaces, commands, read-only directories) take any number
 *   of bindings;
 * - every other token of TOKENS is single-binding (it is resolved with `get`): a second plugin's
 *   binding would make every `get` fail with "Ambiguous bindings" and take the first plugin down.
 *   It is refused instead, naming both, unless the newcomer declares `replaces: ['<token name>']`
 *   (e.g. `replaces: ['CommandSandbox']`); then the incumbent's binding is removed first (said
 *   with a warning when the newcomer comes from configuration). The kernel's own services, and
 *   those of a plugin the run cannot go without (essential, a safety layer, required) when the
 *   newcomer comes from configuration, cannot be replaced. A plugin may `unbind` or `rebind` only
 *   what it bound.
 * - an identifier that is not in TOKENS (a plugin's own service: `Symbol.for('acme/dlp/engine')`)
 *   belongs to the first plugin that binds it: no other plugin may bind, rebind or unbind it, nor
 *   watch it with an activation handler. Such ids are easily made again elsewhere
 *   (`Symbol.for` is global), and the organisation's DLP engine or the permission rules behind
 *   their public tokens must not be swapped from beside them.
 *
 * Why not a child container per plugin (Fastify-style encapsulation): every plugin resolves other
 * plugins' services by TOKENS from the one container (the sandbox, the permission settings, the
 * session store), which is the documented contract; a container per plugin would need an export
 * list per plugin and a second resolution path, for what this ledger already prevents (a plugin
 * silently taking over or breaking another's service).
 */
import { ContainerModule, type ContainerModuleLoadOptions, type ServiceIdentifier } from 'inversify';
import type { MewcodePlugin } from '../types/plugin.js';
import type { Command } from '../types/commands.js';
import type { Tool } from '../types/tools.js';
import { TOKENS } from '../types/tokens.js';

/** Tokens that take a binding from every plugin that contributes one. */
const MULTI_BOUND: ReadonlySet<ServiceIdentifier> = new Set([TOKENS.Tool, TOKENS.ProviderFactory, TOKENS.UserInterface, TOKENS.Command, TOKENS.CommandProvider, TOKENS.ReadOnlyDirectories, TOKENS.ClaudePluginRoots]);

const TOKEN_NAMES = new Map<ServiceIdentifier, string>(Object.entries(TOKENS).map(([name, token]) => [token as ServiceIdentifier, name]));

/** The pseudo-owner of the services the kernel binds itself. */
export const KERNEL_OWNER = 'the kernel';

export interface Newcomer {
  plugin: MewcodePlugin;
  /** The plugin is part of the build's own list (not named in configuration). */
  fromBuild: boolean;
}

export class BindingLedger {
  private readonly owners = new Map<ServiceIdentifier, string>();

  constructor(
    /** Why configuration may not take `plugin`'s services ("it is essential"), or undefined. */
    private readonly guarded: (plugin: string) => string | undefined,
    /** Where a configured plugin's takeover of another's service is said. */
    private readonly warn: (message: string) => void = () => undefined,
    /**
     * The kernel view a plugin's own services get for TOKENS.Kernel: one naming that plugin, so a
     * call it makes through it (a command's `!` line, a recovery read) carries its name as madeBy.
     */
    private readonly kernelFor?: (newcomer: Newcomer) => unknown,
  ) {}

  /** Services the kernel binds: never another's. */
  claimForKernel(...tokens: ServiceIdentifier[]): void {
    for (const token of tokens) this.owners.set(token, KERNEL_OWNER);
  }

  /** Forget a failed plugin's claims (its module was unloaded). */
  release(plugin: string): void {
    for (const [token, owner] of this.owners) if (owner === plugin) this.owners.delete(token);
  }

  /** The plugin's module, with its tools redirected to `toolToken` and every single-binding token checked. */
  guardModule(newcomer: Newcomer, bindings: ContainerModule, own: { tools: ServiceIdentifier<Tool>; commands: ServiceIdentifier<Command> }): ContainerModule {
    if (typeof (bindings as { load?: unknown }).load !== 'function') {
      return new ContainerModule(() => {
        throw new Error('its "bindings" is not a ContainerModule (use the ContainerModule the kernel API or mewcode/sdk provides)');
      });
    }
    const name = newcomer.plugin.name;
    return new ContainerModule((options) => {
      const bind = ((id: ServiceIdentifier) => {
        if (id === TOKENS.Tool) return options.bind(own.tools);
        if (id === TOKENS.Command) return options.bind(own.commands);
        refuseBuildOnly(id, newcomer);
        if (this.checked(id)) this.take(newcomer, id, options);
        else if (!TOKEN_NAMES.has(id)) this.claimOwn(name, id);
        return this.kernelFor ? ownKernelIn(options.bind(id), () => this.kernelFor!(newcomer)) : options.bind(id);
      }) as ContainerModuleLoadOptions['bind'];
      const mayChange = (id: ServiceIdentifier): void => {
        refuseBuildOnly(id, newcomer);
        if (TOKEN_NAMES.has(id) && !this.checked(id)) return;
        const owner = this.owners.get(id);
        if (owner !== undefined && owner !== name) throw new Error(`${tokenLabel(id)} is bound by ${owner}`);
      };
      // Only a service identifier: inversify also unbinds by a binding's id (a plain object whose
      // numbers come from one counter, so easily guessed), which would name no service to check.
      const identifierOf = (identifier: unknown): ServiceIdentifier => {
        if (typeof identifier === 'string' || typeof identifier === 'symbol' || typeof identifier === 'function') return identifier as ServiceIdentifier;
        throw new Error('unbind takes a service identifier (a token, a string, a symbol or a class), not a binding');
      };
      // An activation handler sees (and may replace) every instance of the service: only on the
      // plugin's own tools and commands, the tokens it bound itself, or identifiers of its own.
      const handlerOn = (id: ServiceIdentifier, what: string): ServiceIdentifier => {
        if (id === TOKENS.Tool) return own.tools;
        if (id === TOKENS.Command) return own.commands;
        if (this.owners.get(id) !== name) {
          const owner = this.owners.get(id);
          throw new Error(`${what} on ${tokenLabel(id)} is refused: only the plugin that binds a service may watch it (${owner === undefined ? 'this plugin has not bound it' : `bound by ${owner}`})`);
        }
        return id;
      };
      return whileLoading(bindings, {
        ...options,
        bind,
        onActivation: ((id: ServiceIdentifier, handler: Parameters<ContainerModuleLoadOptions['onActivation']>[1]) =>
          options.onActivation(handlerOn(id, 'an activation handler'), handler)) as ContainerModuleLoadOptions['onActivation'],
        onDeactivation: ((id: ServiceIdentifier, handler: Parameters<ContainerModuleLoadOptions['onDeactivation']>[1]) =>
          options.onDeactivation(handlerOn(id, 'a deactivation handler'), handler)) as ContainerModuleLoadOptions['onDeactivation'],
        rebind: ((id: ServiceIdentifier) => (mayChange(id), this.record(name, id), options.rebind(id))) as ContainerModuleLoadOptions['rebind'],
        rebindAsync: (async (id: ServiceIdentifier) => (mayChange(id), this.record(name, id), options.rebindAsync(id))) as ContainerModuleLoadOptions['rebindAsync'],
        unbind: ((identifier: Parameters<ContainerModuleLoadOptions['unbind']>[0]) => {
          mayChange(identifierOf(identifier));
          return options.unbind(identifier);
        }) as ContainerModuleLoadOptions['unbind'],
        unbindAsync: (async (identifier: Parameters<ContainerModuleLoadOptions['unbindAsync']>[0]) => {
          mayChange(identifierOf(identifier));
          return options.unbindAsync(identifier);
        }) as ContainerModuleLoadOptions['unbindAsync'],
      });
    });
  }

  private checked(id: ServiceIdentifier): boolean {
    return TOKEN_NAMES.has(id) && !MULTI_BOUND.has(id);
  }

  private record(plugin: string, id: ServiceIdentifier): void {
    if (this.checked(id) || !TOKEN_NAMES.has(id)) this.owners.set(id, plugin);
  }

  /** A plugin's own identifier (not in TOKENS): the first plugin to bind it owns it. */
  private claimOwn(plugin: string, id: ServiceIdentifier): void {
    const owner = this.owners.get(id);
    if (owner !== undefined && owner !== plugin) throw new Error(`${tokenLabel(id)} is bound by ${owner}: a plugin's own services are not another plugin's to bind`);
    this.owners.set(id, plugin);
  }

  /** Claim `id` for the newcomer, or throw naming both; a declared replacement unbinds the incumbent. */
  private take(newcomer: Newcomer, id: ServiceIdentifier, options: ContainerModuleLoadOptions): void {
    const name = newcomer.plugin.name;
    const owner = this.owners.get(id);
    if (owner !== undefined && owner !== name) {
      const tokenName = TOKEN_NAMES.get(id)!;
      const replaces = (newcomer.plugin.replaces ?? []).includes(tokenName);
      if (owner === KERNEL_OWNER) throw new Error(`${tokenLabel(id)} is bound by the kernel`);
      const why = newcomer.fromBuild ? undefined : this.guarded(owner);
      if (why !== undefined) throw new Error(`${tokenLabel(id)} is bound by ${owner}, which configuration cannot replace: ${why}`);
      if (!replaces) throw new Error(`${tokenLabel(id)} is already bound by ${owner} (declare replaces: ['${tokenName}'] to replace it)`);
      if (!newcomer.fromBuild) this.warn(`plugin ${name} takes ${tokenLabel(id)} from ${owner} (replaces: ['${tokenName}'])`);
      if (options.isBound(id)) options.unbind(id);
    }
    this.owners.set(id, name);
  }
}

/**
 * Tokens whose implementation stands between a tool and the machine, beneath every permission
 * layer and the OS sandbox: a configured plugin binding one would run bash's sandboxed command
 * line its own way (or not at all), or read and write files where the file tools' checks did
 * not look. The editor front end (ui-acp) binds them in the build.
 */
const BUILD_ONLY: ReadonlyMap<ServiceIdentifier, string> = new Map<ServiceIdentifier, string>([
  [TOKENS.CommandLauncher, 'decides how bash runs its sandboxed command'],
  [TOKENS.WorkspaceFiles, 'decides how the file tools read and write'],
  // The active UI answers approvals as the user, managed settings' questions included.
  [TOKENS.UserInterface, 'answers approvals as the user'],
]);

/** A build-only token (single or multi-bound) bound, rebound or unbound by a plugin named in configuration: refused. */
function refuseBuildOnly(id: ServiceIdentifier, newcomer: Newcomer): void {
  const buildOnly = BUILD_ONLY.get(id);
  if (buildOnly !== undefined && !newcomer.fromBuild) throw new Error(`${tokenLabel(id)} ${buildOnly}: only a plugin of the build (a custom build) may bind it, not one named in configuration`);
}

/**
 * Loads `bindings` with `options` that work only while it loads: a module that keeps them (in a
 * variable its plugin's apply() reads later) would bind and unbind after boot, which the kernel's
 * container view refuses.
 */
function whileLoading(bindings: ContainerModule, options: ContainerModuleLoadOptions): void | Promise<void> {
  let loading = true;
  const expiring = Object.fromEntries(
    Object.entries(options).map(([key, value]) => [
      key,
      typeof value === 'function'
        ? (...args: unknown[]) => {
            if (!loading) throw new Error(`${key} after the bindings module loaded is refused: bind services while it loads`);
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value,
    ]),
  ) as unknown as ContainerModuleLoadOptions;
  let result: void | Promise<void>;
  try {
    result = bindings.load(expiring);
  } catch (error) {
    loading = false;
    throw error;
  }
  if (result && typeof (result as Promise<void>).then === 'function') return (result as Promise<void>).finally(() => (loading = false));
  loading = false;
  return result;
}

function tokenLabel(id: ServiceIdentifier): string {
  const name = TOKEN_NAMES.get(id);
  return name !== undefined ? `TOKENS.${name}` : typeof id === 'function' ? id.name : String(id);
}


/**
 * A binding whose `toDynamicValue` factory resolves TOKENS.Kernel as its plugin's own view (the
 * rest of the container as it is): the service a plugin binds acts as that plugin.
 */
function ownKernelIn<T extends object>(syntax: T, kernel: () => unknown): T {
  return new Proxy(syntax, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key !== 'toDynamicValue') return (value as (...args: unknown[]) => unknown).bind(target);
      return (factory: (context: object) => unknown) => (value as (f: (context: object) => unknown) => unknown).call(target, (context: object) => factory(withOwnKernel(context, kernel)));
    },
  });
}

function withOwnKernel(context: object, kernel: () => unknown): object {
  return new Proxy(context, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (key === 'get') return (id: unknown, ...rest: unknown[]) => (id === TOKENS.Kernel ? kernel() : method(id, ...rest));
      if (key === 'getAsync') return (id: unknown, ...rest: unknown[]) => (id === TOKENS.Kernel ? Promise.resolve(kernel()) : method(id, ...rest));
      return method;
    },
  });
}
