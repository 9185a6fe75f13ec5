/**
 * Where the servers come from (M2), lowest first; a later source replaces a server of the
 * same name whole:
 *   0. `mcpServers` of `~/.claude.json` (`claude mcp add --scope user`, claude-json.ts);
 *   1. `mcp_servers:` in the user's file (`~/.mewcode/config.yaml`);
 *   2. the project's `.mcp.json` (Claude Code's file, `mcpServers`);
 *   1b. the servers of the Claude Code plugins of this run (`plugin_<plugin>_<server>`, the user's own);
 *   3. `mcp_servers:` in the project's `.mewcode.yaml` / `.mewcode/config.*` / `.mewcode/config.local.*`;
 *   4. `projects[<project>].mcpServers` of `~/.claude.json` (`claude mcp add`'s default local
 *      scope, which wins over the project's in Claude Code too).
 * Then the servers this run adds (`--mcp-config`, an editor's session, the programmatic API:
 * CliOptions.mcpServers), in `.mcp.json`'s shape: they are the user's own choice for this run, so
 * they need no trust, but they only fill names the configuration leaves free — a configured
 * server of the same name is kept, and the user is told the run's entry is not used.
 * Project servers run code or contact hosts, so they need workspace trust (A12): `loadConfig`
 * already left an untrusted project's `mcp_servers:` out, and `.mcp.json` is used only when the
 * trust service approves exactly the text read here. Untrusted servers are listed in the status
 * as `untrusted`, never started.
 *
 * Managed settings (an organisation's `mcp.allowed_servers` / `denied_servers`) come last: a
 * server of any source that the allow-list leaves out, or the deny-list names, is not started,
 * and each is said with its place and the managed file's.
 */
import path from 'node:path';
import { createVarExpander, VAR_REFERENCE } from '../../config/expand.js';
import { formatPos, toPlain, type LocatedMap } from '../../config/located.js';
import { parseConfigText } from '../../config/parse-file.js';
import { configScopeAt } from '../../config/scope.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import type { ManagedPolicy } from '../../types/managed.js';
import type { ClaudePluginBundle } from '../../types/claude-plugins.js';
import { parseServerEntry, serverToolName, type ServerConfig, type ServerScope } from './server-config.js';
import { readConfigFile } from '../../config/config-file.js';
import { readClaudeJsonServers, type ClaudeJsonServers } from './claude-json.js';
import { disabledMcpJsonServers } from './claude-mcp-switches.js';

export const MCP_JSON = '.mcp.json';
/** A `.mcp.json` larger than this is not read (it is a few servers, not data). */
export { MAX_CONFIG_FILE_BYTES as MCP_JSON_MAX_BYTES } from '../../config/config-file.js';

export interface SourceInputs {
  config: ResolvedConfig | undefined;
  trust: WorkspaceTrust | undefined;
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  warn(message: string): void;
  /** The organisation's managed settings (TOKENS.ManagedPolicy). */
  managed?: ManagedPolicy;
  /** Servers this run adds (CliOptions.mcpServers), and where each was given. */
  added?: AddedServers;
  /** Whether the run reads the project's files (CliOptions.settingSources has `project`): `.mcp.json`. Default true. */
  projectFiles?: boolean;
  /** `--strict-mcp-config`: only the run's own servers (`added`) are used. */
  strict?: boolean;
  /** The home directory: `~/.claude.json` is read when given (and userFiles is not false), and `~/.claude/settings.json`'s `disabledMcpjsonServers` (absent: only the project's files). */
  homeDir?: string;
  /** Whether the run reads the user's files (CliOptions.settingSources has `user`): `~/.claude.json`. Default true. */
  userFiles?: boolean;
  /** The Claude Code plugins of this run (TOKENS.ClaudePluginBundles): their servers are the user's own. */
  plugins?: readonly ClaudePluginBundle[];
}

export interface AddedServers {
  servers: Readonly<Record<string, unknown>>;
  origins?: Readonly<Record<string, string>>;
}

/** Said for a run's server when nothing says where it came from. */
export const ADDED_ORIGIN = 'servers added by this run';

export interface UntrustedServer {
  name: string;
  where: string;
}

/** An entry that could not be used (a bad key): listed with why, beside the servers, never only warned about. */
export interface SkippedServer {
  name: string;
  where: string;
  reason: string;
}

export interface ServerSources {
  servers: ServerConfig[];
  untrusted: UntrustedServer[];
  skipped?: SkippedServer[];
}

type Skip = (name: string, locate: () => string) => (reason: string) => void;

export async function loadServerSources(given: SourceInputs): Promise<ServerSources> {
  // Strict: nothing configured is read (so nothing of it is warned about either); the run's servers only.
  const inputs: SourceInputs = given.strict ? { ...given, config: undefined, projectFiles: false, userFiles: false, plugins: [] } : given;
  const byName = new Map<string, ServerConfig>();
  // Keyed by the name in tool names: a later source replaces a server of the same name, as ever;
  // two different written names that become the same tool name (`a.b`, `a_b`) are said.
  const put = (server: ServerConfig): void => {
    const earlier = byName.get(server.name);
    const written = (s: ServerConfig): string => s.writtenAs ?? s.name;
    if (earlier && written(earlier) !== written(server)) {
      inputs.warn(`mcp: ${server.where}: MCP server "${written(server)}" has the same name in tool names (mcp__${server.name}__…) as "${written(earlier)}" (${earlier.where}); "${written(server)}" is used`);
    }
    byName.set(server.name, server);
  };
  const untrusted: UntrustedServer[] = [];
  const skipped: SkippedServer[] = [];
  const skip: Skip = (name, locate) => (reason) => skipped.push({ name, where: locate(), reason });
  const expandVar = createVarExpander(inputs.env, inputs.warn);
  const expand = (value: string, where: string, missing: (name: string) => void): string =>
    expandVar(value.replace(VAR_REFERENCE, (match, name: string, fallback: string | undefined) => {
      if (fallback === undefined && (!Object.hasOwn(inputs.env, name) || inputs.env[name] === undefined)) missing(name);
      return match;
    }), where);

  const claudeJson: ClaudeJsonServers =
    inputs.homeDir !== undefined && inputs.userFiles !== false ? readClaudeJsonServers(inputs.homeDir, inputs.projectRoot, expand, inputs.warn, skip) : { user: [], local: [] };
  for (const server of claudeJson.user) put(server);

  const configured = inputs.config?.section('mcp_servers');
  const yamlEntries: [string, unknown, ServerScope][] = [];
  if (configured !== undefined && configured !== null) {
    if (typeof configured !== 'object' || Array.isArray(configured)) {
      inputs.warn(`${inputs.config?.locate(['mcp_servers']) ?? 'config'}: mcp_servers must be a mapping of server names to servers; no configured server is used`);
    } else {
      for (const [name, raw] of Object.entries(configured as Record<string, unknown>)) {
        const scope = (inputs.config && configScopeAt(inputs.config, ['mcp_servers', name])) ?? 'user';
        yamlEntries.push([name, raw, scope]);
      }
    }
  }
  const locateYaml = (name: string) => (key?: string): string =>
    inputs.config?.locate(key ? ['mcp_servers', name, key] : ['mcp_servers', name]) ?? inputs.config?.locate(['mcp_servers', name]) ?? 'config';

  for (const [name, raw, scope] of yamlEntries) {
    if (scope === 'project') continue;
    const server = parseServerEntry(name, raw, 'mewcode', scope, { locate: locateYaml(name), expand, warn: inputs.warn, skipped: skip(name, locateYaml(name)) });
    if (server) put(server);
  }

  for (const server of pluginServers(inputs, expand, skip)) put(server);

  if (inputs.projectFiles !== false) for (const server of await readMcpJson(inputs, expand, untrusted, skip)) put(server);

  for (const [name, raw, scope] of yamlEntries) {
    if (scope !== 'project') continue;
    // loadConfig keeps a project's mcp_servers only once the project is trusted.
    const server = parseServerEntry(name, raw, 'mewcode', scope, { locate: locateYaml(name), expand, warn: inputs.warn, skipped: skip(name, locateYaml(name)) });
    if (server) put(server);
  }
  for (const server of claudeJson.local) put(server);
  if (inputs.added) addRunServers(inputs.added, byName, untrusted, expand, inputs.warn, skip);
  // A name skipped in one source but given by a later one is not "skipped".
  const used = new Set(byName.keys());
  const unused = skipped.filter((entry) => !used.has(serverToolName(entry.name)));
  return { servers: managedOnly([...byName.values()], inputs.managed, inputs.warn), untrusted, ...(unused.length > 0 ? { skipped: unused } : {}) };
}

/**
 * The run's own servers, after every configured one: a name the configuration already uses keeps
 * the configured server. A project server left out for want of trust does not hold its name (it
 * never starts), so the run's server takes it and the untrusted entry is no longer listed.
 */
function addRunServers(
  added: AddedServers,
  byName: Map<string, ServerConfig>,
  untrusted: UntrustedServer[],
  expand: (value: string, where: string, missing: (name: string) => void) => string,
  warn: (message: string) => void,
  skip: Skip,
): void {
  if (typeof added.servers !== 'object' || added.servers === null || Array.isArray(added.servers)) {
    warn(`mcp: ${ADDED_ORIGIN}: expected an object of server names to servers; none of them is used`);
    return;
  }
  for (const [name, raw] of Object.entries(added.servers)) {
    const origin = added.origins?.[name] ?? ADDED_ORIGIN;
    const configured = byName.get(serverToolName(name));
    if (configured) {
      warn(`mcp: ${origin}: MCP server "${name}" is not used: the configured server of that name (${configured.where}) is kept`);
      continue;
    }
    const server = parseServerEntry(name, raw, 'claude', 'run', { locate: () => origin, expand, warn, skipped: skip(name, () => origin) });
    if (!server) continue;
    byName.set(server.name, server);
    for (let i = untrusted.length - 1; i >= 0; i--) if (untrusted[i]!.name === name) untrusted.splice(i, 1);
  }
}

/**
 * A plugin's servers, as Claude Code names them: `plugin_<plugin>_<server>` (so its tools are
 * `mcp__plugin_<plugin>_<server>__<tool>` and never collide with the user's). User scope: the user
 * chose the plugin, so no workspace trust; the managed allow- and deny-lists still apply by that name.
 */
function pluginServers(inputs: SourceInputs, expand: (value: string, where: string, missing: (name: string) => void) => string, skip: Skip): ServerConfig[] {
  const found: ServerConfig[] = [];
  for (const bundle of inputs.plugins ?? []) {
    if (!bundle.loaded) continue;
    for (const part of bundle.mcpServers) {
      for (const [server, raw] of Object.entries(part.value)) {
        const name = `plugin_${bundle.name}_${server}`;
        const locate = (key?: string): string => {
          const pos = part.locate(key ? [server, key] : [server]);
          return pos ? `${part.file}:${pos.line}:${pos.col}` : part.file;
        };
        const parsed = parseServerEntry(name, raw, 'claude', 'user', { locate, expand, warn: inputs.warn, skipped: skip(name, () => locate()) });
        if (parsed) found.push(parsed);
      }
    }
  }
  return found;
}

/** The servers managed settings let start; each one left out is said (never skipped silently). */
function managedOnly(servers: readonly ServerConfig[], managed: ManagedPolicy | undefined, warn: (message: string) => void): ServerConfig[] {
  if (!managed) return [...servers];
  const allowed = managed.mcp.allowedServers;
  return servers.filter((server) => {
    // A rule may name the server as written (`a.b`) or as in tool names (`a_b`): either matches.
    const names = server.writtenAs ? [server.name, server.writtenAs] : [server.name];
    const denied = managed.mcp.deniedServers.find((entry) => names.includes(entry.rule));
    if (denied) {
      warn(`mcp: ${server.where}: server "${server.name}" is not started: managed settings deny it (${denied.where})`);
      return false;
    }
    if (allowed && !names.some((name) => allowed.value.includes(name))) {
      const list = allowed.value.length > 0 ? allowed.value.join(', ') : 'none';
      warn(`mcp: ${server.where}: server "${server.name}" is not started: managed settings allow only these MCP servers: ${list} (${allowed.where})`);
      return false;
    }
    return true;
  });
}

async function readMcpJson(
  inputs: SourceInputs,
  expand: (value: string, where: string, missing: (name: string) => void) => string,
  untrusted: UntrustedServer[],
  skip: Skip,
): Promise<ServerConfig[]> {
  const found: ServerConfig[] = [];
  const file = path.join(inputs.projectRoot, MCP_JSON);
  // A repository may make it a FIFO (a read that never ends), a link to /dev/zero or out of the
  // project: only a regular file really inside the project, within the size limit, is read.
  const read = readConfigFile(file, inputs.projectRoot);
  if (!read.ok) {
    if (!read.missing) inputs.warn(`${file}: cannot be read: ${read.reason}; its MCP servers are not used`);
    return found;
  }
  const text = read.text;
  const parsed = parseConfigText(file, text);
  if (parsed.error) {
    inputs.warn(`${parsed.error}; its MCP servers are not used`);
    return found;
  }
  for (const warning of parsed.warnings) inputs.warn(warning);
  const serversNode = parsed.root.entries.get('mcpServers');
  if (serversNode === undefined) return found;
  if (serversNode.kind !== 'map') {
    inputs.warn(`${formatPos(serversNode.pos)}: mcpServers must be an object of server names to servers; no server of ${MCP_JSON} is used`);
    return found;
  }
  const names = [...serversNode.entries.keys()];
  // Claude Code's `disabledMcpjsonServers` (claude-mcp-switches.ts): listed as disabled, never started.
  const disabled = names.length > 0 ? disabledMcpJsonServers(inputs.projectRoot, inputs.homeDir ?? inputs.projectRoot, inputs.warn) : new Map<string, string>();
  const trusted = inputs.trust ? inputs.trust.approves(file, 'mcpServers', text) : false;
  if (!trusted) {
    for (const name of names) untrusted.push({ name, where: formatPos(serversNode.entries.get(name)!.pos) });
    if (!inputs.trust && names.length > 0) inputs.warn(`${file}: this build has no workspace trust service, so the project's MCP servers (${names.join(', ')}) are not started`);
    return found;
  }
  for (const name of names) {
    const node = serversNode.entries.get(name)!;
    const locate = (key?: string): string => {
      const child = key && node.kind === 'map' ? (node as LocatedMap).entries.get(key) : undefined;
      return formatPos((child ?? node).pos);
    };
    const server = parseServerEntry(name, toPlain(node), 'claude', 'mcp.json', { locate, expand, warn: inputs.warn, skipped: skip(name, () => locate()) });
    const off = disabled.get(name);
    if (server) found.push(off === undefined ? server : { ...server, enabled: false, where: `${server.where} (disabled by disabledMcpjsonServers at ${off})` });
  }
  return found;
}
