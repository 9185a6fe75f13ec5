/**
 * The boot lifecycle, one guard per plugin and phase: `bindings` → tools (resolved per plugin)
 * → `apply` (taps) → `start()` (background; the first request waits at most the plugin's bound)
 * → runs → `dispose()`. A failing plugin is reported by name and the rest go on (K2); a failed
 * `bindings` or `apply` removes what the plugin bound, registered and tapped, and disposes it.
 *
 * A critical plugin — required (by itself or by configuration), essential or a safety layer of
 * the build — that fails in any phase, start() included, stops the run (exit 2): MewCode never
 * runs with a policy, a permission layer, the sandbox or the audit log missing.
 */
import { ContainerModule, type Container, type ServiceIdentifier } from 'inversify';
import type { Command } from '../types/commands.js';
import { TOKENS } from '../types/tokens.js';
import type { KernelApi, MewcodePlugin, StartContext } from '../types/plugin.js';
import type { Tool } from '../types/tools.js';
import type { BindingLedger } from './binding-ledger.js';
import { ConfigurationError } from './configuration-error.js';
import type { TapLedger } from './hook-facade.js';
import { errorMessage } from './plugin-error.js';
import type { ToolRegistryImpl } from './tool-registry.js';
import { repeatedToolName, shownToolName } from './tool-names.js';
import { monotonicMs } from '../types/monotonic-clock.js';
import { sealedService } from '../types/sealed-service.js';
import { bounded } from './decision-bounds.js';

/** How long a plugin's apply() may take (it only registers; see applyOne). */
export const APPLY_TIMEOUT_MS = 10_000;
/** How long the first model request waits for a plugin's `start()` unless it (or `plugin_start_timeout_ms`) says otherwise. */
export const DEFAULT_START_TIMEOUT_MS = 5_000;
/** The longest a plugin's own `startTimeoutMs` counts for when the user set no plugin_start_timeout_ms (its own maximum too). */
export const MAX_START_TIMEOUT_MS = 120_000;

/** How long shutdown waits for one plugin's dispose(). */
export const DISPOSE_TIMEOUT_MS = 5_000;

export type Phase = 'load' | 'bindings' | 'tools' | 'commands' | 'apply' | 'start';

export interface PluginTiming {
  name: string;
  /** A configured plugin's import and factory (undefined for the build's own, loaded with MewCode). */
  loadMs?: number;
  bindMs: number;
  applyMs: number;
}

interface LifecycleDeps {
  container: Container;
  registry: ToolRegistryImpl;
  ledger: TapLedger;
  bindings: BindingLedger;
  warn(message: string): void;
  /** A failure's message with the plugin's stack appended under --debug (unchanged otherwise). */
  withStack?(message: string, error: unknown): string;
  /** `signal`: only for start() (StartContext). */
  contextFor(plugin: MewcodePlugin, signal?: AbortSignal): KernelApi;
  /** Why the run cannot go on without this plugin ("It is essential"), or undefined. */
  criticality(plugin: MewcodePlugin): string | undefined;
  /** The plugin is in the build's own list (it may replace protected services). */
  fromBuild(plugin: MewcodePlugin): boolean;
  /** The bound of a start() whose plugin declares none (`plugin_start_timeout_ms`), if configured. */
  startTimeoutMs(): number | undefined;
  /** The bound of bindings and apply() (APPLY_TIMEOUT_MS unless given). */
  applyTimeoutMs?: number;
}

interface Loaded {
  plugin: MewcodePlugin;
  module: ContainerModule | undefined;
  toolToken: ServiceIdentifier<Tool>;
  commandToken: ServiceIdentifier<Command>;
  /** The kernel's bindings of the commands it accepted from this plugin under TOKENS.Command. */
  commandModule?: ContainerModule;
  tools: string[];
}

export class PluginLifecycle {
  readonly timings: PluginTiming[] = [];
  private readonly loaded: Loaded[] = [];
  private readonly applied: Loaded[] = [];
  private readiness: Promise<void> = Promise.resolve();
  private criticalReadiness: Promise<void> = Promise.resolve();
  private readonly startTimers = new Set<NodeJS.Timeout>();
  /** Each start()'s signal: aborted at its time limit, and at shutdown for those still running. */
  private readonly startAborts = new Set<AbortController>();

  constructor(private readonly deps: LifecycleDeps) {}

  /** Plugins that applied, in order. */
  plugins(): MewcodePlugin[] {
    return this.applied.map((entry) => entry.plugin);
  }

  /** A plugin whose bindings loaded (the owner a tool, command or service is checked against). */
  loadedPlugin(name: string): MewcodePlugin | undefined {
    return this.loaded.find((entry) => entry.plugin.name === name)?.plugin;
  }

  /** A failure: reported by plugin name, or a ConfigurationError for a critical plugin. */
  fail(plugin: MewcodePlugin, phase: Phase, error: unknown, consequence: string): void {
    const fatal = this.fatal(plugin, phase, error);
    if (fatal) throw fatal;
    this.deps.warn(this.stacked(`${describeFailure(plugin, phase, error)}; ${consequence}`, error));
  }

  private stacked(message: string, error: unknown): string {
    return this.deps.withStack ? this.deps.withStack(message, error) : message;
  }

  private fatal(plugin: MewcodePlugin, phase: Phase, error: unknown): ConfigurationError | undefined {
    const why = this.deps.criticality(plugin);
    return why ? new ConfigurationError(this.stacked(`${describeFailure(plugin, phase, error)}. ${why}, so MewCode will not run without it.`, error)) : undefined;
  }

  async bindAll(plugins: readonly MewcodePlugin[]): Promise<void> {
    for (const plugin of plugins) {
      const started = monotonicMs();
      // Tools go under a token of their own per plugin, so one plugin's broken factory cannot take the others down.
      const toolToken = Symbol(`mewcode/Tool@${plugin.name}`) as ServiceIdentifier<Tool>;
      const commandToken = Symbol(`mewcode/Command@${plugin.name}`) as ServiceIdentifier<Command>;
      const module = plugin.bindings
        ? this.deps.bindings.guardModule({ plugin, fromBuild: this.deps.fromBuild(plugin) }, plugin.bindings, { tools: toolToken, commands: commandToken })
        : undefined;
      try {
        if (module) await this.bindOne(module);
        this.loaded.push({ plugin, module, toolToken, commandToken, tools: [] });
      } catch (error) {
        // Whatever it bound before failing goes too: a half-bound plugin must not shadow or break another's service.
        if (module) await this.deps.container.unloadAsync(module).catch(() => undefined);
        this.deps.bindings.release(plugin.name);
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
        // The same name twice (or in two cases) among its own tools: one would replace the other unseen.
        const twice = repeatedToolName(tools.map((tool) => tool.name));
        if (twice) throw new Error(twice[0] === twice[1] ? `it binds tool ${shownToolName(twice[0])} twice` : `it binds tools ${shownToolName(twice[0])} and ${shownToolName(twice[1])}, which differ only by case`);
        const claim = { owner: entry.plugin.name, ...(entry.plugin.replaces ? { replaces: entry.plugin.replaces } : {}), ...(this.deps.fromBuild(entry.plugin) ? {} : { configured: true }) };
        // All or nothing: a refused name leaves none of the plugin's tools half-registered.
        for (const tool of tools) {
          const refusal = this.deps.registry.refusal(tool.name, claim);
          if (refusal) throw new Error(refusal);
        }
        for (const tool of tools) {
          this.deps.registry.register(tool, claim);
          entry.tools.push(tool.name);
        }
      } catch (error) {
        this.fail(entry.plugin, 'tools', error, 'its tools are not available; the run goes on without them');
      }
    }
  }

  /**
   * Each plugin's slash commands, under TOKENS.Command, one plugin per name: a second plugin's
   * command of a taken name is left out, naming both, unless that plugin `replaces` the name.
   * A configured plugin never takes the command of a plugin the run cannot go without (its own
   * refusal stops the boot when it is itself critical), and a command it does take is said.
   */
  async registerCommands(): Promise<void> {
    const accepted = new Map<string, { command: Command; owner: Loaded }>();
    for (const entry of this.loaded) {
      if (!entry.module || !this.deps.container.isBound(entry.commandToken)) continue;
      let commands: Command[];
      try {
        commands = this.deps.container.getAll(entry.commandToken);
        for (const command of commands) {
          if (!command || typeof command.name !== 'string' || typeof command.run !== 'function') throw new Error('a bound command has no name or run()');
        }
      } catch (error) {
        this.fail(entry.plugin, 'commands', error, 'its commands are not available');
        continue;
      }
      for (const command of commands) {
        const holder = accepted.get(command.name);
        if (holder && holder.owner !== entry && !(entry.plugin.replaces ?? []).includes(command.name)) {
          this.deps.warn(
            `plugin ${entry.plugin.name}: command /${command.name} is already contributed by plugin ${holder.owner.plugin.name}; its /${command.name} is not available (declare replaces: ['${command.name}'] to replace it)`,
          );
          continue;
        }
        const configured = !this.deps.fromBuild(entry.plugin);
        if (holder && holder.owner !== entry && configured) {
          const why = this.deps.criticality(holder.owner.plugin);
          if (why !== undefined) {
            const refusal = new Error(`command /${command.name} belongs to plugin ${holder.owner.plugin.name}, which configuration cannot replace: ${why[0]!.toLowerCase()}${why.slice(1)}`);
            this.fail(entry.plugin, 'commands', refusal, `its /${command.name} is not available`);
            continue;
          }
          this.deps.warn(`plugin ${entry.plugin.name} takes command /${command.name} from plugin ${holder.owner.plugin.name} (replaces: ['${command.name}'])`);
        }
        if (holder && holder.owner !== entry) accepted.delete(command.name); // replaced: the newcomer's goes last
        accepted.set(command.name, { command, owner: entry });
      }
    }
    for (const entry of this.loaded) {
      const mine = [...accepted.values()].filter((held) => held.owner === entry).map((held) => held.command);
      if (mine.length === 0) continue;
      entry.commandModule = new ContainerModule(({ bind }) => {
        // Sealed: every plugin resolves these; none may replace another's `run`.
        for (const command of mine) bind(TOKENS.Command).toConstantValue(sealedService(command));
      });
      await this.deps.container.loadAsync(entry.commandModule);
    }
  }

  async applyAll(): Promise<void> {
    for (const entry of this.loaded) {
      const started = monotonicMs();
      try {
        await this.applyOne(entry.plugin);
        this.applied.push(entry);
      } catch (error) {
        await this.unload(entry);
        this.fail(entry.plugin, 'apply', error, 'its taps and tools were removed and it was disposed');
      }
      const timing = this.timings.find((t) => t.name === entry.plugin.name);
      if (timing) timing.applyMs = monotonicMs() - started;
    }
  }

  /** A plugin's bindings, loaded within the same bound as apply() (an async module may wait). */
  private bindOne(module: ContainerModule): Promise<void> {
    const ms = this.deps.applyTimeoutMs ?? APPLY_TIMEOUT_MS;
    return bounded(Promise.resolve(this.deps.container.loadAsync(module)), { ms }, (why) => {
      throw new Error(why === 'timeout' ? `its bindings did not finish loading within ${ms} ms` : 'its bindings wait on something that can never finish (nothing is left running that could settle it)');
    });
  }

  /**
   * apply() registers taps, tools and commands; waiting on a server belongs in start(), which has
   * its own bound. One that has not finished within APPLY_TIMEOUT_MS (or waits on something that
   * can never finish) fails like one that threw: its taps and tools are removed, and a tap it makes
   * later is refused (hook-facade.ts).
   */
  private applyOne(plugin: MewcodePlugin): Promise<void> {
    const applying = Promise.resolve().then(() => plugin.apply?.(this.deps.contextFor(plugin)));
    const ms = this.deps.applyTimeoutMs ?? APPLY_TIMEOUT_MS;
    return bounded(applying.then(() => undefined), { ms }, (why) => {
      throw new Error(why === 'timeout' ? `apply() did not finish within ${ms} ms (slow work belongs in start())` : 'apply() waits on something that can never finish (nothing is left running that could settle it)');
    });
  }

  /**
   * The plugins' `warm()`s, one after another, while `waiting()` holds (the first answer has not
   * begun), in plugin order. Failures are ignored: the first real use loads again and reports them.
   */
  async warmAll(waiting: () => boolean): Promise<void> {
    for (const { plugin } of this.applied) {
      if (!plugin.warm) continue;
      if (!waiting()) return;
      try {
        await plugin.warm(this.deps.contextFor(plugin));
      } catch {
        // reported at first use
      }
    }
  }

  /**
   * Start background work. Each start() is bounded: one that fails or has not finished within its
   * bound is a warning (the run goes on without waiting), or, for a critical plugin, the
   * ConfigurationError `ready()` and `criticalReady()` reject with.
   */
  startAll(): void {
    const critical: Promise<void>[] = [];
    const waits = this.applied
      .filter((entry) => entry.plugin.start)
      .map(({ plugin }) => {
        const wait = this.startOne(plugin);
        if (this.deps.criticality(plugin)) critical.push(wait);
        return wait;
      });
    this.readiness = Promise.all(waits).then(() => undefined);
    this.criticalReadiness = Promise.all(critical).then(() => undefined);
    // Nobody may be waiting yet: a critical failure is also reported through ready().
    this.readiness.catch(() => undefined);
    this.criticalReadiness.catch(() => undefined);
  }

  private startOne(plugin: MewcodePlugin): Promise<void> {
    // The plugin's own bound never exceeds the user's plugin_start_timeout_ms, nor without one
    // MAX_START_TIMEOUT_MS: a plugin must not make the first request wait on it longer than that.
    const configured = this.deps.startTimeoutMs();
    const bound = Math.min(plugin.startTimeoutMs ?? configured ?? DEFAULT_START_TIMEOUT_MS, configured ?? MAX_START_TIMEOUT_MS);
    const failed = (error: unknown): void => {
      const fatal = this.fatal(plugin, 'start', error);
      if (fatal) throw fatal;
      this.deps.warn(this.stacked(`${describeFailure(plugin, 'start', error)}; it may work only partly`, error));
    };
    let done = false;
    const abort = new AbortController();
    this.startAborts.add(abort);
    const started = Promise.resolve()
      .then(() => plugin.start?.(this.deps.contextFor(plugin, abort.signal) as StartContext))
      .then(() => undefined, failed)
      .finally(() => {
        done = true;
        this.startAborts.delete(abort);
      });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => {
        this.startTimers.delete(timer!);
        if (done) return resolve();
        const late = new Error(`did not finish start within ${bound} ms`);
        // The run stops waiting: the plugin is told, so it can stop its requests and timers.
        this.startAborts.delete(abort);
        abort.abort(late);
        const fatal = this.fatal(plugin, 'start', late);
        if (fatal) return reject(fatal);
        this.deps.warn(`plugin ${plugin.name} did not finish start within ${bound} ms; going on without waiting for it`);
        resolve();
      }, bound);
      // Not holding the process open by itself: a run that ends first exits at once. `ready()`
      // holds it while someone waits, so a start() that never settles cannot let the process
      // end with the first request still waiting for it.
      timer.unref();
      this.startTimers.add(timer);
    });
    return Promise.race([started, expired]).finally(() => {
      clearTimeout(timer);
      this.startTimers.delete(timer!);
    });
  }

  /** Resolves when every start() finished or used up its bound; rejects when a critical one failed. */
  ready(): Promise<void> {
    for (const timer of this.startTimers) timer.ref();
    return this.readiness;
  }

  /** The same for the critical plugins only (what the CLI waits for before a UI runs). */
  criticalReady(): Promise<void> {
    for (const timer of this.startTimers) timer.ref();
    return this.criticalReadiness;
  }

  /** Shutdown, in reverse order: each plugin's taps are removed first, so a disposed plugin is never called. */
  async disposeAll(): Promise<void> {
    for (const timer of this.startTimers) clearTimeout(timer);
    this.startTimers.clear();
    for (const abort of this.startAborts) abort.abort(new Error('MewCode is shutting down'));
    this.startAborts.clear();
    for (const entry of [...this.applied].reverse()) {
      this.deps.ledger.removeAll(entry.plugin.name);
      await this.dispose(entry.plugin);
    }
  }

  private async unload(entry: Loaded): Promise<void> {
    this.deps.ledger.removeAll(entry.plugin.name);
    // Only its own registrations (bound or registered in apply): a tool it replaced comes back.
    this.deps.registry.unregisterOwner(entry.plugin.name);
    if (entry.commandModule) await this.deps.container.unloadAsync(entry.commandModule).catch(() => undefined);
    if (entry.module) await this.deps.container.unloadAsync(entry.module).catch(() => undefined);
    this.deps.bindings.release(entry.plugin.name);
    await this.dispose(entry.plugin);
  }

  /** Bounded: a dispose() that never settles must not hold shutdown (and so the process's end) open. */
  private async dispose(plugin: MewcodePlugin): Promise<void> {
    if (!plugin.dispose) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), DISPOSE_TIMEOUT_MS);
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(() => plugin.dispose?.()), late]);
      if (outcome === 'late') this.deps.warn(`plugin ${plugin.name} did not finish dispose within ${DISPOSE_TIMEOUT_MS} ms; shutting down without waiting for it`);
    } catch (error) {
      this.deps.warn(`plugin ${plugin.name} failed in dispose: ${errorMessage(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

function describeFailure(plugin: Pick<MewcodePlugin, 'name'>, phase: Phase, error: unknown): string {
  // errorMessage, never `error.message`: what a plugin threw may not describe itself without throwing.
  const message = errorMessage(error);
  if (phase === 'start' && message.startsWith('did not finish start within')) return `plugin ${plugin.name} ${message}`;
  return `plugin ${plugin.name} failed ${phase === 'load' ? 'to load' : `in ${phase}`}: ${message}`;
}
