/**
 * One-line descriptions of trust-requiring settings for the dialog and the headless notice.
 * The text comes from a repository, so it is made terminal-safe (control, bidi and zero-width
 * characters escaped) and cut. Literal keys and header values are never shown (they may be the
 * user's own secrets in a tracked local file); `${VAR}` references are, because which of the
 * user's variables a project wants sent somewhere is exactly what the user must see.
 */
import { parseJsonWithinDepth } from './nesting-depth.js';
import { UNSAFE_TERMINAL_CHARACTERS } from './terminal-safe.js';
import { canonicalJson } from './canonical-json.js';
import { VAR_REFERENCE } from './expand.js';

const MAX_SUMMARY = 200;
// C0/C1 controls, DEL, zero-width and bidi controls, line/paragraph separators, BOM.
const UNSAFE = UNSAFE_TERMINAL_CHARACTERS;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function cut(text: string): string {
  const safe = terminalSafe(text);
  return safe.length > MAX_SUMMARY ? `${safe.slice(0, MAX_SUMMARY - 1)}…` : safe;
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const scalar = (value: unknown): string => (typeof value === 'string' ? value : canonicalJson(value));
const list = (value: unknown): string => (Array.isArray(value) ? value.map(scalar).join(', ') : scalar(value));

/**
 * The user's variables a secret-bearing value sends (`${VAR}`, and `${VAR:-default}` as
 * `${VAR:-…}`: the default may be a literal key), or "set" for a literal alone.
 */
function secret(value: unknown): string {
  if (typeof value !== 'string') return 'set';
  const refs = [...value.matchAll(VAR_REFERENCE)].map(([, name, fallback]) => (fallback === undefined ? `\${${name}}` : `\${${name}:-…}`));
  return refs.length > 0 ? refs.join(' ') : 'set';
}

/** `headers Authorization=${GITHUB_TOKEN} X-Team`: each name, with the variables its value sends. */
function secretMap(label: string, value: unknown): string | undefined {
  if (!isMap(value) || Object.keys(value).length === 0) return undefined;
  const entries = Object.entries(value).map(([name, item]) => (secret(item) === 'set' ? name : `${name}=${secret(item)}`));
  return `${label} ${entries.join(' ')}`;
}

function provider(entry: unknown): string {
  if (!isMap(entry)) return scalar(entry);
  const parts: string[] = [];
  if (entry.protocol !== undefined) parts.push(scalar(entry.protocol));
  for (const key of ['base_url', 'baseURL', 'url', 'model']) if (entry[key] !== undefined) parts.push(`${key} ${scalar(entry[key])}`);
  if (entry.api_key !== undefined) parts.push(`api_key ${secret(entry.api_key)}`);
  const headers = secretMap('headers', entry.headers);
  if (headers !== undefined) parts.push(headers);
  const name = entry.name === undefined ? '(unnamed)' : scalar(entry.name);
  return parts.length > 0 ? `${name} (${parts.join(', ')})` : name;
}

function mcpServer(name: string, server: unknown): string {
  if (!isMap(server)) return name;
  const command = server.command !== undefined ? [server.command, ...(Array.isArray(server.args) ? server.args : [])].map(scalar).join(' ') : undefined;
  const target = command ?? (server.url !== undefined ? scalar(server.url) : undefined);
  // What the server is sent of the user's: request headers (an http server) and environment (a
  // command), each by name with the variables it takes.
  const sent = [secretMap('headers', server.headers), secretMap('env', server.env)].filter((part): part is string => part !== undefined);
  const shown = target === undefined ? name : `${name}: ${target}`;
  return sent.length > 0 ? `${shown} (${sent.join(', ')})` : shown;
}

/** A summary of a value found under `key` in a settings file. */
export function summarize(key: string, value: unknown): string {
  switch (key) {
    case 'providers':
      return cut(Array.isArray(value) ? value.map(provider).join('; ') : scalar(value));
    case 'mcp_servers':
      return cut(isMap(value) ? Object.entries(value).map(([name, server]) => mcpServer(name, server)).join('; ') : scalar(value));
    case 'hooks':
      return cut(isMap(value) ? Object.keys(value).join(', ') : scalar(value));
    case 'enabledPlugins':
      return cut(isMap(value) ? Object.entries(value).map(([id, on]) => (on === false ? `${id} (off)` : id)).join(', ') : scalar(value));
    case 'extraKnownMarketplaces':
      return cut(isMap(value) ? Object.entries(value).map(([name, entry]) => (isMap(entry) && isMap(entry.source) ? `${name} (${Object.values(entry.source).map(scalar).join(' ')})` : name)).join('; ') : scalar(value));
    case 'plugins':
    case 'permissions.allow':
    case 'disable':
    case 'bash.env_allowlist':
    case 'permissions.additional_directories':
    case 'permissions.additionalDirectories':
      return cut(list(value));
    default:
      return cut(scalar(value));
  }
}

/** A configured plugin's section: its keys only (its values may be a plugin's secrets). */
export function summarizePluginSection(value: unknown): string {
  return cut(isMap(value) ? `the configuration section of a plugin (keys: ${Object.keys(value).join(', ') || 'none'})` : 'the configuration section of a plugin');
}

/** A summary of a whole file that needs trust (`.mcp.json`, `.mewcode/hooks.yaml`). */
export function summarizeFile(key: string, text: string): string {
  if (key === 'mcpServers') {
    try {
      const servers = (parseJsonWithinDepth(text) as { mcpServers?: unknown }).mcpServers;
      if (isMap(servers)) return cut(Object.entries(servers).map(([name, server]) => mcpServer(name, server)).join('; '));
    } catch {
      // described by size below
    }
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#')).length;
  return `the whole file (${lines} line${lines === 1 ? '' : 's'})`;
}

/** `runs hooks (PreToolUse: ./guard.sh, …)`: a definition file's own frontmatter hooks, or undefined when it has none. */
function hooksPart(hooks: readonly string[] | undefined): string | undefined {
  if (hooks === undefined) return undefined;
  return hooks.length > 0 ? `runs hooks (${hooks.join(', ')})` : 'runs hooks';
}

/**
 * A custom command file that runs something or pre-approves tools: its name, the commands of its
 * `` !`…` `` lines, its `allowed-tools` and its own hooks (`hooks`: their `Event: command`s; undefined: it has none).
 */
export function summarizeCommandFile(name: string, commands: readonly string[], allowedTools: readonly string[] = [], hooks?: readonly string[]): string {
  const ran = hooksPart(hooks);
  const parts = [
    ...(commands.length > 0 ? [`runs ${commands.map((command) => `!\`${command}\``).join(', ')}`] : []),
    ...(allowedTools.length > 0 ? [`pre-approves ${allowedTools.join(', ')} for its turn`] : []),
    ...(ran !== undefined ? [ran] : []),
  ];
  return cut(`/${name} ${parts.join('; ')}`);
}

/** A project's skill whose SKILL.md runs something: its name, the commands of its `` !`…` `` lines and its own hooks. */
export function summarizeSkillFile(name: string, commands: readonly string[], hooks?: readonly string[]): string {
  const ran = hooksPart(hooks);
  const parts = [...(commands.length > 0 ? [`runs ${commands.map((command) => `!\`${command}\``).join(', ')}`] : []), ...(ran !== undefined ? [ran] : [])];
  return cut(`skill ${name} ${parts.join('; ')}`);
}
