/**
 * Managed settings: an organisation's policy, above the user's and the project's files.
 *
 *   Linux   /etc/mewcode/managed-settings.yaml
 *   macOS   /Library/Application Support/MewCode/managed-settings.yaml
 *   Windows C:\Program Files\MewCode\managed-settings.yaml
 *   MEWCODE_MANAGED_SETTINGS=<path>   one more managed file (tests, fleets that ship it elsewhere)
 *
 * Whoever controls the environment names that file, and a user controls their own. So where the
 * system file exists, the named one may only add restrictions to it: `plugins:` (code run in
 * MewCode's process) or `sandbox.allowed_domains` the system file does not pin (hosts commands may
 * reach) in it end the run (exit 2, naming both files), unless the named file and every directory
 * above it are root's and writable by no one else (types/root-owned.ts). Without a system file
 * the named file is the policy, as it was: it binds only a user who cannot change their environment.
 *
 * ```yaml
 * plugins: [acme-policy]               # required: resolved from this file's directory; missing or broken → exit 2
 * allow_managed_plugins_only: true     # a plugin named in a user's or project's config is not imported
 * permissions:
 *   deny: ["Bash(curl *)"]             # deny and ask rules no allow rule, flag, mode or approval lifts
 *   ask:  ["Bash(git push *)"]
 *   disable_bypass_mode: true          # Claude Code: disableBypassPermissionsMode: disable
 *   allow_managed_rules_only: true     # Claude Code: allowManagedPermissionRulesOnly
 * sandbox:
 *   enabled: true                      # the OS sandbox is on, whatever the user's `sandbox:` says
 *   allow_unsandboxed_commands: false  # --dangerously-skip-sandbox is refused (Claude Code: allowUnsandboxedCommands)
 *   allowed_domains: [registry.npmjs.org]   # the only hosts commands may reach; nobody widens it
 * mcp:
 *   allowed_servers: [github]          # Claude Code: allowedMcpServers: [{ serverName: github }]
 *   denied_servers: [filesystem]       # Claude Code: deniedMcpServers
 * acme:                                # the configuration section of a plugin this file lists: that
 *   enforce: true                      # plugin reads it from here only (no user or project file changes it)
 * ```
 *
 * Every key only restricts, and the two files combine so that the second can add restrictions
 * to the first, never lift one (lists of rules and plugins: union; switches: either file turns
 * them on; allow-lists: intersection).
 *
 * Fail closed: an organisation's policy must not vanish because of a typo or a permission bit. A
 * managed file that exists but cannot be read or parsed, an unknown key (a key that is no section
 * of a plugin the file lists ends the run once the plugins are loaded), a value of the wrong
 * kind, a key that would loosen (`allow`, `sandbox.enabled: false`) or a MEWCODE_MANAGED_SETTINGS
 * naming no file is a ManagedSettingsError naming the file, line and key; the CLI ends with exit 2.
 */
import path from 'node:path';
import { formatPos, toPlain, type LocatedMap, type LocatedNode } from './located.js';
import { deepFreeze } from '../types/deep-freeze.js';
import { rootOwnedProblem } from '../types/root-owned.js';
import { EMPTY_MANAGED_POLICY, type ManagedPlugin, type ManagedPolicy, type ManagedRule, type ManagedSection, type ManagedValue } from '../types/managed.js';
import { readConfigFile } from './config-file.js';

export const MANAGED_SETTINGS_ENV = 'MEWCODE_MANAGED_SETTINGS';

const SYSTEM_FILES: Partial<Record<NodeJS.Platform, string>> = {
  linux: '/etc/mewcode/managed-settings.yaml',
  darwin: '/Library/Application Support/MewCode/managed-settings.yaml',
  win32: 'C:\\Program Files\\MewCode\\managed-settings.yaml',
};

/** A managed file is a policy, not data. */

export class ManagedSettingsError extends Error {}

/** The system-wide managed file of this platform (undefined where MewCode knows none). */
export function systemManagedFile(platform: NodeJS.Platform = process.platform): string | undefined {
  return SYSTEM_FILES[platform];
}

export interface ManagedFileCandidate {
  file: string;
  /** Named by MEWCODE_MANAGED_SETTINGS: then it must exist (the fleet meant a policy to apply). */
  named: boolean;
}

export function managedFileCandidates(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ManagedFileCandidate[] {
  const candidates: ManagedFileCandidate[] = [];
  const system = systemManagedFile(platform);
  if (system !== undefined) candidates.push({ file: system, named: false });
  const named = env[MANAGED_SETTINGS_ENV]?.trim();
  if (named) {
    const file = path.resolve(named);
    if (file !== system) candidates.push({ file, named: true });
  }
  return candidates;
}

export interface LoadManagedOptions {
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Tests: the files to read instead of the platform's and the environment's. */
  candidates?: readonly ManagedFileCandidate[];
  /** Tests: why a named file is not root's alone (undefined: it is); default types/root-owned.ts. */
  notRootOwned?: (file: string) => string | undefined;
}

function notRootOwned(file: string): string | undefined {
  const problem = rootOwnedProblem(file);
  return problem === undefined ? undefined : problem.missing ? 'it vanished while being read' : problem.reason;
}

/** Reads and combines the managed files; throws ManagedSettingsError (never ignores a bad one). */
export async function loadManagedPolicy(options: LoadManagedOptions): Promise<ManagedPolicy> {
  const candidates = options.candidates ?? managedFileCandidates(options.env, options.platform);
  let policy = EMPTY_MANAGED_POLICY;
  let system: string | undefined;
  for (const candidate of candidates) {
    const read = readConfigFile(candidate.file);
    if (!read.ok) {
      if (read.missing && !candidate.named) continue;
      const why = read.missing ? `no such file (named by ${MANAGED_SETTINGS_ENV})` : read.reason;
      throw new ManagedSettingsError(`managed settings ${candidate.file} cannot be read: ${why}; MewCode does not run without its organisation's policy`);
    }
    const { parseConfigText } = await import('./parse-file.js');
    const parsed = parseConfigText(candidate.file, read.text);
    if (parsed.error !== undefined) {
      throw new ManagedSettingsError(`managed settings ${parsed.error.replace(/^config: /, '')}; MewCode does not run with a managed settings file it cannot parse`);
    }
    const next = parseManagedRoot(parsed.root, candidate.file);
    if (candidate.named && system !== undefined) refuseWidening(policy, next, system, candidate.file, options.notRootOwned ?? notRootOwned);
    if (!candidate.named) system ??= candidate.file;
    policy = combinePolicies(policy, next);
  }
  // Shared by the kernel and every plugin that applies it: none of them can weaken it in place.
  return deepFreeze(policy);
}

/**
 * A file named by the environment beside the system's: what in it would widen the system's policy
 * or add code (plugins run in MewCode's process, as the organisation's, required) is refused
 * unless only root can change that file. Every other key only restricts when combined (rules and
 * denied servers: union; switches: on; an allow-list the system file also has: intersection).
 */
function refuseWidening(system: ManagedPolicy, named: ManagedPolicy, systemFile: string, file: string, judge: (file: string) => string | undefined): void {
  const widening: string[] = named.plugins.map((plugin) => `plugins: ${plugin.use} (${plugin.where})`);
  const domains = named.sandbox.allowedDomains;
  if (domains && !system.sandbox.allowedDomains) widening.push(`sandbox.allowed_domains (${domains.where}), which the system file does not pin`);
  if (widening.length === 0) return;
  const owner = judge(file);
  if (owner === undefined) return;
  throw new ManagedSettingsError(
    `managed settings ${file} (named by ${MANAGED_SETTINGS_ENV}) may only add restrictions to the system's ${systemFile} unless only root can change it, and ${owner}: ` +
      `it has ${widening.join('; ')}; MewCode does not run with a policy a user's environment widened`,
  );
}

// ---------------------------------------------------------------------------------------------
// One file

function fail(node: LocatedNode, key: string, message: string): never {
  throw new ManagedSettingsError(`managed settings ${formatPos(node.pos)}: ${key}: ${message}; MewCode does not run with a managed setting it cannot apply`);
}

function describeNode(node: LocatedNode): string {
  if (node.kind === 'scalar') return JSON.stringify(node.value);
  return node.kind === 'seq' ? 'a list' : 'a mapping';
}

function mapOf(node: LocatedNode, key: string, keys: readonly string[]): LocatedMap {
  if (node.kind !== 'map') fail(node, key, `expected a mapping (${keys.join(', ')}), got ${describeNode(node)}`);
  for (const [name, value] of node.entries) {
    if (!keys.includes(name)) fail(value, `${key}.${name}`, `unknown key (expected ${keys.join(', ')})`);
  }
  return node;
}

function stringList(node: LocatedNode, key: string): ManagedRule[] {
  if (node.kind === 'scalar' && node.value === null) return [];
  if (node.kind !== 'seq') fail(node, key, `expected a list of strings, got ${describeNode(node)}`);
  return node.items.map((item, i) => {
    if (item.kind !== 'scalar' || typeof item.value !== 'string' || item.value.trim() === '') fail(item, `${key}[${i}]`, `expected a non-empty string, got ${describeNode(item)}`);
    return { rule: item.value.trim(), where: formatPos(item.pos) };
  });
}

/** A switch that may only be turned on: `on` values restrict, `off` values are no restriction. */
function restriction(node: LocatedNode, key: string, on: readonly unknown[], off: readonly unknown[]): ManagedValue<true> | undefined {
  const value = node.kind === 'scalar' ? node.value : undefined;
  if (on.includes(value)) return { value: true, where: formatPos(node.pos) };
  if (off.includes(value)) return undefined;
  fail(node, key, `expected ${[...on, ...off].map((v) => JSON.stringify(v)).join(' or ')}, got ${describeNode(node)}`);
}

export const MANAGED_TOP_KEYS = ['plugins', 'allow_managed_plugins_only', 'permissions', 'sandbox', 'mcp', 'allowedMcpServers', 'deniedMcpServers'] as const;
const PERMISSION_KEYS = ['deny', 'ask', 'disable_bypass_mode', 'disableBypassPermissionsMode', 'allow_managed_rules_only', 'allowManagedPermissionRulesOnly'] as const;
const SANDBOX_KEYS = ['enabled', 'allow_unsandboxed_commands', 'allowUnsandboxedCommands', 'allowed_domains', 'allowedDomains', 'network'] as const;
const MCP_KEYS = ['allowed_servers', 'denied_servers'] as const;
/** Keys of the user's settings that only ever widen: refused with a reason, not as unknown. */
const LOOSENING: Readonly<Record<string, string>> = {
  'permissions.allow': 'managed settings only restrict: allow rules belong in the user\'s or the project\'s settings',
  'permissions.default_mode': 'managed settings only restrict: use disable_bypass_mode to forbid bypassPermissions',
  'permissions.defaultMode': 'managed settings only restrict: use disable_bypass_mode to forbid bypassPermissions',
  'permissions.additional_directories': 'managed settings only restrict: additional directories belong in the user\'s or the project\'s settings',
  'permissions.additionalDirectories': 'managed settings only restrict: additional directories belong in the user\'s or the project\'s settings',
};

/** A host name or `*.name` (as sandbox.allowed_domains accepts). */
const DOMAIN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

type MutablePolicy = {
  files: string[];
  plugins: ManagedPlugin[];
  sections?: ManagedSection[];
  managedPluginsOnly?: ManagedValue<true>;
  permissions: { deny: ManagedRule[]; ask: ManagedRule[]; disableBypassMode?: ManagedValue<true>; managedRulesOnly?: ManagedValue<true> };
  sandbox: { forceEnabled?: ManagedValue<true>; disableSkip?: ManagedValue<true>; allowedDomains?: ManagedValue<readonly string[]> };
  mcp: { allowedServers?: ManagedValue<readonly string[]>; deniedServers: ManagedRule[] };
};

/** The policy one managed file states (exported for tests). */
export function parseManagedRoot(root: LocatedMap, file: string): ManagedPolicy {
  const policy: MutablePolicy = { files: [file], plugins: [], permissions: { deny: [], ask: [] }, sandbox: {}, mcp: { deniedServers: [] } };
  const plugins = root.entries.get('plugins');
  if (plugins) policy.plugins = readPlugins(plugins, file);
  // Any other key is the section of a plugin this file lists, or a mistake: which one is known only
  // once the plugins are loaded (the kernel ends the run for a key none of them reads).
  const sections: ManagedSection[] = [];
  for (const [key, node] of root.entries) {
    if ((MANAGED_TOP_KEYS as readonly string[]).includes(key)) continue;
    if (policy.plugins.length === 0) fail(node, key, `unknown key (managed settings have ${MANAGED_TOP_KEYS.join(', ')}, and the configuration sections of the plugins they list)`);
    sections.push({ key, value: toPlain(node), file, where: formatPos(root.keyPos?.get(key) ?? node.pos) });
  }
  if (sections.length > 0) policy.sections = sections;
  const pluginsOnly = root.entries.get('allow_managed_plugins_only');
  const onlyManaged = pluginsOnly && restriction(pluginsOnly, 'allow_managed_plugins_only', [true], [false]);
  if (onlyManaged) policy.managedPluginsOnly = onlyManaged;
  const permissions = root.entries.get('permissions');
  if (permissions && !(permissions.kind === 'scalar' && permissions.value === null)) readPermissions(permissions, policy);
  const sandbox = root.entries.get('sandbox');
  if (sandbox && !(sandbox.kind === 'scalar' && sandbox.value === null)) readSandbox(sandbox, policy);
  const mcp = root.entries.get('mcp');
  if (mcp && !(mcp.kind === 'scalar' && mcp.value === null)) {
    const map = mapOf(mcp, 'mcp', MCP_KEYS);
    const allowed = map.entries.get('allowed_servers');
    if (allowed) policy.mcp.allowedServers = { value: stringList(allowed, 'mcp.allowed_servers').map((r) => r.rule), where: formatPos(allowed.pos) };
    const denied = map.entries.get('denied_servers');
    if (denied) policy.mcp.deniedServers.push(...stringList(denied, 'mcp.denied_servers'));
  }
  // Claude Code's spelling: a list of { serverName }.
  const allowedCc = root.entries.get('allowedMcpServers');
  if (allowedCc) {
    const names = claudeServerList(allowedCc, 'allowedMcpServers').map((r) => r.rule);
    const where = formatPos(allowedCc.pos);
    policy.mcp.allowedServers = policy.mcp.allowedServers ? intersect(policy.mcp.allowedServers, { value: names, where }) : { value: names, where };
  }
  const deniedCc = root.entries.get('deniedMcpServers');
  if (deniedCc) policy.mcp.deniedServers.push(...claudeServerList(deniedCc, 'deniedMcpServers'));
  return policy;
}

function readPlugins(node: LocatedNode, file: string): ManagedPlugin[] {
  const baseDir = path.dirname(file);
  if (node.kind === 'scalar' && node.value === null) return [];
  if (node.kind !== 'seq') fail(node, 'plugins', `expected a list of plugins (a module name or path, or { use, required: true }), got ${describeNode(node)}`);
  return node.items.map((item, i) => {
    const key = `plugins[${i}]`;
    if (item.kind === 'scalar' && typeof item.value === 'string' && item.value.trim() !== '') return { use: item.value.trim(), baseDir, file, where: formatPos(item.pos) };
    if (item.kind !== 'map') fail(item, key, `expected a module name or path, or { use, required: true }, got ${describeNode(item)}`);
    mapOf(item, key, ['use', 'required']);
    const use = item.entries.get('use');
    if (!use || use.kind !== 'scalar' || typeof use.value !== 'string' || use.value.trim() === '') fail(use ?? item, `${key}.use`, 'expected the module name or path of the plugin');
    const required = item.entries.get('required');
    if (required && !(required.kind === 'scalar' && required.value === true)) fail(required, `${key}.required`, 'every managed plugin is required (true, or leave it out)');
    return { use: use.value.trim(), baseDir, file, where: formatPos(item.pos) };
  });
}

function readPermissions(node: LocatedNode, policy: MutablePolicy): void {
  if (node.kind === 'map') {
    for (const [name, value] of node.entries) {
      const reason = LOOSENING[`permissions.${name}`];
      if (reason) fail(value, `permissions.${name}`, reason);
    }
  }
  const map = mapOf(node, 'permissions', PERMISSION_KEYS);
  const deny = map.entries.get('deny');
  if (deny) policy.permissions.deny = stringList(deny, 'permissions.deny');
  const ask = map.entries.get('ask');
  if (ask) policy.permissions.ask = stringList(ask, 'permissions.ask');
  for (const key of ['disable_bypass_mode', 'disableBypassPermissionsMode'] as const) {
    const value = map.entries.get(key);
    const on = value && restriction(value, `permissions.${key}`, [true, 'disable'], [false]);
    if (on) policy.permissions.disableBypassMode = on;
  }
  for (const key of ['allow_managed_rules_only', 'allowManagedPermissionRulesOnly'] as const) {
    const value = map.entries.get(key);
    const on = value && restriction(value, `permissions.${key}`, [true], [false]);
    if (on) policy.permissions.managedRulesOnly = on;
  }
}

function readSandbox(node: LocatedNode, policy: MutablePolicy): void {
  if (node.kind === 'scalar' && node.value === true) {
    policy.sandbox.forceEnabled = { value: true, where: formatPos(node.pos) };
    return;
  }
  if (node.kind === 'scalar' && node.value === false) fail(node, 'sandbox', 'managed settings can only force the OS sandbox on (true), never turn it off');
  const map = mapOf(node, 'sandbox', SANDBOX_KEYS);
  const enabled = map.entries.get('enabled');
  if (enabled) {
    if (enabled.kind === 'scalar' && enabled.value === false) fail(enabled, 'sandbox.enabled', 'managed settings can only force the OS sandbox on (true), never turn it off');
    const on = restriction(enabled, 'sandbox.enabled', [true], []);
    if (on) policy.sandbox.forceEnabled = on;
  }
  const network = map.entries.get('network');
  if (network && !(network.kind === 'scalar' && network.value === false)) {
    fail(network, 'sandbox.network', 'managed settings can only keep the network closed (false); list the hosts commands may reach in allowed_domains');
  }
  for (const key of ['allow_unsandboxed_commands', 'allowUnsandboxedCommands'] as const) {
    const value = map.entries.get(key);
    const off = value && restriction(value, `sandbox.${key}`, [false], [true]);
    if (off) policy.sandbox.disableSkip = off;
  }
  for (const key of ['allowed_domains', 'allowedDomains'] as const) {
    const value = map.entries.get(key);
    if (!value) continue;
    const hosts = stringList(value, `sandbox.${key}`).map((entry, i) => {
      const host = entry.rule.toLowerCase().replace(/\.$/, '');
      if (!DOMAIN.test(host)) fail(value.kind === 'seq' ? value.items[i]! : value, `sandbox.${key}[${i}]`, `${JSON.stringify(entry.rule)} is not a host name (name or *.name, no scheme, port or path)`);
      return host;
    });
    const pinned = { value: [...new Set(hosts)], where: formatPos(value.pos) };
    policy.sandbox.allowedDomains = policy.sandbox.allowedDomains ? intersect(policy.sandbox.allowedDomains, pinned) : pinned;
  }
}

function claudeServerList(node: LocatedNode, key: string): ManagedRule[] {
  if (node.kind !== 'seq') fail(node, key, `expected a list of { serverName: <name> }, got ${describeNode(node)}`);
  return node.items.map((item, i) => {
    if (item.kind === 'scalar' && typeof item.value === 'string' && item.value.trim() !== '') return { rule: item.value.trim(), where: formatPos(item.pos) };
    if (item.kind !== 'map') fail(item, `${key}[${i}]`, `expected { serverName: <name> }, got ${describeNode(item)}`);
    const name = item.entries.get('serverName');
    if (!name || name.kind !== 'scalar' || typeof name.value !== 'string' || name.value.trim() === '') {
      fail(item, `${key}[${i}]`, 'MewCode matches MCP servers by serverName only (serverCommand and serverUrl are not supported): give { serverName: <name> }');
    }
    for (const [other, value] of item.entries) if (other !== 'serverName') fail(value, `${key}[${i}].${other}`, 'unknown key (MewCode matches MCP servers by serverName)');
    return { rule: name.value.trim(), where: formatPos(item.pos) };
  });
}

// ---------------------------------------------------------------------------------------------
// Combining files: restrictions only ever add up

function intersect(a: ManagedValue<readonly string[]>, b: ManagedValue<readonly string[]>): ManagedValue<readonly string[]> {
  return { value: a.value.filter((item) => b.value.includes(item)), where: `${a.where} and ${b.where}` };
}

function unionRules(a: readonly ManagedRule[], b: readonly ManagedRule[]): ManagedRule[] {
  const out = [...a];
  for (const rule of b) if (!out.some((existing) => existing.rule === rule.rule)) out.push(rule);
  return out;
}

/** `higher` can add restrictions to `lower`, never lift one. */
export function combinePolicies(lower: ManagedPolicy, higher: ManagedPolicy): ManagedPolicy {
  const plugins = [...lower.plugins];
  for (const plugin of higher.plugins) if (!plugins.some((p) => p.use === plugin.use)) plugins.push(plugin);
  const either = <T>(a: T | undefined, b: T | undefined): T | undefined => a ?? b;
  const both = (a: ManagedValue<readonly string[]> | undefined, b: ManagedValue<readonly string[]> | undefined) => (a && b ? intersect(a, b) : (a ?? b));
  const permissions = {
    deny: unionRules(lower.permissions.deny, higher.permissions.deny),
    ask: unionRules(lower.permissions.ask, higher.permissions.ask),
    ...optional('disableBypassMode', either(lower.permissions.disableBypassMode, higher.permissions.disableBypassMode)),
    ...optional('managedRulesOnly', either(lower.permissions.managedRulesOnly, higher.permissions.managedRulesOnly)),
  };
  const sandbox = {
    ...optional('forceEnabled', either(lower.sandbox.forceEnabled, higher.sandbox.forceEnabled)),
    ...optional('disableSkip', either(lower.sandbox.disableSkip, higher.sandbox.disableSkip)),
    ...optional('allowedDomains', both(lower.sandbox.allowedDomains, higher.sandbox.allowedDomains)),
  };
  const mcp = {
    ...optional('allowedServers', both(lower.mcp.allowedServers, higher.mcp.allowedServers)),
    deniedServers: unionRules(lower.mcp.deniedServers, higher.mcp.deniedServers),
  };
  const pluginsOnly = optional('managedPluginsOnly', either(lower.managedPluginsOnly, higher.managedPluginsOnly));
  // Each section stays with its file: the kernel reads it only for a plugin that same file lists.
  const sections = optional('sections', lower.sections || higher.sections ? [...(lower.sections ?? []), ...(higher.sections ?? [])] : undefined);
  return { files: [...lower.files, ...higher.files], plugins, ...sections, ...pluginsOnly, permissions, sandbox, mcp };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

