/**
 * MCP server entries (M2–M4): validated one by one, so one bad entry is skipped loudly and
 * the rest load (K2). Two shapes:
 * - MewCode's `mcp_servers:` (`~/.mewcode/config.yaml`, `.mewcode.yaml`, …): `type` is required
 *   ("missing type" is its own message), snake_case keys;
 * - Claude Code's `.mcp.json` `mcpServers`: `type` defaults to stdio (what Claude Code does).
 * `${VAR}` (and `${VAR:-default}`) is expanded only in `env` and `headers` values (M3); an
 * undefined variable becomes empty, is warned about once, and is listed in the server's status;
 * a `${` left in any value that reaches the server is warned about, naming file and key.
 */
import { terminalSafe } from '../../config/terminal-safe.js';
/** `run`: added by this run (CliOptions.mcpServers: `--mcp-config`, an editor, the programmatic API). */
export type ServerScope = 'user' | 'project' | 'local' | 'mcp.json' | 'run';

interface CommonServerConfig {
  /** The name in tool names (`mcp__<name>__<tool>`), status and logs: as written, or as serverToolName made it. */
  name: string;
  /** The name as the configuration wrote it, when serverToolName changed it (`awslabs.aws-documentation-mcp-server`). */
  writtenAs?: string;
  /** Where it was written: `file:line:col` and the scope that decides whether it needs trust. */
  where: string;
  scope: ServerScope;
  enabled: boolean;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** Per-tool call timeouts, by the server's own tool name. */
  toolTimeoutsMs: ReadonlyMap<string, number>;
  /** `${VAR}` references that were not set (they became empty strings). */
  undefinedVariables: string[];
}

export interface StdioServerConfig extends CommonServerConfig {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Run inside the OS command sandbox (fails closed when it cannot). */
  sandbox: boolean;
}

export interface RemoteServerConfig extends CommonServerConfig {
  /** `http`: Streamable HTTP, falling back to legacy SSE on a 4xx; `sse`: legacy SSE only. */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** M5: connect + list tools within 30 s. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Tool calls: the kernel's default tool timeout. */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** The longest call timeout a server entry may ask for (the kernel's tool limit is the outer one). */
export const MAX_TIMEOUT_MS = 600_000;

/** Server names become part of tool names: `mcp__<server>__<tool>` (M6). */
export const NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * A server's name in tool names, as Claude Code makes it: every character a tool name cannot hold
 * becomes `_` (`awslabs.aws-documentation-mcp-server` → `awslabs_aws-documentation-mcp-server`).
 * Two names that become the same are told apart by whoever merges them (server-sources.ts).
 */
export const serverToolName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, '_');

export interface ParseContext {
  /** `file:line:col` of a key inside the entry, or of the entry when the key is absent. */
  locate(key?: string): string;
  expand(value: string, where: string, missing: (name: string) => void): string;
  warn(message: string): void;
  /** Told why an entry is skipped (after the warning), so a list can show it beside the servers. */
  skipped?(reason: string): void;
}

type Shape = 'mewcode' | 'claude';

const KEYS: Record<Shape, Record<string, string>> = {
  // our spelling → canonical
  mewcode: { type: 'type', command: 'command', args: 'args', env: 'env', cwd: 'cwd', url: 'url', headers: 'headers', timeout_ms: 'timeout', connect_timeout_ms: 'connectTimeout', tools: 'tools', enabled: 'enabled', sandbox: 'sandbox' },
  // Claude Code's keys, plus ours for what it has no word for
  claude: { type: 'type', command: 'command', args: 'args', env: 'env', cwd: 'cwd', url: 'url', headers: 'headers', timeout: 'timeout', timeout_ms: 'timeout', connect_timeout_ms: 'connectTimeout', tools: 'tools', enabled: 'enabled', disabled: 'disabled', sandbox: 'sandbox' },
};

class EntryError extends Error {}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One entry; undefined (after a warning naming the file, line and key) when it cannot be used. */
export function parseServerEntry(name: string, raw: unknown, shape: Shape, scope: ServerScope, context: ParseContext): ServerConfig | undefined {
  const fail = (key: string | undefined, message: string): never => {
    throw new EntryError(`${context.locate(key)}: MCP server ${JSON.stringify(name)}${key ? ` ${key}` : ''}: ${message}; the server is skipped`);
  };
  try {
    if (name === '') fail(undefined, 'a server needs a name');
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) fail(undefined, 'the name holds a control character');
    if (!isMap(raw)) fail(undefined, 'expected a mapping');
    const entry = raw as Record<string, unknown>;
    const known = KEYS[shape];
    for (const key of Object.keys(entry)) {
      if (!Object.hasOwn(known, key)) context.warn(`${context.locate(key)}: MCP server ${JSON.stringify(name)}: unknown key "${terminalSafe(key)}" is ignored`);
    }
    const get = (canonical: string): [string, unknown] | undefined => {
      for (const [key, value] of Object.entries(entry)) if (known[key] === canonical) return [key, value];
      return undefined;
    };
    const string = (canonical: string): string | undefined => {
      const found = get(canonical);
      if (found === undefined || found[1] === undefined || found[1] === null) return undefined;
      if (typeof found[1] !== 'string' || found[1] === '') fail(found[0], 'expected a non-empty string');
      return found[1] as string;
    };
    const bool = (canonical: string): boolean | undefined => {
      const found = get(canonical);
      if (found === undefined || found[1] === undefined) return undefined;
      if (typeof found[1] !== 'boolean') fail(found[0], 'expected true or false');
      return found[1] as boolean;
    };
    const timeout = (key: string, value: unknown): number => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > MAX_TIMEOUT_MS) fail(key, `expected a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
      return value as number;
    };
    const undefinedVariables: string[] = [];
    // Only env and headers are expanded: a `${` anywhere else reaches the server as written, and
    // one left after expansion (`$${X}`, `${X:=y}`) too; each is said, never passed on silently.
    const asWritten = (key: string, shown: string, value: string, why: string): void => {
      if (value.includes('${')) context.warn(`${context.locate(key)}: MCP server ${JSON.stringify(name)} ${shown}: ${JSON.stringify(value)} is passed on as written: ${why}`);
    };
    const NOT_HERE = 'MewCode expands ${VAR} and ${VAR:-default} only in env and headers values';
    const stringMap = (canonical: string): Record<string, string> => {
      const found = get(canonical);
      if (found === undefined || found[1] === undefined || found[1] === null) return {};
      if (!isMap(found[1])) fail(found[0], 'expected a mapping of names to strings');
      const out: Record<string, string> = {};
      for (const [key, value] of Object.entries(found[1] as Record<string, unknown>)) {
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') fail(`${found[0]}.${key}`, 'expected a string');
        out[key] = context.expand(String(value), `mcp server "${name}" ${found[0]}.${key}`, (variable) => {
          if (!undefinedVariables.includes(variable)) undefinedVariables.push(variable);
        });
        asWritten(found[0], `${found[0]}.${key}`, out[key]!, 'only ${NAME} and ${NAME:-default} are expanded');
      }
      return out;
    };

    const typeFound = get('type');
    let type = typeFound?.[1];
    if (type === undefined || type === null) {
      if (shape === 'mewcode') fail(undefined, 'missing type (stdio or http)');
      type = get('url') && !get('command') ? 'http' : 'stdio';
    }
    if (type === 'streamable-http' || type === 'streamableHttp') type = 'http';
    if (type !== 'stdio' && type !== 'http' && type !== 'sse') fail(typeFound?.[0] ?? 'type', `type must be stdio, http or sse, not ${JSON.stringify(type)}`);

    const callTimeout = get('timeout');
    const connectTimeout = get('connectTimeout');
    const toolTimeoutsMs = new Map<string, number>();
    const tools = get('tools');
    if (tools !== undefined && tools[1] !== null) {
      if (!isMap(tools[1])) fail(tools[0], 'expected a mapping of tool names to { timeout_ms }');
      for (const [tool, settings] of Object.entries(tools[1] as Record<string, unknown>)) {
        if (!isMap(settings) || Object.keys(settings).some((key) => key !== 'timeout_ms')) fail(`${tools[0]}.${tool}`, 'expected { timeout_ms: <ms> }');
        const value = (settings as Record<string, unknown>).timeout_ms;
        if (value !== undefined) toolTimeoutsMs.set(tool, timeout(`${tools[0]}.${tool}.timeout_ms`, value));
      }
    }
    const disabled = bool('disabled');
    const toolName = serverToolName(name);
    const common: CommonServerConfig = {
      name: toolName,
      ...(toolName !== name ? { writtenAs: name } : {}),
      where: context.locate(),
      scope,
      enabled: (bool('enabled') ?? true) && disabled !== true,
      connectTimeoutMs: connectTimeout ? timeout(connectTimeout[0], connectTimeout[1]) : DEFAULT_CONNECT_TIMEOUT_MS,
      callTimeoutMs: callTimeout ? timeout(callTimeout[0], callTimeout[1]) : DEFAULT_CALL_TIMEOUT_MS,
      toolTimeoutsMs,
      undefinedVariables,
    };

    if (type === 'stdio') {
      const command = string('command') ?? fail(undefined, 'type stdio needs a command');
      const argsFound = get('args');
      const args = argsFound?.[1] ?? [];
      if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string' && typeof arg !== 'number')) fail(argsFound?.[0] ?? 'args', 'expected a list of strings');
      for (const key of ['url', 'headers']) if (get(key)) context.warn(`${context.locate(get(key)![0])}: MCP server ${JSON.stringify(name)}: ${get(key)![0]} does nothing for a stdio server`);
      const cwd = string('cwd');
      asWritten(get('command')![0], get('command')![0], command, NOT_HERE);
      (args as unknown[]).forEach((arg, i) => asWritten(argsFound![0], `${argsFound![0]}[${i}]`, String(arg), NOT_HERE));
      if (cwd !== undefined) asWritten(get('cwd')![0], get('cwd')![0], cwd, NOT_HERE);
      const config: StdioServerConfig = { ...common, type, command, args: (args as unknown[]).map(String), env: stringMap('env'), sandbox: bool('sandbox') ?? false };
      if (cwd !== undefined) config.cwd = cwd;
      return config;
    }
    const url = string('url') ?? fail(undefined, `type ${type} needs a url`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return fail(get('url')![0], `${JSON.stringify(url)} is not a URL${url.includes('${') ? ` (${NOT_HERE})` : ''}`);
    }
    asWritten(get('url')![0], get('url')![0], url, NOT_HERE);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(get('url')![0], 'the url must start with http:// or https://');
    for (const key of ['command', 'args', 'env', 'sandbox']) if (get(key)) context.warn(`${context.locate(get(key)![0])}: MCP server ${JSON.stringify(name)}: ${get(key)![0]} does nothing for a ${type} server`);
    return { ...common, type: type as 'http' | 'sse', url, headers: stringMap('headers') };
  } catch (error) {
    if (error instanceof EntryError) {
      context.warn(error.message);
      context.skipped?.(error.message);
      return undefined;
    }
    throw error;
  }
}
