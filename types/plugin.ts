/** The plugin contract (DESIGN.md "The plugin contract"). */
import type { Container, ContainerModule } from 'inversify';
import type { AgentEvent } from './events.js';
import type { ConfigSection } from './config.js';
import type { KernelHooks, SessionContext } from './hooks.js';
import type { PermissionMode } from './permissions.js';

export interface RunOptions {
  prompt: string;
  mode: PermissionMode;
  signal?: AbortSignal;
}

/** What a plugin's `apply` receives: the running kernel. */
export interface KernelApi {
  readonly version: string;
  readonly hooks: KernelHooks;
  readonly container: Container;
  readonly session: SessionContext;
  /** The command line this kernel was started with; undefined for builds without the CLI. */
  readonly cli: CliOptions | undefined;
  /** The validated value of a section a plugin declared with `config`. */
  config<T>(key: string): T | undefined;
  /** Queue text for the next model request's reminder; taken once (L2). */
  injectReminder(text: string): void;
  /** Run one user prompt through the agent loop. One run at a time (L8). */
  run(options: RunOptions): AsyncIterable<AgentEvent>;
  /** Run compaction now; waits for a running run to end (L8). */
  compactNow(mode: PermissionMode): Promise<boolean>;
  warn(message: string): void;
}

export interface MewcodePlugin {
  /** Unique; custom builds disable or replace plugins by name. */
  name: string;
  version?: string;
  /** Semver range of the kernel API this plugin was built for (checked for external plugins). */
  kernel?: string;
  /** Names of plugins this one stands in for (they are dropped from the set). */
  replaces?: readonly string[];
  /**
   * Essential plugins (e.g. the permission blacklist and sandbox) cannot be removed by the
   * `disable:` configuration key; only a custom build that passes its own plugin list can drop them.
   */
  essential?: boolean;
  /** Plugins that must be present and applied first. */
  dependsOn?: readonly string[];
  /** The plugin's own configuration section, validated before `apply`. */
  config?: ConfigSection;
  bindings?: ContainerModule;
  apply?(kernel: KernelApi): void | Promise<void>;
  dispose?(): void | Promise<void>;
}

export function definePlugin<P extends MewcodePlugin>(plugin: P): P {
  return plugin;
}

/** Options every user interface receives from the command line. */
export interface CliOptions {
  prompt?: string;
  outputFormat: 'text' | 'json' | 'stream-json';
  permissionMode: PermissionMode;
  /**
   * Whether --permission-mode was on the command line. When false, a UI may start in the
   * settings' `permissions.default_mode` instead (TOKENS.PermissionSettings).
   */
  permissionModeGiven: boolean;
  provider?: string;
  model?: string;
  debugBoot: boolean;
  cwd: string;
  /** Session rules from --allowedTools / --disallowedTools, in permission-rule syntax. */
  allowedTools: string[];
  disallowedTools: string[];
  /** --trust-project (or MEWCODE_TRUST_PROJECT=1): trust this project's code-running settings for this run. */
  trustProject?: boolean;
  /** --dangerously-skip-sandbox: allow bypass mode for bash where no OS sandbox can run. */
  dangerouslySkipSandbox?: boolean;
}

/** Contributed under TOKENS.UserInterface. The CLI picks the first whose `handles` is true. */
export interface UserInterface {
  readonly name: string;
  handles(options: CliOptions, stdinIsTTY: boolean): boolean;
  /** Runs the session and resolves to the process exit code. */
  run(kernel: KernelApi, options: CliOptions): Promise<number>;
}
