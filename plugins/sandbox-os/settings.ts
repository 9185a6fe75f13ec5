/**
 * The `sandbox:` section, read from the USER's files only:
 *
 *   ~/.mewcode/settings.yaml | settings.yml | settings.json   (config/settings-files.ts: the files
 *                                                  the permission rules and hooks read; wins when both set it)
 *   ~/.mewcode/config.yaml | config.yml | config.json
 *
 * The first of these files, in this order, that has a `sandbox` key decides (two spellings of the
 * settings file are reported by the permission rules, naming both).
 *
 * ```yaml
 * sandbox: false                 # off: bash asks again in default mode (as before the sandbox)
 * sandbox:
 *   enabled: true                # default true
 *   network: false               # default false: no network inside the sandbox
 *   allowed_domains: [registry.npmjs.org, "*.github.com"]  # with network off: only these hosts, through
 *                                # MewCode's proxy (domain-proxy.ts; Linux); `network: true` allows all
 *   deny_read: [~/secrets, /opt/keys]   # unreadable inside the sandbox, on top of the default list
 *   allow_write: [~/.cache/go-build]    # writable on top of the project and additional directories
 *   allow_unix_sockets: [~/.colima/default/docker.sock]  # unix sockets commands may connect to (none by
 *                                # default: creating a unix socket is refused, see seccomp-filter.ts);
 *                                # `true`: any socket a command can reach (for tests that make their own)
 * ```
 *
 * Not through a plugin `config:` section: that merges the project's files over the user's, and a
 * cloned repository must not be able to turn its own sandbox off or widen it. The
 * kernel's merged configuration is only consulted to warn when a project file tries.
 * Problems are warnings naming file:line:col and the key; a bad key is skipped, the rest applies.
 */
import { existsSync } from 'node:fs';
import { readConfigFile } from '../../config/config-file.js';
import path from 'node:path';
import type { LocatedNode } from '../../config/located.js';
import { USER_SEARCH_PLACES } from '../../config/layers.js';
import { parseConfigTextCached } from '../../config/parse-cache.js';
import { settingsFilesOf } from '../../config/settings-files.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export interface SandboxSettings {
  enabled: boolean;
  network: boolean;
  /** Hosts reachable through the proxy while `network` is false (`name` or `*.name`). */
  allowedDomains: string[];
  /** Absolute paths. */
  denyRead: string[];
  /** Absolute paths. */
  allowWrite: string[];
  /** Absolute paths of unix sockets (or directories of them) commands may connect to. */
  allowUnixSockets: string[];
  /** `allow_unix_sockets: true`: unix sockets are not refused at all (only hidden where /run, /tmp and the deny list hide them). */
  allowAllUnixSockets?: boolean;
  /**
   * `unchecked_trees: true`: commands keep running in a project too large for the check after
   * each command to finish (it then only warns). Off by default: see sandbox-commands.ts `uncheckedTree`.
   */
  uncheckedTrees?: boolean;
  /** The file:line:col that turned the sandbox off, for status messages. */
  disabledAt?: string;
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { enabled: true, network: false, allowedDomains: [], denyRead: [], allowWrite: [], allowUnixSockets: [] };

const PREFIX = 'sandbox-os:';
const KEYS = ['enabled', 'network', 'allowed_domains', 'deny_read', 'allow_write', 'allow_unix_sockets', 'unchecked_trees'];

/** The user files, highest priority first. */
export function userSettingsFiles(homeDir: string): string[] {
  // The user scope only: whatever the project root, a repository must not set its own sandbox.
  return [...settingsFilesOf('user', homeDir, homeDir), ...USER_SEARCH_PLACES.map((name) => path.join(homeDir, '.mewcode', name))];
}

export async function readSandboxSettings(homeDir: string, warn: (message: string) => void): Promise<SandboxSettings> {
  // Most of these files do not exist: a synchronous existence check (µs) instead of one awaited
  // read each keeps the boot free of six event-loop round trips.
  for (const file of userSettingsFiles(homeDir).filter((candidate) => existsSync(candidate))) {
    // Capped like every config reader; a refused file (too big, a directory…) is reported by
    // its own loader (config / permission-rules), so a second warning here would only repeat it.
    const read = readConfigFile(file);
    if (!read.ok) continue;
    const text = read.text;
    // The same file the permission rules read at start-up: parsed once for both.
    const parsed = await parseConfigTextCached(file, text);
    if (parsed.error) continue; // the file's own loader (config / permission-rules) reports it
    const node = parsed.root.entries.get('sandbox');
    if (node === undefined) continue;
    return parseSandboxNode(node, homeDir, warn);
  }
  return { ...DEFAULT_SANDBOX_SETTINGS };
}

function at(node: LocatedNode): string {
  return `${node.pos.file}:${node.pos.line}:${node.pos.col}`;
}

export function parseSandboxNode(node: LocatedNode, homeDir: string, warn: (message: string) => void): SandboxSettings {
  const settings: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, allowedDomains: [], denyRead: [], allowWrite: [], allowUnixSockets: [] };
  if (node.kind === 'scalar') {
    if (node.value === null || node.value === true) return settings;
    if (node.value === false) return { ...settings, enabled: false, disabledAt: at(node) };
    warn(`${PREFIX} ${at(node)}: sandbox: expected true, false or a mapping (${KEYS.join(', ')}); ignored`);
    return settings;
  }
  if (node.kind !== 'map') {
    warn(`${PREFIX} ${at(node)}: sandbox: expected true, false or a mapping (${KEYS.join(', ')}); ignored`);
    return settings;
  }
  for (const [key, value] of node.entries) {
    switch (key) {
      case 'enabled':
      case 'network':
      case 'unchecked_trees': {
        if (value.kind !== 'scalar' || typeof value.value !== 'boolean') {
          warn(`${PREFIX} ${at(value)}: sandbox.${key}: expected true or false; ignored`);
          break;
        }
        if (key === 'enabled') {
          settings.enabled = value.value;
          if (!value.value) settings.disabledAt = at(value);
        } else if (key === 'network') settings.network = value.value;
        else settings.uncheckedTrees = value.value;
        break;
      }
      case 'allowed_domains':
        settings.allowedDomains.push(...domains(value, warn));
        break;
      case 'deny_read':
      case 'allow_write':
      case 'allow_unix_sockets': {
        if (key === 'allow_unix_sockets' && value.kind === 'scalar' && typeof value.value === 'boolean') {
          settings.allowAllUnixSockets = value.value;
          break;
        }
        const list = paths(key, value, homeDir, warn);
        if (key === 'deny_read') settings.denyRead.push(...list);
        else if (key === 'allow_write') settings.allowWrite.push(...list);
        else settings.allowUnixSockets.push(...list);
        break;
      }
      default:
        warn(`${PREFIX} ${at(value)}: sandbox.${terminalSafe(key)}: unknown key (expected ${KEYS.join(', ')}); ignored`);
    }
  }
  return settings;
}

/** A host name (letters, digits, `-`, dots), optionally `*.` first; IPv4 literals too. */
const DOMAIN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

function domains(node: LocatedNode, warn: (message: string) => void): string[] {
  if (node.kind === 'scalar' && node.value === null) return [];
  if (node.kind !== 'seq') {
    warn(`${PREFIX} ${at(node)}: sandbox.allowed_domains: expected a list of host names (e.g. registry.npmjs.org, "*.github.com"); ignored`);
    return [];
  }
  const out: string[] = [];
  for (const item of node.items) {
    const value = item.kind === 'scalar' && typeof item.value === 'string' ? item.value.trim().toLowerCase().replace(/\.$/, '') : undefined;
    if (value === undefined || !DOMAIN.test(value)) {
      warn(`${PREFIX} ${at(item)}: sandbox.allowed_domains: ${JSON.stringify(item.kind === 'scalar' ? item.value : item.kind)} is not a host name (name or *.name, no scheme, port or path); ignored`);
      continue;
    }
    out.push(value);
  }
  return [...new Set(out)];
}

function paths(key: string, node: LocatedNode, homeDir: string, warn: (message: string) => void): string[] {
  if (node.kind === 'scalar' && node.value === null) return [];
  if (node.kind !== 'seq') {
    warn(`${PREFIX} ${at(node)}: sandbox.${key}: expected a list of absolute or ~/ paths; ignored`);
    return [];
  }
  const out: string[] = [];
  for (const item of node.items) {
    const value = item.kind === 'scalar' && typeof item.value === 'string' ? item.value.trim() : undefined;
    const resolved = value === undefined ? undefined : expandHome(value, homeDir);
    if (resolved === undefined) {
      warn(`${PREFIX} ${at(item)}: sandbox.${key}: expected an absolute path or one starting with ~/ (got ${JSON.stringify(item.kind === 'scalar' ? item.value : item.kind)}); ignored`);
      continue;
    }
    out.push(resolved);
  }
  return out;
}

/** `~` and `~/x` against the kernel's home directory; other relative paths are refused (relative to what?). */
export function expandHome(value: string, homeDir: string): string | undefined {
  if (value === '~') return homeDir;
  if (value.startsWith('~/')) return path.join(homeDir, value.slice(2));
  if (path.isAbsolute(value)) return path.normalize(value);
  return undefined;
}
