/**
 * The kernel (process-wide): the container, the plugin set and its lifecycle, the hooks, the tool
 * and provider registries, the output route, and the sessions it creates. Each session runs the
 * agent loop on its own state; the main session is the user's.
 */
import { Container, type ServiceIdentifier } from 'inversify';
import type { Command } from '../types/commands.js';
import type { AgentEvent } from '../types/events.js';
import type { KernelHooks, ModelRequestContext, NotificationPayload, PluginHooks, PostToolUseContext, ShutdownReason } from '../types/hooks.js';
import { PermissionStage, type PermissionMode, type PermissionRequest, type PermissionVerdict } from '../types/permissions.js';
import type { CliOptions, KernelApi, MewcodePlugin, ModelRequestOptions, PluginPermissionAnswer, PluginPermissionAsk, PluginToolCall, PluginToolCallResult, UserInterface } from '../types/plugin.js';
import { callToolForPlugin, type PluginCallDeps } from './plugin-tool-call.js';
import { askPermissionForPlugin } from './plugin-permission-ask.js';
import type { ToolCall, ToolResult } from '../types/messages.js';
import type { ResolvedConfig } from '../types/config.js';
import type { Reporter, ToolRegistry } from '../types/services.js';
import type { AgentSession, CompactionService, RunOptions, SessionOptions, SessionRecords } from '../types/session.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { isEmptyPolicy, type ManagedPolicy } from '../types/managed.js';
import { TOKENS } from '../types/tokens.js';
import { channel } from 'node:diagnostics_channel';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createVarExpander } from '../config/expand.js';
import { unknownKeyWarnings } from '../config/unknown-keys.js';
import { configScopeAt } from '../config/scope.js';
import { MAX_UNKNOWN_TOOL_ITERATIONS, MIN_TOOL_CONCURRENCY } from './agent-loop.js';
import { AgentSessionImpl, historyOf, type SessionHost } from './agent-session.js';
import { ensureAssistantTail } from './conversation.js';
import { emptyConfig } from './empty-config.js';
import { FileReadTrackerImpl } from './file-read-tracker.js';
import { loadExternalPlugins, type PluginSpec } from './external-plugins.js';
import { loadAddedPlugins, type AddedPlugins } from './added-plugins.js';
import { createPluginHooks, TapLedger } from './hook-facade.js';
import { recordRawHooks } from './raw-hooks.js';
import { createHooks, guardHooks, pluginOfTap } from './hooks.js';
import { frozenConfig, KERNEL_SECTION_KEYS, readKernelSettings, type KernelSettings, type PluginEntry } from './kernel-config.js';
import { parseSectionFrom, refuseUnreadManagedSections, sectionSource, type SectionAnchor, type SectionSource } from './plugin-section-sources.js';
import { BindingLedger } from './binding-ledger.js';
import { loadManaged, ModeGuard, refuseManagedFlags, requireManagedEnforcers } from './managed-enforcement.js';
import { permissionRequest } from './permission-request.js';
import { sendModelRequest } from './model-request.js';
import { plainDataCopy } from './value-snapshots.js';
import type { ModelRequest, ProviderEvent } from '../types/provider.js';
import { sealedService } from '../types/sealed-service.js';
import { resolveCommandNames, type ScopedCommand } from './command-names.js';
import { expandingCommand } from './command-expansion.js';
import { sealPluginServices } from './service-seals.js';
import { deepFreeze } from '../types/deep-freeze.js';
import { sealedFactory } from './sealed-provider.js';
import { ConfigurationError } from './configuration-error.js';
import { checkBuildPlugin } from './plugin-declaration.js';
import { pluginNameProblem } from './pinned-plugin.js';
import { verdictOwner } from './decision-provenance.js';
import { OutputRoute, reporterOutput } from './output-route.js';
import { shapeTransforms } from './decision-guards.js';
import { PermissionChain } from './permission-chain.js';
import { pluginDebugEnabled } from './plugin-debug.js';
import { PluginFailureLog } from './plugin-failure-log.js';
import { PluginLifecycle, type PluginTiming } from './plugin-lifecycle.js';
import { orderPolicyTaps, requiredPostToolUse, type TapRank } from './policy-taps.js';
import { resumedIdentityProblem, sessionIdentityProblem } from './session-identity.js';
import { PluginContext, type PluginSessions } from './plugin-context.js';
import { orderStopTaps } from './stop-order.js';
import { errorMessage } from './plugin-error.js';
import { resolvePluginSet } from './plugin-set.js';
import { managedRequirementOf, pluginLoadSpecs } from './plugin-specs.js';
import { ProviderRegistryImpl } from './provider-registry.js';
import { resolveProviderSettings } from './provider-settings.js';
import { StderrReporter } from './reporter.js';
import { newAgentId, newSessionId } from './session-id.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-runner.js';
import { ToolRegistryImpl } from './tool-registry.js';
import { KERNEL_VERSION } from './version.js';

export type { PluginTiming } from './plugin-lifecycle.js';

const REQUIRED_BY_CONFIG = 'It is required by configuration (plugins: { use, required: true })';

const requiredByManagedText = (where: string): string => `It is required by managed settings (${where})`;

const CONTAINER_TAP_REFUSAL = 'the Kernel service from the container cannot tap hooks; tap them in apply(kernel), whose hooks carry the plugin\'s name';

/** C4: resuming compacts at once when fewer tokens than this are left in the window. */
export const RESUME_HEADROOM_TOKENS = 8000;
/**
 * How long after the first request goes to the provider the warm-up starts. The request is
 * usually on the wire by then (a loaded machine may still be building it), and an answer that is
 * already arriving (a local or cached endpoint) cancels the warm-up, which would only compete. The warm-up costs ≈ 80 ms of CPU on the
 * reference machine (the shell parser's WebAssembly most of it; 240 ms on a machine 3× slower),
 * and a hosted model takes 300 ms to 2 s to its first token.
 */
export const IDLE_WARM_DELAY_MS = 50;
/**
 * Published (no message) as the warm-up starts: on a loaded machine the provider may still be
 * building its request then, so a tool measuring the start-up path cuts at the earlier of this and
 * the request. Node's diagnostics channels cost nothing while nobody subscribes.
 */
export const WARM_UP_CHANNEL = 'mewcode:warm-up';
const warmUpStarts = channel(WARM_UP_CHANNEL);

export interface KernelOptions {
  /** The build's plugin set (the CLI passes the default set). */
  plugins: readonly MewcodePlugin[];
  /**
   * Plugins a host adds to this run (`query()`'s `options.plugins`): configured plugins, not the
   * build's (added-plugins.ts), refused under `allow_managed_plugins_only`.
   */
  added?: AddedPlugins;
  config?: ResolvedConfig;
  projectRoot: string;
  homeDir: string;
  env?: NodeJS.ProcessEnv;
  flags?: { provider?: string; model?: string };
  /**
   * Where messages go while no UI is active. Given (tests, embedders), it receives them at once;
   * absent, they are buffered until a UI is activated and go to stderr if none ever is.
   */
  reporter?: Reporter;
  /** The workspace trust decision (bound under TOKENS.WorkspaceTrust, announced on `trustDecided`). */
  trust?: WorkspaceTrust;
  sessionId?: string;
  cli?: CliOptions;
  defaultToolTimeoutMs?: number;
  maxUnknownToolIterations?: number;
  /** How long one checkPermission tap may take before its silence is a deny (PERMISSION_LAYER_TIMEOUT_MS). */
  permissionLayerTimeoutMs?: number;
  /** How long a plugin's bindings and apply() may take (APPLY_TIMEOUT_MS). */
  pluginApplyTimeoutMs?: number;
  /** How long one preToolUse, userPromptSubmit, stop, postToolUse or preModelRequest tap may take (HOOK_TAP_TIMEOUT_MS); silence takes the safe side. */
  hookTimeoutMs?: number;
  /** How long one requestApproval tap may take (APPROVAL_TAP_TIMEOUT_MS); silence denies. */
  approvalTimeoutMs?: number;
  /**
   * Leave the plugins' background work (`start()`: MCP servers, probes) to `startPlugins()`. The
   * CLI defers it while the terminal UI may still ask whether to trust the project: on yes it
   * boots again with the project's settings, and the first kernel must not have started servers.
   */
  deferStart?: boolean;
  /**
   * The organisation's managed settings. Absent: read from the system file and
   * MEWCODE_MANAGED_SETTINGS of `env` (config/managed-settings.ts); a file that cannot be applied
   * is a ConfigurationError.
   */
  managed?: ManagedPolicy;
}

export class Kernel implements KernelApi {
  readonly version = KERNEL_VERSION;
  readonly container = new Container();
  readonly cli: CliOptions | undefined;
  readonly tools = new ToolRegistryImpl({ guarded: (owner) => this.guarded(owner), warn: (message) => this.warn(message) });
  readonly fileReads = new FileReadTrackerImpl();
  /** The one route for what the user is told. */
  readonly output: OutputRoute;
  /** The host's view of the hooks (tests, custom builds): tap-only, names of loaded plugins reserved. */
  readonly hooks: PluginHooks;
  providers!: ProviderRegistryImpl;

  /** The hooks themselves: a true private field, never handed out (plugins get facades). */
  readonly #raw: KernelHooks = createHooks();
  /** The project commands whose name the user's own kept, each warned about once. */
  readonly #commandWarned = new Set<string>();
  /** The registry services resolve from the container (set where TOKENS.Kernel is bound). */
  #sharedRegistry: ToolRegistry | undefined;
  /** Per plugin: the container's Kernel view naming it (containerViewFor). */
  readonly #containerViews = new Map<string, PluginContext>();
  private readonly ledger = new TapLedger();
  private idleWarmDone = false;
  private pluginsStarted = false;
  /** Set when the first answer's first event arrives: warming stops, the turn needs the CPU. */
  private firstAnswerBegan = false;
  private readonly chain: PermissionChain;
  /** Plugins' failures: each warning once, with the stack under --debug. */
  private readonly failures: PluginFailureLog;
  private readonly lifecycle: PluginLifecycle;
  private readonly resolvedConfig: ResolvedConfig;
  private readonly pluginConfig = new Map<string, unknown>();
  /** Configured plugins' sections as read for them (what TOKENS.Config's section() gives for those keys). */
  private readonly configuredSections = new Map<string, unknown>();
  /** Plugins the user's own file requires (or lists and they require themselves), with where. */
  private readonly requiredByUser = new Map<MewcodePlugin, string | undefined>();
  /** Configured plugins' import times by name (`--debug-boot`). */
  private readonly loadTimes = new Map<string, number>();
  private readonly essential = new Set<string>();
  /** Safety layers of the build (a configured plugin's own claim does not count). */
  private readonly safety = new Set<string>();
  /** The loaded plugins that are the build's own (not configured, not a configured replacement). */
  private readonly fromBuild = new Set<string>();
  /** Plugins configuration marks `required: true`. */
  private readonly requiredByConfig = new Set<MewcodePlugin>();
  /** Plugins the managed settings require, with the managed file that names each. */
  private readonly requiredByManaged = new Map<MewcodePlugin, string>();
  private managedPolicy!: ManagedPolicy;
  // A settings file's disableBypassPermissionsMode is read through the permission rules' service (when bound).
  private readonly modeGuard = new ModeGuard(
    () => this.managedPolicy,
    (message) => this.warn(message),
    () => (this.container.isBound(TOKENS.PermissionSettings) ? this.container.get(TOKENS.PermissionSettings).bypassDisabledBy?.() : undefined),
  );
  private readonly bindings: BindingLedger;
  private startTimeoutMs: number | undefined;
  private readonly pluginNames = new Set<string>();
  /** Configured plugins the run cannot go without (required on the plugin, by configuration or by managed settings). */
  private readonly requiredNames = new Set<string>();
  /** Of those, the ones managed settings require: the organisation's, whose taps come last of all. */
  private readonly managedNames = new Set<string>();
  /** The build's own plugins that declare `required: true` (a custom build's policy). */
  private readonly requiredInBuild = new Set<string>();
  /** `max_turns` from configuration (read at boot, before any session exists). */
  private maxTurns: number | undefined;
  /** `max_tool_concurrency` from configuration; default: the machine's cores, at least MIN_TOOL_CONCURRENCY. */
  private maxToolConcurrency: number | undefined;
  private mainSession!: AgentSessionImpl;
  private activeUi: UserInterface | undefined;

  private constructor(private readonly options: KernelOptions) {
    recordRawHooks(this, this.#raw);
    this.output = new OutputRoute(this.#raw, () => reporterOutput(new StderrReporter()));
    if (options.reporter) this.output.attach(reporterOutput(options.reporter));
    this.resolvedConfig = frozenConfig(options.config ?? emptyConfig, this.configuredSections);
    this.cli = options.cli;
    this.chain = new PermissionChain({
      isEssential: (plugin) => this.essential.has(plugin),
      // A required plugin's layer is consulted before another's allow or ask stands (permission-chain.ts).
      rankOf: (plugin) => (this.isRequired(plugin) ? 'required' : this.fromBuild.has(plugin) || !this.pluginNames.has(plugin) ? 'build' : 'configured'),
      warn: (message) => this.warn(message),
      // Read when a call is judged: the policy is loaded at start, the managed plugins once applied.
      managedRulesOnly: () => this.managedPolicy?.permissions.managedRulesOnly?.where,
      isManaged: (plugin) => this.managedNames.has(plugin),
      ...(options.permissionLayerTimeoutMs !== undefined ? { timeoutMs: options.permissionLayerTimeoutMs } : {}),
      ...(options.hookTimeoutMs !== undefined ? { hookTimeoutMs: options.hookTimeoutMs } : {}),
      ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    });
    this.failures = new PluginFailureLog((message, shared) => this.warnShared(message, shared), pluginDebugEnabled(options.env ?? process.env, options.cli?.debug));
    guardHooks(this.#raw, (error) => this.failures.report(error.message, error, error.sharedMessage), {
      ...shapeTransforms((message, shared) => this.failures.report(message, undefined, shared), { isRequired: (plugin) => this.isRequired(plugin) }),
      checkPermission: this.chain.transform,
    }, (plugin) => this.isRequired(plugin));
    // Before any plugin taps: no decision tap waits forever, and each checkPermission call counts
    // the required plugins' layers it must still ask (permission-chain.ts).
    this.chain.prepare(this.#raw);
    // Also before any plugin taps: on the policy waterfalls (POLICY_HOOKS: the calls, outputs, requests and prompts) a required
    // plugin's taps run after every other configured plugin's (policy-taps.ts); the host's and the
    // build's stay put.
    const tapRank = (name: string): TapRank => (this.fromBuild.has(name) || !this.pluginNames.has(name) ? 'build' : this.managedNames.has(name) ? 'managed' : this.requiredNames.has(name) ? 'required' : 'configured');
    orderPolicyTaps(this.#raw, tapRank);
    // And on `stop`, a bail hook, every required plugin's tap is called first (stop-order.ts).
    orderStopTaps(this.#raw, tapRank);
    this.hooks = createPluginHooks(this.#raw, { plugin: undefined, isReserved: (name) => this.pluginNames.has(name) }, this.ledger);
    this.bindings = new BindingLedger(
      (plugin) => this.guarded(plugin),
      (message) => this.warn(message),
      // A plugin's services get a Kernel view naming it (its own calls carry its name as madeBy).
      ({ plugin }) => this.containerViewFor(plugin.name),
    );
    this.lifecycle = new PluginLifecycle({
      container: this.container,
      registry: this.tools,
      ledger: this.ledger,
      bindings: this.bindings,
      warn: (message) => this.warn(message),
      withStack: (message, error) => this.failures.withStack(message, error),
      contextFor: (plugin, signal) =>
        new PluginContext(
          this,
          createPluginHooks(this.#raw, { plugin: plugin.name }, this.ledger),
          this.tools.forOwner({ owner: plugin.name, ...(plugin.replaces ? { replaces: plugin.replaces } : {}), ...(this.options.plugins.includes(plugin) ? {} : { configured: true }) }),
          this.options.plugins.includes(plugin) ? this.buildSessions : this.pluginSessions,
          plugin.name,
          signal,
        ),
      criticality: (plugin) => this.criticality(plugin),
      fromBuild: (plugin) => this.options.plugins.includes(plugin),
      startTimeoutMs: () => this.startTimeoutMs,
      ...(this.options.pluginApplyTimeoutMs !== undefined ? { applyTimeoutMs: this.options.pluginApplyTimeoutMs } : {}),
    });
  }

  static async create(options: KernelOptions): Promise<Kernel> {
    const kernel = new Kernel(options);
    try {
      await kernel.boot();
    } catch (error) {
      kernel.output.flushToFallback(); // the warnings that led here must not be lost
      throw error;
    }
    return kernel;
  }

  private async boot(): Promise<void> {
    for (const warning of this.resolvedConfig.warnings) this.warn(warning);
    for (const plugin of this.options.plugins) {
      try {
        checkBuildPlugin(plugin, pluginNameProblem, (message) => this.warn(message));
      } catch (error) {
        throw new ConfigurationError(`${(error as Error).message}. MewCode will not run a build whose own plugin is declared wrongly.`);
      }
    }
    this.managedPolicy = await loadManaged(this.options.managed, this.options.env ?? process.env);
    refuseManagedFlags(this.managedPolicy, this.options.cli);
    const settings = await readKernelSettings(this.resolvedConfig, (m) => this.warn(m));
    this.maxTurns = settings.maxTurns;
    this.maxToolConcurrency = settings.maxToolConcurrency;
    this.startTimeoutMs = settings.pluginStartTimeoutMs;
    const specs = this.pluginSpecs(settings.plugins);
    const external = await loadExternalPlugins(
      specs,
      (spec, message, critical, error) => {
        // Under --debug each carries the stack of what was thrown (its author's file and line).
        const stacked = (text: string): string => this.failures.withStack(text, error);
        if (spec.required) throw new ConfigurationError(stacked(`${message}. ${this.requiredBecause(spec)}, so MewCode will not run without it.`));
        // Its own declaration reads as required (plugin-declaration.ts): the safe reading stops the run.
        if (critical === true) throw new ConfigurationError(stacked(`${message}. MewCode will not run while a plugin may be required and cannot load.`));
        this.warn(stacked(`${message}; skipped`));
      },
      (message) => this.warn(message),
    );
    // After the configured ones: ranked, demoted and refused as they are (never the build's).
    external.push(...(await loadAddedPlugins(this.options.added, { policy: this.managedPolicy, projectRoot: this.options.projectRoot, trust: this.options.trust, warn: (message) => this.warn(message) })));
    const sources = new Map(external.map(({ plugin, spec }) => [plugin, spec.spec]));
    for (const { plugin, loadMs } of external) this.loadTimes.set(plugin.name, loadMs);
    const userDir = path.join(this.options.homeDir, '.mewcode');
    for (const { plugin, spec } of external) {
      const managedBy = spec.required ? this.managedRequirement(spec) : undefined;
      if (managedBy !== undefined) this.requiredByManaged.set(plugin, managedBy);
      else if (spec.required) this.requiredByConfig.add(plugin);
      // A user-level entry resolves from ~/.mewcode first (plugin-specs.ts): its section is the user's alone.
      if (managedBy === undefined && (spec.required || plugin.required) && spec.from[0] === userDir) this.requiredByUser.set(plugin, spec.requiredAt);
    }
    const byProject = new Set(settings.disable.filter((_, index) => configScopeAt(this.resolvedConfig, ['disable', index]) !== 'user'));
    const plugins = resolvePluginSet(
      this.options.plugins,
      external.map(({ plugin }) => plugin),
      settings.disable,
      (m) => this.warn(m),
      byProject,
      {
        sourceOf: (plugin) => sources.get(plugin),
        isRequired: (plugin) => this.requiredByConfig.has(plugin) || this.requiredByManaged.has(plugin),
        mustRun: (plugin) => this.criticality(plugin),
        managedPlugins: new Set(this.requiredByManaged.keys()),
        ...(isEmptyPolicy(this.managedPolicy) ? {} : { safetyLockedBy: this.managedPolicy.files.join(', ') }),
        refuse: (plugin, message) => {
          const required = this.criticality(plugin);
          if (required !== undefined && (this.requiredByConfig.has(plugin) || this.requiredByManaged.has(plugin))) throw new ConfigurationError(`${message}. ${required}, so MewCode will not run without it.`);
          this.warn(message);
        },
      },
    );
    for (const plugin of plugins) {
      this.pluginNames.add(plugin.name);
      const fromBuild = this.options.plugins.includes(plugin);
      if (fromBuild) {
        this.fromBuild.add(plugin.name);
        if (plugin.required) this.requiredInBuild.add(plugin.name);
      } else if (plugin.required || this.requiredByConfig.has(plugin) || this.requiredByManaged.has(plugin)) this.requiredNames.add(plugin.name);
      if (!fromBuild && this.requiredByManaged.has(plugin)) this.managedNames.add(plugin.name);
      if (plugin.safety && fromBuild) this.safety.add(plugin.name);
      if (!plugin.essential) continue;
      // Only the build makes a plugin essential: a plugin named in configuration that claims it
      // would get the blacklist's and sandbox's say in the permission chain (an allow before them).
      if (fromBuild) this.essential.add(plugin.name);
      else this.warn(`plugin ${plugin.name} declares itself essential, which only a custom build can make a plugin; it runs as an ordinary plugin`);
    }
    this.bindCoreServices();
    await this.lifecycle.bindAll(plugins);
    // Every other plugin's service, sealed for all who resolve it (service-seals.ts); once every
    // module has loaded, since an unbind (a replacement, a failed plugin's module) drops the handler.
    sealPluginServices(this.container, (message) => this.warn(message));
    // Frozen: every plugin reads every section through kernel.config(), and one plugin must not
    // change another's validated settings (an organisation's DLP patterns) for the rest of the run.
    this.readPluginSections(plugins);
    this.reportUnknownKeys(plugins);
    this.lifecycle.registerTools();
    await this.lifecycle.registerCommands();
    this.setUpProviders(settings);
    this.mainSession = this.newSession({ sessionId: this.options.sessionId ?? this.freshSessionId(), agentId: 'main' });
    await this.lifecycle.applyAll();
    this.refuseUnreachableLayers();
    requireManagedEnforcers(this.managedPolicy, { pluginNames: new Set(this.lifecycle.plugins().map((plugin) => plugin.name)), hasCommandSandbox: this.container.isBound(TOKENS.CommandSandbox) });
    this.tools.seal();
    this.mainSession.syncTools();
    if (!this.options.deferStart) this.startPlugins();
    await this.announceTrust();
  }

  /**
   * Each plugin's configuration section, validated by its parser. One parser per key: the build's
   * plugin's, else the organisation's (managed settings), else another required plugin's, else the
   * first configured one's; a later plugin declaring the same key is refused, named, and reads the
   * owner's value. Otherwise any configured plugin could parse `org-dlp:` its own way and hand the
   * organisation's DLP an empty pattern list.
   */
  private readPluginSections(plugins: readonly MewcodePlugin[]): void {
    const rank = (plugin: MewcodePlugin): number =>
      this.options.plugins.includes(plugin) ? 0 : this.managedNames.has(plugin.name) ? 1 : this.requiredNames.has(plugin.name) ? 2 : 3;
    const owners = new Map<string, string>();
    for (const plugin of [...plugins].sort((a, b) => rank(a) - rank(b))) {
      if (!plugin.config) continue;
      const { key } = plugin.config;
      const owner = owners.get(key);
      if (owner !== undefined) {
        this.warn(`plugin ${plugin.name} declares the configuration section "${key}", which plugin ${owner} reads; its parser is not used (it reads ${owner}'s value)`);
        continue;
      }
      owners.set(key, plugin.name);
      const source = this.sectionSourceOf(plugin, key);
      this.pluginConfig.set(key, deepFreeze(parseSectionFrom(source, plugin.config, this.resolvedConfig, (m) => this.warn(m))));
      if (!this.readByBuild(key)) this.configuredSections.set(key, source.value);
    }
    // Sections a configured plugin reads raw (`configKeys`) come from the same places.
    for (const plugin of plugins) {
      for (const key of plugin.configKeys ?? []) {
        if (owners.has(key) || this.readByBuild(key)) continue;
        owners.set(key, plugin.name);
        this.configuredSections.set(key, this.sectionSourceOf(plugin, key).value);
      }
    }
    const managedFileOf = (name: string | undefined): string | undefined => {
      const plugin = [...this.requiredByManaged.keys()].find((candidate) => candidate.name === name);
      const where = plugin && this.requiredByManaged.get(plugin);
      return this.managedPolicy.plugins.find((entry) => entry.where === where)?.file;
    };
    refuseUnreadManagedSections(this.managedPolicy, (section) => managedFileOf(owners.get(section.key)) === section.file);
  }

  /** Where a plugin's section `key` is read from: the build's, the managed file's, the user's, or the configuration's. */
  private sectionSourceOf(plugin: MewcodePlugin, key: string): SectionSource {
    const where = this.requiredByManaged.get(plugin);
    const managedFile = where === undefined ? undefined : this.managedPolicy.plugins.find((entry) => entry.where === where)?.file;
    const anchor: SectionAnchor = this.options.plugins.includes(plugin)
      ? { kind: 'build' }
      : managedFile !== undefined
        ? { kind: 'managed', file: managedFile }
        : this.requiredByUser.has(plugin)
          ? { kind: 'user', requiredAt: this.requiredByUser.get(plugin) }
          : { kind: 'configured' };
    return sectionSource(plugin.name, key, anchor, { config: this.options.config ?? emptyConfig, policy: this.managedPolicy, trust: this.options.trust, warn: (m) => this.warn(m) });
  }

  /** A key the kernel or a plugin of the build reads: what the build reads stays the merged configuration's. */
  private readByBuild(key: string): boolean {
    return (KERNEL_SECTION_KEYS as readonly string[]).includes(key) || this.options.plugins.some((plugin) => plugin.config?.key === key || plugin.configKeys?.includes(key));
  }

  /** Each top-level key of a config file that neither the kernel nor a plugin of this run reads, once. */
  private reportUnknownKeys(plugins: readonly MewcodePlugin[]): void {
    const keys = this.resolvedConfig.fileKeys;
    if (keys === undefined || keys.length === 0) return;
    const known = new Set<string>(KERNEL_SECTION_KEYS);
    // The build's plugins count even when `disable:` leaves one out: its section is not a typo.
    for (const plugin of [...this.options.plugins, ...plugins]) {
      if (plugin.config) known.add(plugin.config.key);
      for (const key of plugin.configKeys ?? []) known.add(key);
    }
    for (const message of unknownKeyWarnings('config:', keys, known)) this.warn(message);
  }

  /** Start the plugins' background work, once (boot does it unless `deferStart`). */
  startPlugins(): void {
    if (this.pluginsStarted) return;
    this.pluginsStarted = true;
    this.lifecycle.startAll();
  }

  /**
   * Resolves when every plugin's start() finished or used up its bound (what the first request
   * waits for); rejects with a ConfigurationError when a required, essential or safety plugin's
   * start() failed or did not finish in time.
   */
  pluginsReady(): Promise<void> {
    return this.lifecycle.ready();
  }

  /** The same, for the required, essential and safety plugins only (immediate when none has a start()). */
  criticalPluginsReady(): Promise<void> {
    return this.lifecycle.criticalReady();
  }

  /**
   * The managed plugins and the configured ones, none of these under `allow_managed_plugins_only`
   * (plugin-specs.ts): the list the command line's lookup of subcommands, `--help` and `doctor`
   * load from too, so no path imports what the organisation keeps out.
   */
  private pluginSpecs(entries: readonly PluginEntry[]): PluginSpec[] {
    return pluginLoadSpecs(entries, {
      policy: this.managedPolicy,
      config: this.resolvedConfig,
      projectRoot: this.options.projectRoot,
      homeDir: this.options.homeDir,
      trust: this.options.trust,
      refused: (message, required) => {
        if (required) throw new ConfigurationError(`${message}. Your configuration requires it, so MewCode will not run without it.`);
        this.warn(message);
      },
    });
  }

  /** The managed file that requires this plugin entry, or undefined. */
  private managedRequirement(spec: PluginSpec): string | undefined {
    return managedRequirementOf(this.managedPolicy, spec);
  }

  private requiredBecause(spec: PluginSpec): string {
    const managedBy = this.managedRequirement(spec);
    if (managedBy !== undefined) return requiredByManagedText(managedBy);
    return spec.requiredAt === undefined ? REQUIRED_BY_CONFIG : `${REQUIRED_BY_CONFIG} at ${spec.requiredAt}`;
  }

  /** The managed settings in force (empty when no managed file exists). */
  get managed(): ManagedPolicy {
    return this.managedPolicy;
  }

  /**
   * The mode a run may use. bypassPermissions chosen anywhere (settings' default_mode, a UI's
   * mode switch, a plugin's run) while managed settings disable it runs as default, said once.
   */
  permittedMode(mode: PermissionMode): PermissionMode {
    return this.modeGuard.permitted(mode);
  }

  /**
   * A permission layer tapped after the build's mode layer (a safety plugin at PermissionStage.Mode
   * or later, which answers every call) is never consulted. Said at boot; a plugin the run cannot
   * go without (required by an organisation, or by configuration) stops it, since its policy would
   * silently not apply.
   */
  private refuseUnreachableLayers(): void {
    const taps = (this.#raw.checkPermission as unknown as { taps: { name: string; stage?: number }[] }).taps;
    const last = (plugin: string): boolean => this.safety.has(plugin) || this.essential.has(plugin);
    const modeAt = taps.findIndex((tap) => (tap.stage ?? 0) >= PermissionStage.Mode && last(pluginOfTap(tap.name)));
    if (modeAt < 0) return;
    const mode = taps[modeAt]!;
    for (const tap of taps.slice(modeAt + 1)) {
      const name = pluginOfTap(tap.name);
      if (name === pluginOfTap(mode.name)) continue;
      const message = `plugin ${name} taps checkPermission at stage ${tap.stage ?? 0}, after ${pluginOfTap(mode.name)} (stage ${mode.stage ?? 0}), which answers every call: its verdicts are never consulted. A permission layer taps before PermissionStage.Mode (${PermissionStage.Mode})`;
      const plugin = this.lifecycle.plugins().find((candidate) => candidate.name === name);
      const critical = plugin && (this.requiredByManaged.has(plugin) || this.requiredByConfig.has(plugin) || plugin.required) ? this.criticality(plugin) : undefined;
      if (critical !== undefined) throw new ConfigurationError(`${message}. ${critical}, so MewCode will not run with its policy left out.`);
      this.warn(message);
    }
  }

  /**
   * Why a configured plugin may not take this plugin's tools or single-binding services (it is
   * essential, a safety layer, or required), or undefined: the same plugins configuration cannot
   * replace by name (plugin-set.ts).
   */
  private guarded(name: string): string | undefined {
    const plugin = this.lifecycle.loadedPlugin(name);
    const why = plugin && this.criticality(plugin);
    return why && why[0]!.toLowerCase() + why.slice(1);
  }

  /**
   * Whether a loaded plugin is required (on the plugin, by configuration or by managed settings,
   * or a build's own plugin declaring it): its checkPermission layer is consulted before another's
   * allow or ask stands, and its preToolUse rewrite is not undone (decision-guards.ts).
   */
  private isRequired(name: string): boolean {
    return this.requiredNames.has(name) || this.requiredInBuild.has(name);
  }

  /** Why the run cannot go on without this plugin, or undefined when it can. */
  private criticality(plugin: MewcodePlugin): string | undefined {
    const managedBy = this.requiredByManaged.get(plugin);
    if (managedBy !== undefined) return requiredByManagedText(managedBy);
    if (plugin.required) return 'It is required (organisation policy)';
    if (this.requiredByConfig.has(plugin)) return REQUIRED_BY_CONFIG;
    if (this.essential.has(plugin.name)) return 'It is essential';
    if (this.safety.has(plugin.name)) return 'It is a safety layer';
    return undefined;
  }

  private bindCoreServices(): void {
    this.bindings.claimForKernel(TOKENS.Kernel, TOKENS.ToolRegistry, TOKENS.Reporter, TOKENS.Config, TOKENS.FileReads, TOKENS.Conversation, TOKENS.ProviderRegistry);
    // Without a trust decision from the host, a plugin of the build may supply it (doctor, tests).
    if (this.options.trust) this.bindings.claimForKernel(TOKENS.WorkspaceTrust);
    this.bindings.claimForKernel(TOKENS.ManagedPolicy);
    this.container.bind(TOKENS.ManagedPolicy).toConstantValue(this.managedPolicy);
    // A view, not the kernel itself: services resolved from the container (by any plugin) get the
    // kernel's API with hooks that refuse every tap; taps are made in `apply` through the
    // plugin's own facade, so they carry its name.
    // Services resolve the registry from the container with no plugin's name: they may not take or
    // remove a plugin's tool, and any plugin can resolve it, so what it registers counts as a
    // configured plugin's (never a system tool, never the build's origin). The container's Kernel
    // view has the same.
    const sharedRegistry = this.tools.forOwner({ owner: 'a service from the container', configured: true });
    this.#sharedRegistry = sharedRegistry;
    this.container.bind(TOKENS.Kernel).toConstantValue(new PluginContext(this, createPluginHooks(this.#raw, { plugin: undefined, refuse: CONTAINER_TAP_REFUSAL }, this.ledger), sharedRegistry, this.pluginSessions));
    this.container.bind(TOKENS.ToolRegistry).toConstantValue(sharedRegistry);
    // What a plugin may do with the route: tell the user. Not attach an output or answer approvals.
    const output = this.output;
    this.container.bind(TOKENS.Reporter).toConstantValue(Object.freeze({ warn: (m: string) => output.warn(m), notice: (m: string) => output.notice(m), debug: (m: string) => output.debug(m) }));
    this.container.bind(TOKENS.Config).toConstantValue(this.resolvedConfig);
    // Sealed, like every service that guards a run (types/sealed-service.ts): a plugin that resolves
    // one cannot fake "read before write" or the project's trust for the rest.
    this.container.bind(TOKENS.FileReads).toConstantValue(sealedService(this.fileReads));
    this.container.bind(TOKENS.Conversation).toDynamicValue(() => this.mainSession.conversation);
    // A factory from the container makes only facades whose stream a plugin cannot call
    // (sealed-provider.ts); the kernel's registry takes its providers from the same factories.
    this.container.onActivation(TOKENS.ProviderFactory, (_context, factory) => sealedFactory(factory));
    if (this.options.trust) this.container.bind(TOKENS.WorkspaceTrust).toConstantValue(sealedService(this.options.trust));
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
    this.providers = new ProviderRegistryImpl(factories, all, env);
    // A frozen view: a plugin may switch the active provider (the /model command) but not replace
    // how the kernel resolves one, nor read a key; what it hands out cannot stream (sealed-provider.ts).
    this.container.bind(TOKENS.ProviderRegistry).toConstantValue(this.providers.pluginView());
  }

  private async announceTrust(): Promise<void> {
    const trust = this.options.trust;
    if (!trust) return;
    await this.#raw.trustDecided.promise({ projectRoot: this.options.projectRoot, trusted: trust.isTrusted(), source: trust.source, skipped: trust.skipped() });
  }

  private getAll<T>(token: ServiceIdentifier<T>): T[] {
    return this.container.isBound(token) ? this.container.getAll(token) : [];
  }

  /** The last binding wins, so a plugin can wrap or replace the kernel's default. */
  private lastBound<T>(token: ServiceIdentifier<T>): T | undefined {
    return this.getAll(token).at(-1);
  }

  /** Every session this kernel made, by its identity: what a plugin's call may act as. */
  private readonly sessionIds = new Map<string, WeakRef<AgentSessionImpl>>();

  /** Whether `who` names a session this kernel made (a plugin may not act as one it invented). */
  private isLiveIdentity(who: { sessionId: string; agentId?: string }): boolean {
    return this.sessionIds.get(identityKey({ sessionId: who.sessionId, agentId: who.agentId ?? 'main' }))?.deref() !== undefined;
  }

  private newSession(options: SessionOptions & { sessionId: string; agentId: string }, announceHistory = false): AgentSessionImpl {
    const host: SessionHost = {
      hooks: this.#raw,
      registry: this.tools,
      chain: this.chain,
      output: this.output,
      projectRoot: this.options.projectRoot,
      homeDir: this.options.homeDir,
      defaultToolTimeoutMs: this.options.defaultToolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      defaultMaxUnknownToolIterations: this.options.maxUnknownToolIterations ?? MAX_UNKNOWN_TOOL_ITERATIONS,
      configuredMaxTurns: this.maxTurns,
      maxToolConcurrency: this.maxToolConcurrency ?? Math.max(MIN_TOOL_CONCURRENCY, availableParallelism()),
      provider: (choice) => this.providers.resolve(choice),
      compactionService: () => this.lastBound<CompactionService>(TOKENS.CompactionService),
      ready: () => this.lifecycle.ready(),
      awaitingModel: () => this.warmWhileWaiting(),
      createSession: (next) => this.makeSession(next, false),
      permittedMode: (mode) => this.permittedMode(mode),
      toolProgressShown: () => this.toolProgressShown(),
    };
    const session = new AgentSessionImpl(host, options, announceHistory);
    this.sessionIds.set(identityKey(session), new WeakRef(session));
    return session;
  }

  /**
   * A tool's live progress text is raw output (bash's last lines, an MCP server's message) that
   * postToolUse never sees. A configured plugin tapping postToolUse may be the organisation's
   * redaction: while one does, progress events carry no text (the result, after postToolUse, is
   * what the user sees). The build's own taps only record or append.
   */
  private toolProgressShown(): boolean {
    return this.#raw.postToolUse.taps.every((tap) => this.fromBuild.has(pluginOfTap(tap.name)));
  }

  /**
   * Once per kernel, while its first request waits for the model, what the first tool turn would
   * otherwise load between the answer and the next request: each tool's `warm()` (lazily imported
   * implementations) and, alongside, each plugin's (the sandbox probe, the shell parser, the audit
   * writer). No step starts once the answer has begun: what is
   * left is done where it is needed, as before. Returns what the loop calls at the answer's first
   * event.
   */
  private warmWhileWaiting(): () => void {
    if (this.idleWarmDone) return () => undefined;
    this.idleWarmDone = true;
    const waiting = (): boolean => !this.firstAnswerBegan;
    setTimeout(() => {
      if (!waiting()) return;
      if (warmUpStarts.hasSubscribers) warmUpStarts.publish(undefined);
      // Two sequences side by side: the tools' modules (short steps each, which an answer that
      // begins stops between) and the plugins' warms, whose longest steps wait on other processes
      // (the sandbox probe, the shell parser's own process), so they start at once.
      void (async () => {
        for (const tool of this.tools.list()) {
          if (!waiting()) return;
          await tool.warm?.().catch(() => undefined); // reported at first use
        }
      })();
      void this.lifecycle.warmAll(waiting);
    }, IDLE_WARM_DELAY_MS).unref();
    return () => {
      this.firstAnswerBegan = true;
    };
  }

  /** Plugins that loaded and applied, in order. */
  get plugins(): MewcodePlugin[] {
    return this.lifecycle.plugins();
  }

  get timings(): PluginTiming[] {
    return this.lifecycle.timings.map((timing) => {
      const loadMs = this.loadTimes.get(timing.name);
      return loadMs === undefined ? timing : { ...timing, loadMs };
    });
  }

  get projectRoot(): string {
    return this.options.projectRoot;
  }

  get homeDir(): string {
    return this.options.homeDir;
  }

  get session(): AgentSessionImpl {
    return this.mainSession;
  }

  get conversation(): AgentSession['conversation'] {
    return this.mainSession.conversation;
  }

  get reporter(): Reporter {
    return this.output;
  }

  createSession(options: SessionOptions = {}): AgentSession {
    return this.makeSession(options, false);
  }

  /**
   * `announce`: the history was given by a plugin, so it is told on messageAppended before the
   * session's first run (an audit and the session file see what the model will be sent).
   */
  private makeSession(options: SessionOptions, announce: boolean): AgentSessionImpl {
    const problem = sessionIdentityProblem(options);
    if (problem !== undefined) throw new Error(`createSession: ${problem}`);
    return this.newSession(
      {
        ...options,
        sessionId: options.sessionId ?? (options.parent ? options.parent.sessionId : this.freshSessionId()),
        agentId: options.agentId ?? newAgentId(),
      },
      announce && (options.history?.length ?? 0) > 0,
    );
  }

  /** A new session's id, reserved where sessions are saved (TOKENS.SessionIds) so no other session shares it. */
  private freshSessionId(): string {
    const ids = this.container.isBound(TOKENS.SessionIds) ? this.container.get(TOKENS.SessionIds) : undefined;
    return newSessionId(new Date(), ids ? (id) => !ids.reserve(id) : undefined);
  }

  /** How a plugin's KernelApi makes and resumes sessions (PluginContext): never as the main one, its history told. */
  private readonly pluginSessions: PluginSessions = this.sessionsFor(false);

  /**
   * What TOKENS.Kernel resolves to in `plugin`'s own services: the container's view (no taps, the
   * shared registry, a configured plugin's sessions) but naming the plugin, so a call it makes
   * through it is judged and audited as that plugin's (madeBy), never as an anonymous service's.
   */
  private containerViewFor(plugin: string): KernelApi {
    let view = this.#containerViews.get(plugin);
    if (view === undefined) {
      const registry = this.#sharedRegistry ?? this.tools.forOwner({ owner: 'a service from the container', configured: true });
      view = new PluginContext(this, createPluginHooks(this.#raw, { plugin: undefined, refuse: CONTAINER_TAP_REFUSAL }, this.ledger), registry, this.pluginSessions, plugin);
      this.#containerViews.set(plugin, view);
    }
    return view;
  }
  private readonly buildSessions: PluginSessions = this.sessionsFor(true);

  private sessionsFor(fromBuild: boolean): PluginSessions {
    return Object.freeze({
      fromBuild,
      create: (options: SessionOptions) => this.makeSession(options, true),
      resume: (records: SessionRecords, options: Omit<SessionOptions, 'history' | 'sessionId'> = {}) => {
        const problem = resumedIdentityProblem(records, options);
        if (problem !== undefined) return Promise.reject(new Error(`resumeSession: ${problem}`));
        return this.resume(records, options, true);
      },
    });
  }

  resumeSession(records: SessionRecords, options: Omit<SessionOptions, 'history' | 'sessionId'> = {}): Promise<AgentSession> {
    return this.resume(records, options, false);
  }

  private async resume(records: SessionRecords, options: Omit<SessionOptions, 'history' | 'sessionId'>, announce: boolean): Promise<AgentSession> {
    const session = this.newSession({ ...options, history: records.messages, sessionId: records.sessionId, agentId: records.agentId ?? options.agentId ?? 'main' }, announce);
    await ensureAssistantTail(historyOf(session), '(The previous session ended here.)');
    if (session.agentId === 'main') this.mainSession = session;
    await this.#raw.sessionResume.promise(session.context());
    // A history that nearly fills the window would fail its first request (C4). A failed
    // compaction is said, and the session is resumed as it is (the first request may compact again).
    try {
      await session.compactIfNearlyFull(RESUME_HEADROOM_TOKENS);
    } catch (error) {
      this.warn(`The resumed session nearly fills the context window and could not be compacted: ${errorMessage(error)}`);
    }
    return session;
  }

  /**
   * Every command: the bound ones (sealed at binding) and the providers' (skills, command files),
   * sealed here, so one plugin holding a command cannot change what it does for the user or another plugin.
   */
  commands(): readonly Command[] {
    const provided = this.getAll(TOKENS.CommandProvider).flatMap((provider) =>
      provider.commands().map((command): ScopedCommand => ({ command: Object.isFrozen(command) ? command : sealedService(command), scope: command.scope ?? 'user' })),
    );
    const bound = this.getAll(TOKENS.Command).map((command): ScopedCommand => ({ command, scope: 'builtin' }));
    const trusted = this.options.trust?.isTrusted() ?? false;
    const entries = [...bound, ...provided];
    const resolved = resolveCommandNames(entries, trusted, (command, message) => {
      const key = `${command.source ?? ''}\u0000${command.name}`;
      if (this.#commandWarned.has(key)) return;
      this.#commandWarned.add(key);
      this.warn(message);
    });
    // What a command expands to passes userPromptExpansion (command-expansion.ts).
    const scopeOf = new Map(entries.map((entry) => [entry.command, entry.scope]));
    return Object.freeze(resolved.map((command) => expandingCommand(command, scopeOf.get(command) ?? 'user', this.#raw)));
  }

  /** The UI that now receives every notice and approval request (buffered ones first). */
  activateUi(ui: UserInterface): void {
    this.activeUi = ui;
    this.output.attach(ui.output);
  }

  get ui(): UserInterface | undefined {
    return this.activeUi;
  }

  config<T>(key: string): T | undefined {
    return this.pluginConfig.get(key) as T | undefined;
  }

  notify(kind: NotificationPayload['kind'], message: string, session?: Pick<AgentSession, 'sessionId' | 'agentId'>): void {
    const who = session ?? this.mainSession;
    this.output.notify({ kind, message, ...(who ? { sessionId: who.sessionId, agentId: who.agentId } : {}) });
  }

  warn(message: string): void {
    this.notify('warning', message);
  }

  /** A warning told in full to the user; notification hooks are sent `shared` (output-route.ts). */
  private warnShared(message: string, shared: string | undefined): void {
    if (shared === undefined) return this.warn(message);
    const who = this.mainSession;
    this.output.notify({ kind: 'warning', message: shared, ...(who ? { sessionId: who.sessionId, agentId: who.agentId } : {}) }, message);
  }

  injectReminder(text: string): void {
    this.mainSession.injectReminder(text);
  }

  /** Every model request outside the agent loop's turns goes through here (kernel/model-request.ts). */
  sendModelRequest(request: ModelRequest, options: ModelRequestOptions): AsyncIterable<ProviderEvent> {
    // Told as what it is (a compaction summary, a sampling request), never as a turn of a session,
    // and as a session this kernel made: an audit tells these from the model's own turns.
    if (!OUT_OF_TURN_REASONS.has(options.reason)) throw new TypeError(`The model request was not sent: its reason must be one of ${[...OUT_OF_TURN_REASONS].join(', ')}`);
    if (options.session && !this.isLiveIdentity(options.session)) throw new TypeError('The model request was not sent: its session is not one this kernel made');
    const main = this.mainSession;
    const who = options.session ?? { sessionId: main.sessionId, agentId: main.agentId, projectRoot: this.options.projectRoot, homeDir: this.options.homeDir, mode: this.options.cli?.permissionMode ?? 'default' };
    const context: ModelRequestContext = { ...who, mode: this.permittedMode(who.mode), iteration: 0, provider: options.provider ?? main.currentProvider(), reason: options.reason };
    // The request comes from a plugin: the taps are handed a copy the kernel owns, so no getter
    // in it shows a DLP tap one text and the provider another (value-snapshots.ts).
    const own = plainDataCopy(request) as ModelRequest | undefined;
    if (own === undefined) throw new TypeError('The model request was not sent: it is not plain data (a Proxy, a function, a class instance or a getter that throws in it)');
    return sendModelRequest(this.#raw, own, context, options.signal);
  }

  async startSession(): Promise<void> {
    await this.#raw.sessionStart.promise(this.mainSession.context());
  }

  /** `reason`: why the main session ends (the UI says when the user left it; `other` otherwise). */
  async shutdown(reason: ShutdownReason = 'other'): Promise<void> {
    await this.#raw.sessionEnd.promise({ ...this.mainSession.context(), reason });
    await this.lifecycle.disposeAll();
    this.output.flushToFallback();
  }

  /** The main session's stable system prompt (K3). */
  systemPrompt(): string {
    return this.mainSession.systemPrompt();
  }

  run(options: RunOptions): AsyncIterable<AgentEvent> {
    return this.mainSession.run(options);
  }

  compactNow(mode: PermissionMode): Promise<boolean> {
    return this.mainSession.compact(mode);
  }

  /** The required plugins' postToolUse taps alone (policy-taps.ts). */
  requiredPostToolUse(result: ToolResult, context: PostToolUseContext): Promise<ToolResult> {
    return requiredPostToolUse(this.#raw, (plugin) => this.isRequired(plugin), result, context);
  }

  /** The run a plugin's call or question is judged in: the session it acts as, in a mode it may use. */
  private pluginRun(session: PluginToolCall['session'], mode: PluginToolCall['mode'], madeBy: string | undefined): PluginCallDeps['run'] {
    return {
      sessionId: session.sessionId,
      agentId: session.agentId,
      ...(session.parentAgentId ? { parentAgentId: session.parentAgentId } : {}),
      projectRoot: this.options.projectRoot,
      homeDir: this.options.homeDir,
      mode: this.permittedMode(mode),
      ...(madeBy !== undefined ? { madeBy } : {}),
    };
  }

  /** A plugin's own call through the whole gate, nobody asked (`kernel/plugin-tool-call.ts`). */
  async callTool(asked: PluginToolCall, madeBy?: string): Promise<PluginToolCallResult> {
    const session = asked.session;
    // Acted as only by a session this kernel made (or one naming its identity: a sub-agent's
    // compaction recovery reads as that sub-agent): an invented identity is refused.
    if (!this.isLiveIdentity(session)) return { allowed: false, content: 'The call was not made: its session is not one this kernel made', isError: true };
    const call: ToolCall = { id: asked.callId, name: asked.toolName, input: JSON.stringify(asked.input) };
    const deps: PluginCallDeps = {
      hooks: this.#raw,
      tools: this.tools,
      chain: this.chain,
      run: this.pluginRun(session, asked.mode, madeBy),
      defaultTimeoutMs: this.options.defaultToolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    };
    const { ran, result } = await callToolForPlugin(call, session, asked.signal ?? new AbortController().signal, deps, asked.perform);
    return { allowed: ran, content: result.content, isError: result.isError };
  }

  /** What a plugin starts that a tool call would (a fork skill's sub-agent), judged and asked about as that call (`kernel/plugin-permission-ask.ts`). */
  async askPermission(ask: PluginPermissionAsk, madeBy?: string): Promise<PluginPermissionAnswer> {
    const session = ask.session;
    if (!this.isLiveIdentity(session)) return { allowed: false, reason: 'its session is not one this kernel made' };
    return askPermissionForPlugin(
      { id: ask.callId, name: ask.toolName, input: JSON.stringify(ask.input) },
      {
        hooks: this.#raw,
        tools: this.tools,
        chain: this.chain,
        run: this.pluginRun(session, ask.mode, madeBy),
        approve: (request) => this.output.approve(request),
        ...(ask.signal ? { signal: ask.signal } : {}),
        isRequired: (plugin) => this.isRequired(plugin),
      },
    );
  }

  /**
   * A plugin's question about a call it makes itself (a custom command's `!` line). The request is
   * built again as the gate builds a model's call: the registered tool (never the caller's object),
   * its own target, frozen copies, and the mode managed settings permit.
   */
  async decidePermission(asked: PermissionRequest, callId: string, madeBy?: string): Promise<PermissionVerdict> {
    if (!this.isLiveIdentity(asked)) return { decision: 'deny', layer: 'kernel', reason: 'the request names a session this kernel did not make' };
    const tool = this.tools.get(asked.toolName);
    const request = tool
      ? await permissionRequest(asked.toolName, tool, asked.input, {
          mode: this.permittedMode(asked.mode),
          sessionId: asked.sessionId,
          agentId: asked.agentId ?? 'main',
          parentAgentId: asked.parentAgentId,
          projectRoot: this.options.projectRoot,
          madeBy,
        })
      : undefined;
    if (!request) return { decision: 'deny', layer: 'kernel', reason: `no tool named ${asked.toolName} is registered` };
    const { verdict } = await this.chain.decide(this.#raw, request);
    await this.#raw.permissionDecided.promise({
      request,
      verdict,
      decidedBy: verdictOwner(verdict),
      allowed: verdict.decision === 'allow',
      toolCallId: callId,
      sessionId: request.sessionId,
      agentId: request.agentId ?? 'main',
      ...(request.parentAgentId ? { parentAgentId: request.parentAgentId } : {}),
    });
    return verdict;
  }
}

const identityKey = (who: { sessionId: string; agentId: string }): string => `${who.sessionId}\u0000${who.agentId}`;

/** Why a plugin may send a model request of its own: never as a turn. */
const OUT_OF_TURN_REASONS: ReadonlySet<unknown> = new Set(['compaction', 'sampling']);
