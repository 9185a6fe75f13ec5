/**
 * What one plugin receives in `apply` and `start`: the kernel's API with hooks whose taps carry
 * this plugin's name. Everything else delegates to the kernel.
 */
import type { Container } from 'inversify';
import type { Command } from '../types/commands.js';
import type { AgentEvent } from '../types/events.js';
import type { NotificationPayload, PluginHooks } from '../types/hooks.js';
import type { PermissionMode } from '../types/permissions.js';
import type { CliOptions, KernelApi } from '../types/plugin.js';
import type { ToolRegistry } from '../types/services.js';
import type { AgentSession, RunOptions, SessionOptions, SessionRecords } from '../types/session.js';

export class PluginContext implements KernelApi {
  /** A true private field: what a plugin holds must not lead back to the kernel object itself. */
  readonly #kernel: KernelApi;

  readonly #tools: ToolRegistry | undefined;

  /** `tools`: the registry as this plugin sees it (its registrations carry its name). */
  constructor(
    kernel: KernelApi,
    readonly hooks: PluginHooks,
    tools?: ToolRegistry,
  ) {
    this.#kernel = kernel;
    this.#tools = tools;
  }

  get version(): string {
    return this.#kernel.version;
  }
  get container(): Container {
    return this.#kernel.container;
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
    return this.#tools ?? this.#kernel.tools;
  }
  config<T>(key: string): T | undefined {
    return this.#kernel.config<T>(key);
  }
  createSession(options?: SessionOptions): AgentSession {
    return this.#kernel.createSession(options);
  }
  resumeSession(records: SessionRecords, options?: Omit<SessionOptions, 'history' | 'sessionId'>): Promise<AgentSession> {
    return this.#kernel.resumeSession(records, options);
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
  run(options: RunOptions): AsyncIterable<AgentEvent> {
    return this.#kernel.run(options);
  }
  compactNow(mode: PermissionMode): Promise<boolean> {
    return this.#kernel.compactNow(mode);
  }
}
