/**
 * Managed settings: an organisation's policy, read from system-wide files above the user's and
 * the project's (config/managed-settings.ts). Every field only restricts; nothing a user, a
 * project, a flag, an environment variable or a session approval does can lift one. The kernel
 * binds the policy under TOKENS.ManagedPolicy (an empty policy when no managed file exists).
 */
import { deepFreeze } from './deep-freeze.js';

/** A value together with the managed file (and line) that set it, for messages that name it. */
export interface ManagedValue<T> {
  value: T;
  /** `file:line:col` of the key in the managed file. */
  where: string;
}

/** A permission rule (`Bash(curl *)`) the organisation adds, in the rules layer's syntax. */
export interface ManagedRule {
  rule: string;
  where: string;
}

/** A plugin the organisation requires: a missing or broken one ends every run (exit 2). */
export interface ManagedPlugin {
  /** A package name or a path, as in `plugins:`; resolved from the managed file's directory. */
  use: string;
  /** The directory of the managed file that names it. */
  baseDir: string;
  /**
   * The managed file that names it: the system's, or one named by MEWCODE_MANAGED_SETTINGS that
   * only root can change or that no system file stands above (config/managed-settings.ts refuses
   * any other's plugins). Only such a file makes a plugin managed.
   */
  file: string;
  where: string;
}

/**
 * The configuration section of a plugin a managed file lists (`orgpol:` beside `plugins: [org-policy]`).
 * Kept as read: only the plugin's own parser, known once it is loaded, can check it; the kernel
 * ends the run when no plugin that file lists reads this key, or its parser refuses the value.
 */
export interface ManagedSection {
  key: string;
  value: unknown;
  /** The managed file that holds it. */
  file: string;
  /** `file:line:col` of the key. */
  where: string;
}

export interface ManagedPolicy {
  /** The managed files read, in order (the system file first); empty when there are none. */
  readonly files: readonly string[];
  readonly plugins: readonly ManagedPlugin[];
  /** The sections of the plugins the files list (absent: none). A managed plugin reads its section from here only. */
  readonly sections?: readonly ManagedSection[];
  /**
   * Only the build's plugins and the managed ones load: a plugin named in a user's or a project's
   * configuration is not imported at all (in-process code is beyond any check the kernel makes).
   */
  readonly managedPluginsOnly?: ManagedValue<true>;
  readonly permissions: {
    readonly deny: readonly ManagedRule[];
    readonly ask: readonly ManagedRule[];
    /** `bypassPermissions` may not be used, by flag, settings or a switch in a session. */
    readonly disableBypassMode?: ManagedValue<true>;
    /** Allow rules of every other source (files, --allowedTools, approvals) are ignored. */
    readonly managedRulesOnly?: ManagedValue<true>;
  };
  readonly sandbox: {
    /** The OS sandbox is on whatever the user's `sandbox:` says. */
    readonly forceEnabled?: ManagedValue<true>;
    /** `--dangerously-skip-sandbox` is refused (also implied by forceEnabled). */
    readonly disableSkip?: ManagedValue<true>;
    /** The only hosts commands in the sandbox may reach; the user's network and domains cannot widen it. */
    readonly allowedDomains?: ManagedValue<readonly string[]>;
  };
  readonly mcp: {
    /** Only these servers may start (absent: no allow-list). */
    readonly allowedServers?: ManagedValue<readonly string[]>;
    readonly deniedServers: readonly ManagedRule[];
  };
}

/** The managed setting that refuses `--dangerously-skip-sandbox` (`file:line:col`), or undefined. */
export function skipSandboxRefusedBy(policy: ManagedPolicy): string | undefined {
  return (policy.sandbox.disableSkip ?? policy.sandbox.forceEnabled)?.where;
}

/** Whether the policy restricts anything at all. */
export function isEmptyPolicy(policy: ManagedPolicy): boolean {
  return describePolicy(policy).length === 0;
}

/** One line per restriction, for `mewcode doctor` and messages. */
export function describePolicy(policy: ManagedPolicy): string[] {
  const lines: string[] = [];
  for (const plugin of policy.plugins) lines.push(`requires plugin ${plugin.use} (${plugin.where})`);
  for (const section of policy.sections ?? []) lines.push(`configures the section ${section.key} of a managed plugin (${section.where})`);
  if (policy.managedPluginsOnly) lines.push(`only the build's and the managed plugins load: configured plugins are not imported, Claude Code plugins not read (${policy.managedPluginsOnly.where})`);
  const { permissions, sandbox, mcp } = policy;
  if (permissions.deny.length > 0) lines.push(`deny rules: ${permissions.deny.map((r) => r.rule).join(', ')}`);
  if (permissions.ask.length > 0) lines.push(`ask rules: ${permissions.ask.map((r) => r.rule).join(', ')}`);
  if (permissions.disableBypassMode) lines.push(`bypassPermissions mode disabled (${permissions.disableBypassMode.where})`);
  if (permissions.managedRulesOnly) lines.push(`only managed permission rules apply: other allow rules are ignored (${permissions.managedRulesOnly.where})`);
  if (sandbox.forceEnabled) lines.push(`OS sandbox forced on (${sandbox.forceEnabled.where})`);
  if (sandbox.disableSkip && !sandbox.forceEnabled) lines.push(`--dangerously-skip-sandbox refused (${sandbox.disableSkip.where})`);
  if (sandbox.allowedDomains) lines.push(`sandbox network pinned to: ${sandbox.allowedDomains.value.join(', ') || '(no host)'} (${sandbox.allowedDomains.where})`);
  if (mcp.allowedServers) lines.push(`MCP servers allowed: ${mcp.allowedServers.value.join(', ') || '(none)'} (${mcp.allowedServers.where})`);
  if (mcp.deniedServers.length > 0) lines.push(`MCP servers denied: ${mcp.deniedServers.map((r) => r.rule).join(', ')}`);
  return lines;
}

export const EMPTY_MANAGED_POLICY: ManagedPolicy = deepFreeze({
  files: [],
  plugins: [],
  permissions: { deny: [], ask: [] },
  sandbox: {},
  mcp: { deniedServers: [] },
});
