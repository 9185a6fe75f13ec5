/**
 * What one plugin receives in `apply` and `start`: the kernel's API with hooks whose taps carry
 * this plugin's name. Everything else delegates to the kernel.
 */
import type { Container } from 'inversify';
import type { Command } from '../types/commands.js';
import type { AgentEvent } from '../types/events.js';
import type { NotificationPayload, PluginHooks, PostToolUseContext } from '../types/hooks.js';
import type { ToolResult } from '../types/messages.js';
import type { PermissionMode, PermissionRequest, PermissionVerdict } from '../types/permissions.js';
import type { CliOptions, KernelApi, PluginPermissionAnswer, PluginPermissionAsk, PluginToolCall, PluginToolCallResult } from '../types/plugin.js';
import type { ModelRequestOptions } from '../types/plugin.js';
import type { ModelRequest, ProviderEvent } from '../types/provider.js';
import type { ToolRegistry } from '../types/services.js';
import type { AgentSession, RunOptions, SessionOptions, SessionRecords } from '../types/session.js';

/** How a plugin's sessions are made: never as the main one, a history it gives told (kernel.ts). */
export interface PluginSessions {
  create(options: SessionOptions): AgentSession;
  resume(records: SessionRecords, options?: Omit<SessionOptions, 'history' | 'sessionId'>): Promise<AgentSession>;
  /**
   * The build's own plugin (not one named in configuration): only it may pass text through the
   * required plugins' postToolUse taps (a configured plugin could feed the organisation's
   * recorder tool output no tool produced).
   */
  fromBuild: boolean;
}

/** The kernel's own calls for a plugin, told which plugin asks (the request's `madeBy`). */
interface PluginCallHost {
  callTool(call: PluginToolCall, madeBy: string): Promise<PluginToolCallResult>;
  decidePermission(request: PermissionRequest, callId: string, madeBy: string): Promise<PermissionVerdict>;
  askPermission(ask: PluginPermissionAsk, madeBy: string): Promise<PluginPermissionAnswer>;
}

/**
 * A plugin's own call is judged and audited as that plugin's (PermissionRequest.madeBy): the
 * anonymous view (a service resolved no plugin's way, e.g. a class injected with TOKENS.Kernel)
 * names no plugin, so it makes none.
 */
const NO_OWNER =
  "the kernel it was asked through names no plugin (a service resolved TOKENS.Kernel outside a plugin's toDynamicValue binding); a plugin's own calls go through the kernel its apply() or start() receives, or that its own bindings resolve";

export class PluginContext implements KernelApi {
  /** A true private field: what a plugin holds must not lead back to the kernel object itself. */
  readonly #kernel: KernelApi;

  readonly #tools: ToolRegistry;
  readonly #sessions: PluginSessions;
  /** The plugin this view acts for; undefined for the container's anonymous view. */
  readonly #owner: string | undefined;
  #container: Container | undefined;

  /**
   * `tools`: the registry as this plugin sees it (its registrations carry its name; never the
   * kernel's own, which may replace any tool); `owner` names it in the refusal of a container change.
   */
  constructor(
    kernel: KernelApi,
    readonly hooks: PluginHooks,
    tools: ToolRegistry,
    sessions: PluginSessions,
    owner?: string,
    /** Only in the context handed to start(): aborted at its time limit and at shutdown. */
    readonly signal?: AbortSignal,
  ) {
    this.#kernel = kernel;
    this.#tools = tools;
    this.#sessions = sessions;
    this.#owner = owner;
    // The container's Kernel view is one object for every service that resolves it: none may
    // shadow its `container` or `warn` for the others.
    Object.freeze(this);
  }

  get version(): string {
    return this.#kernel.version;
  }
  get container(): Container {
    this.#container ??= readOnlyContainer(this.#kernel.container, this.#owner ?? 'a service from the container');
    return this.#container;
  }
  get projectRoot(): string {
    return this.#kernel.projectRoot;
  }
  get homeDir(): string {
    return this.#kernel.homeDir;
  }
  get session(): AgentSession {
    return this.#kernel.session;
  }
  get cli(): CliOptions | undefined {
    return this.#kernel.cli;
  }
  get tools(): ToolRegistry {
    return this.#tools;
  }
  config<T>(key: string): T | undefined {
    return this.#kernel.config<T>(key);
  }
  createSession(options: SessionOptions = {}): AgentSession {
    return this.#sessions.create(options);
  }
  resumeSession(records: SessionRecords, options?: Omit<SessionOptions, 'history' | 'sessionId'>): Promise<AgentSession> {
    return this.#sessions.resume(records, options);
  }
  commands(): readonly Command[] {
    return this.#kernel.commands();
  }
  notify(kind: NotificationPayload['kind'], message: string, session?: Pick<AgentSession, 'sessionId' | 'agentId'>): void {
    this.#kernel.notify(kind, message, session);
  }
  warn(message: string): void {
    this.#kernel.warn(message);
  }
  injectReminder(text: string): void {
    this.#kernel.injectReminder(text);
  }
  sendModelRequest(request: ModelRequest, options: ModelRequestOptions): AsyncIterable<ProviderEvent> {
    return this.#kernel.sendModelRequest(request, options);
  }
  run(options: RunOptions): AsyncIterable<AgentEvent> {
    return this.#kernel.run(options);
  }
  compactNow(mode: PermissionMode): Promise<boolean> {
    return this.#kernel.compactNow(mode);
  }
  callTool(call: PluginToolCall): Promise<PluginToolCallResult> {
    if (this.#owner === undefined) return Promise.resolve({ allowed: false, content: `The call was not made: ${NO_OWNER}`, isError: true });
    if (this.#kernel.callTool) return (this.#kernel as PluginCallHost).callTool(call, this.#owner);
    return Promise.resolve({ allowed: false, content: 'this kernel cannot run a plugin\'s own calls', isError: true });
  }
  requiredPostToolUse(result: ToolResult, context: PostToolUseContext): Promise<ToolResult> {
    if (!this.#sessions.fromBuild) return Promise.reject(new Error("requiredPostToolUse is for the build's own plugins (the user's PostToolUse hooks), not a plugin named in configuration"));
    // A kernel that cannot tell: nothing of the tool's text is passed on unscrubbed.
    if (this.#kernel.requiredPostToolUse) return this.#kernel.requiredPostToolUse(result, context);
    return Promise.resolve({ toolCallId: result.toolCallId, isError: true, content: 'Output withheld: this kernel cannot pass it through the required plugins.' });
  }
  decidePermission(request: PermissionRequest, callId: string): Promise<PermissionVerdict> {
    if (this.#owner === undefined) return Promise.resolve({ decision: 'deny', layer: 'kernel', reason: NO_OWNER });
    if (this.#kernel.decidePermission) return (this.#kernel as PluginCallHost).decidePermission(request, callId, this.#owner);
    return Promise.resolve({ decision: 'deny', layer: 'kernel', reason: 'this kernel cannot decide a plugin\'s own calls' });
  }
  askPermission(ask: PluginPermissionAsk): Promise<PluginPermissionAnswer> {
    if (this.#owner === undefined) return Promise.resolve({ allowed: false, reason: NO_OWNER });
    if (this.#kernel.askPermission) return (this.#kernel as PluginCallHost).askPermission(ask, this.#owner);
    return Promise.resolve({ allowed: false, reason: 'this kernel cannot judge what a plugin starts' });
  }
}

/**
 * What may change the container: only a plugin's `bindings` module, loaded by the kernel through
 * the binding ledger (who bound what, no silent second binding). Through the kernel API a plugin
 * resolves services; binding, unbinding or loading modules there would bypass the ledger.
 */
/**
 * What the read-only view offers: resolving and asking. Everything else — binding, unbinding,
 * loading modules, activation handlers on others' services, `register` (which hands an
 * inversify plugin the container's internals), snapshot/restore — is refused, including methods
 * a later inversify adds (an allowlist, not a list of what is forbidden).
 */
const READS: ReadonlySet<PropertyKey> = new Set(['get', 'getAsync', 'getAll', 'getAllAsync', 'isBound', 'isCurrentBound']);

function readOnlyContainer(container: Container, owner: string): Container {
  return new Proxy(container, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!READS.has(property)) {
        return () => {
          throw new Error(`${owner.includes(' ') ? owner : `plugin ${owner}`} cannot ${String(property)} in the container after boot; bind services in the plugin's bindings module`);
        };
      }
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
    setPrototypeOf: () => false,
  });
}
