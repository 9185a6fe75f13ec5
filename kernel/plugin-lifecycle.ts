/**
 * The boot lifecycle, one guard per plugin and phase: `bindings` → tools (resolved per plugin)
 * → `apply` (taps) → `start()` (background; the first request waits at most the plugin's bound)
 * → runs → `dispose()`. A failing plugin is reported by name and the rest go on (K2); a failed
 * `apply` removes the plugin's taps and tools and disposes it. A `required` plugin that fails
 * stops the run (exit 2).
 */
import { ContainerModule, type Container, type ServiceIdentifier } from 'inversify';
import type { KernelApi, MewcodePlugin } from '../types/plugin.js';
import type { Tool } from '../types/tools.js';
import { TOKENS } from '../types/tokens.js';
import { ConfigurationError } from './configuration-error.js';
import type { TapLedger } from './hook-facade.js';
import { errorMessage } from './plugin-error.js';
import type { ToolRegistryImpl } from './tool-registry.js';
import { monotonicMs } from '../sdk/monotonic-clock.js';

/** How long the first model request waits for a plugin's `start()` unless it declares otherwise. */
export const DEFAULT_START_TIMEOUT_MS = 5_000;

export type Phase = 'load' | 'bindings' | 'tools' | 'apply';

export interface PluginTiming {
  name: string;
  bindMs: number;
  applyMs: number;
}

interface LifecycleDeps {
  container: Container;
  registry: ToolRegistryImpl;
  ledger: TapLedger;
  warn(message: string): void;
  contextFor(plugin: MewcodePlugin): KernelApi;
}

interface Loaded {
  plugin: MewcodePlugin;
  module: ContainerModule | undefined;
  toolToken: ServiceIdentifier<Tool>;
  tools: string[];
}

export class PluginLifecycle {
  readonly timings: PluginTiming[] = [];
  private readonly loaded: Loaded[] = [];
  private readonly applied: Loaded[] = [];
  private readiness: Promise<void> = Promise.resolve();

  constructor(private readonly deps: LifecycleDeps) {}

  /** Plugins that applied, in order. */
  plugins(): MewcodePlugin[] {
    return this.applied.map((entry) => entry.plugin);
  }

  /** A failure: reported by plugin name, or fatal for a required plugin. */
  fail(plugin: Pick<MewcodePlugin, 'name' | 'required'>, phase: Phase, error: unknown, consequence: string): void {
    const message = `plugin ${plugin.name} failed ${phase === 'load' ? 'to load' : `in ${phase}`}: ${errorMessage(error)}`;
    if (plugin.required) throw new ConfigurationError(`${message}. It is required (organisation policy), so MewCode will not run without it.`);
    this.deps.warn(`${message}; ${consequence}`);
  }

  async bindAll(plugins: readonly MewcodePlugin[]): Promise<void> {
    for (const plugin of plugins) {
      const started = monotonicMs();
      // Tools go under a token of their own per plugin, so one plugin's broken factory cannot take the others down.
      const toolToken = Symbol(`mewcode/Tool@${plugin.name}`) as ServiceIdentifier<Tool>;
      const module = plugin.bindings ? redirectTools(plugin.bindings, toolToken) : undefined;
      try {
        if (module) await this.deps.container.loadAsync(module);
        this.loaded.push({ plugin, module, toolToken, tools: [] });
      } catch (error) {
        this.fail(plugin, 'bindings', error, 'skipped');
      }
      this.timings.push({ name: plugin.name, bindMs: monotonicMs() - started, applyMs: 0 });
    }
  }

  registerTools(): void {
    for (const entry of this.loaded) {
      if (!entry.module || !this.deps.container.isBound(entry.toolToken)) continue;
      try {
        const tools = this.deps.container.getAll(entry.toolToken);
        for (const tool of tools) {
          if (!tool || typeof tool.name !== 'string' || typeof tool.execute !== 'function') throw new Error('a bound tool has no name or execute()');
        }
        for (const tool of tools) {
          this.deps.registry.register(tool);
          entry.tools.push(tool.name);
        }
      } catch (error) {
        this.fail(entry.plugin, 'tools', error, 'its tools are not available; the run goes on without them');
      }
    }
  }

  async applyAll(): Promise<void> {
    for (const entry of this.loaded) {
      const started = monotonicMs();
      try {
        await entry.plugin.apply?.(this.deps.contextFor(entry.plugin));
        this.applied.push(entry);
      } catch (error) {
        await this.unload(entry);
        this.fail(entry.plugin, 'apply', error, 'its taps and tools were removed and it was disposed');
      }
      const timing = this.timings.find((t) => t.name === entry.plugin.name);
      if (timing) timing.applyMs = monotonicMs() - started;
    }
  }

  /**
   * The plugins' `warm()`s, one after another, while `waiting()` holds (the first answer has not
   * begun), in plugin order except that those declaring `warmSetsV8Flags` go last. Failures are
   * ignored: the first real use loads again and reports them.
   */
  async warmAll(waiting: () => boolean): Promise<void> {
    const plugins = this.applied.map(({ plugin }) => plugin);
    const ordered = [...plugins.filter((plugin) => plugin.warmSetsV8Flags !== true), ...plugins.filter((plugin) => plugin.warmSetsV8Flags === true)];
    for (const plugin of ordered) {
      if (!plugin.warm) continue;
      if (!waiting()) return;
      try {
        await plugin.warm(this.deps.contextFor(plugin));
      } catch {
        // reported at first use
      }
    }
  }

  /** Start background work; `ready()` resolves when every start finished or used up its bound. */
  startAll(): void {
    const waits = this.applied
      .filter((entry) => entry.plugin.start)
      .map(({ plugin }) => {
        const bound = plugin.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
        let done = false;
        const started = Promise.resolve()
          .then(() => plugin.start?.(this.deps.contextFor(plugin)))
          .then(
            () => undefined,
            (error: unknown) => this.deps.warn(`plugin ${plugin.name} failed in start: ${errorMessage(error)}; it may work only partly`),
          )
          .finally(() => {
            done = true;
          });
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            if (!done) this.deps.warn(`plugin ${plugin.name} is still starting after ${bound} ms; going on without waiting for it`);
            resolve();
          }, bound);
          timer.unref();
        });
        return Promise.race([started, expired]).finally(() => clearTimeout(timer));
      });
    this.readiness = Promise.all(waits).then(() => undefined);
  }

  ready(): Promise<void> {
    return this.readiness;
  }

  /** Shutdown, in reverse order: each plugin's taps are removed first, so a disposed plugin is never called. */
  async disposeAll(): Promise<void> {
    for (const entry of [...this.applied].reverse()) {
      this.deps.ledger.removeAll(entry.plugin.name);
      await this.dispose(entry.plugin);
    }
  }

  private async unload(entry: Loaded): Promise<void> {
    this.deps.ledger.removeAll(entry.plugin.name);
    for (const name of entry.tools) this.deps.registry.unregister(name);
    if (entry.module) await this.deps.container.unloadAsync(entry.module).catch(() => undefined);
    await this.dispose(entry.plugin);
  }

  private async dispose(plugin: MewcodePlugin): Promise<void> {
    try {
      await plugin.dispose?.();
    } catch (error) {
      this.deps.warn(`plugin ${plugin.name} failed in dispose: ${errorMessage(error)}`);
    }
  }
}

/** The plugin's module, with `bind(TOKENS.Tool)` sent to the plugin's own tool token. */
function redirectTools(bindings: ContainerModule, toolToken: ServiceIdentifier<Tool>): ContainerModule {
  if (typeof (bindings as { load?: unknown }).load !== 'function') {
    return new ContainerModule(() => {
      throw new Error('its "bindings" is not a ContainerModule (use the ContainerModule the kernel API or mewcode/sdk provides)');
    });
  }
  return new ContainerModule((options) =>
    bindings.load({
      ...options,
      bind: ((id: ServiceIdentifier) => options.bind(id === TOKENS.Tool ? toolToken : id)) as typeof options.bind,
    }),
  );
}
