/**
 * The kernel: builds the container, loads and applies plugins, owns the hooks, the conversation
 * and the tool registry, and runs prompts through the agent loop one at a time (L8).
 */
import { Container, type ServiceIdentifier } from 'inversify';
import type { AgentEvent } from '../types/events.js';
import type { KernelHooks, SessionContext } from '../types/hooks.js';
import type { PermissionMode } from '../types/permissions.js';
import type { CliOptions, KernelApi, MewcodePlugin, RunOptions } from '../types/plugin.js';
import type { ProviderFactory } from '../types/provider.js';
import type { ResolvedConfig } from '../types/config.js';
import type { Reporter } from '../types/services.js';
import type { Tool } from '../types/tools.js';
import { TOKENS } from '../types/tokens.js';
import { emptyUsage } from '../types/messages.js';
import { createVarExpander } from '../config/expand.js';
import { runAgentLoop, MAX_UNKNOWN_TOOL_ITERATIONS } from './agent-loop.js';
import type { UsageAnchor } from './context-estimate.js';
import { manageContext } from './context-manager.js';
import { ConversationImpl } from './conversation.js';
import { emptyConfig } from './empty-config.js';
import { FileReadTrackerImpl } from './file-read-tracker.js';
import { EventChannel } from './event-channel.js';
import { loadExternalPlugins } from './external-plugins.js';
import { createHooks, guardHooks } from './hooks.js';
import { readSection, readKernelSettings, type KernelSettings } from './kernel-config.js';
import { Mutex } from './mutex.js';
import { errorMessage } from './plugin-error.js';
import { resolvePluginSet } from './plugin-set.js';
import { ProviderRegistryImpl } from './provider-registry.js';
import { resolveProviderSettings } from './provider-settings.js';
import { StderrReporter } from './reporter.js';
import { newSessionId } from './session-id.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-runner.js';
import { ToolRegistryImpl } from './tool-registry.js';
import { KERNEL_VERSION } from './version.js';

export interface KernelOptions {
  /** The build's plugin set (the CLI passes the default set). */
  plugins: readonly MewcodePlugin[];
  config?: ResolvedConfig;
  projectRoot: string;
  homeDir: string;
  env?: NodeJS.ProcessEnv;
  flags?: { provider?: string; model?: string };
  reporter?: Reporter;
  sessionId?: string;
  cli?: CliOptions;
  defaultToolTimeoutMs?: number;
  maxUnknownToolIterations?: number;
}

export interface PluginTiming {
  name: string;
  bindMs: number;
  applyMs: number;
}

export class Kernel implements KernelApi {
  readonly version = KERNEL_VERSION;
  readonly hooks: KernelHooks = createHooks();
  readonly container = new Container();
  readonly session: SessionContext;
  readonly cli: CliOptions | undefined;
  readonly tools = new ToolRegistryImpl();
  readonly conversation: ConversationImpl;
  readonly reporter: Reporter;
  readonly fileReads = new FileReadTrackerImpl();
  readonly timings: PluginTiming[] = [];
  /** Plugins that loaded and applied, in order. */
  readonly plugins: MewcodePlugin[] = [];
  providers!: ProviderRegistryImpl;

  private readonly resolvedConfig: ResolvedConfig;
  private readonly pluginConfig = new Map<string, unknown>();
  private readonly reminders: string[] = [];
  private readonly anchor: { current: UsageAnchor | undefined } = { current: undefined };
  private readonly runLock = new Mutex();
  private stablePrompt: string | undefined;

  private constructor(private readonly options: KernelOptions) {
    this.reporter = options.reporter ?? new StderrReporter();
    this.resolvedConfig = options.config ?? emptyConfig;
    this.cli = options.cli;
    this.session = { sessionId: options.sessionId ?? newSessionId(), projectRoot: options.projectRoot, homeDir: options.homeDir };
    this.conversation = new ConversationImpl(this.hooks, () => this.session.sessionId);
    guardHooks(this.hooks, (error) => this.warn(error.message));
  }

  static async create(options: KernelOptions): Promise<Kernel> {
    const kernel = new Kernel(options);
    await kernel.boot();
    return kernel;
  }

  private async boot(): Promise<void> {
    for (const warning of this.resolvedConfig.warnings) this.warn(warning);
    const settings = await readKernelSettings(this.resolvedConfig, (m) => this.warn(m));
    const external = await loadExternalPlugins(settings.plugins, this.session.projectRoot, (m) => this.warn(m));
    const plugins = resolvePluginSet(this.options.plugins, external, settings.disable, (m) => this.warn(m));
    this.bindCoreServices();

    const bound: MewcodePlugin[] = [];
    for (const plugin of plugins) {
      const started = performance.now();
      try {
        if (plugin.bindings) await this.container.loadAsync(plugin.bindings);
        if (plugin.config) this.pluginConfig.set(plugin.config.key, readSection(this.resolvedConfig, plugin.config, (m) => this.warn(m)));
        bound.push(plugin);
      } catch (error) {
        this.warn(`plugin ${plugin.name} failed to bind its services: ${errorMessage(error)}; skipped`);
      }
      this.timings.push({ name: plugin.name, bindMs: performance.now() - started, applyMs: 0 });
    }
    for (const tool of this.getAll(TOKENS.Tool)) this.tools.register(tool);

    for (const plugin of bound) {
      const started = performance.now();
      try {
        await plugin.apply?.(this);
        this.plugins.push(plugin);
      } catch (error) {
        this.warn(`plugin ${plugin.name} failed in apply: ${errorMessage(error)}; its hooks may be incomplete`);
      }
      const timing = this.timings.find((t) => t.name === plugin.name);
      if (timing) timing.applyMs = performance.now() - started;
    }
    this.setUpProviders(settings);
  }

  private bindCoreServices(): void {
    this.container.bind(TOKENS.Kernel).toConstantValue(this);
    this.container.bind(TOKENS.Conversation).toConstantValue(this.conversation);
    this.container.bind(TOKENS.ToolRegistry).toConstantValue(this.tools);
    this.container.bind(TOKENS.Reporter).toConstantValue(this.reporter);
    this.container.bind(TOKENS.Config).toConstantValue(this.resolvedConfig);
    this.container.bind(TOKENS.FileReads).toConstantValue(this.fileReads);
  }

  private setUpProviders(settings: KernelSettings): void {
    const env = this.options.env ?? process.env;
    const factories = this.getAll(TOKENS.ProviderFactory);
    const { all } = resolveProviderSettings({
      entries: settings.providers,
      providersConfigured: settings.providersConfigured,
      configuredActive: settings.provider,
      env,
      flags: this.options.flags ?? {},
      factories,
      expand: createVarExpander(env, (m) => this.warn(m)),
    });
    this.providers = new ProviderRegistryImpl(factories, all);
    this.container.bind(TOKENS.ProviderRegistry).toConstantValue(this.providers);
  }

  private getAll<T>(token: ServiceIdentifier<T>): T[] {
    return this.container.isBound(token) ? this.container.getAll<T>(token) : [];
  }

  config<T>(key: string): T | undefined {
    return this.pluginConfig.get(key) as T | undefined;
  }

  injectReminder(text: string): void {
    this.reminders.push(text);
  }

  warn(message: string): void {
    this.reporter.warn(message);
  }

  async startSession(): Promise<void> {
    await this.hooks.sessionStart.promise(this.session);
  }

  async shutdown(): Promise<void> {
    await this.hooks.sessionEnd.promise(this.session);
    for (const plugin of [...this.plugins].reverse()) {
      try {
        await plugin.dispose?.();
      } catch (error) {
        this.warn(`plugin ${plugin.name} failed in dispose: ${errorMessage(error)}`);
      }
    }
  }

  /** The stable system prompt, computed once per session so it stays byte-identical (K3). */
  systemPrompt(): string {
    this.stablePrompt ??= this.hooks.buildSystemPrompt
      .call([], { ...this.session, tools: this.tools.list().map((t) => t.name) })
      .filter((part) => part.length > 0)
      .join('\n\n');
    return this.stablePrompt;
  }

  run(options: RunOptions): AsyncIterable<AgentEvent> {
    const channel = new EventChannel<AgentEvent>();
    const signal = options.signal ?? new AbortController().signal;
    void this.runExclusive(channel, options.prompt, options.mode, signal);
    return channel;
  }

  private async runExclusive(channel: EventChannel<AgentEvent>, prompt: string, mode: PermissionMode, signal: AbortSignal): Promise<void> {
    const release = await this.runLock.acquire();
    const emit = (event: AgentEvent): void => channel.push(event);
    try {
      await runAgentLoop(prompt, { ...this.session, mode }, signal, {
        hooks: this.hooks,
        registry: this.tools,
        conversation: this.conversation,
        provider: this.providers.active(),
        stablePrompt: this.systemPrompt(),
        defaultToolTimeoutMs: this.options.defaultToolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
        maxUnknownToolIterations: this.options.maxUnknownToolIterations ?? MAX_UNKNOWN_TOOL_ITERATIONS,
        takeReminders: () => this.reminders.splice(0),
        anchor: this.anchor,
        emit,
      });
    } catch (error) {
      // A kernel fault must still leave valid history and a terminal event (L5).
      const message = `Internal error: ${errorMessage(error)}`;
      emit({ type: 'error', message, kind: 'internal' });
      await this.conversation.ensureAssistantTail(`(The run stopped: ${message})`).catch(() => undefined);
      emit({ type: 'done', reason: 'error', finalText: message, usage: emptyUsage(), iterations: 0 });
    } finally {
      release();
      channel.close();
    }
  }

  async compactNow(mode: PermissionMode): Promise<boolean> {
    const release = await this.runLock.acquire();
    try {
      return await manageContext('manual', {
        hooks: this.hooks,
        messages: () => this.conversation.messages,
        anchor: this.anchor,
        context: { ...this.session, mode, provider: this.providers.active() },
        emit: () => undefined,
      });
    } finally {
      release();
    }
  }
}
