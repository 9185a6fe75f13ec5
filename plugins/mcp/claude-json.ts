/**
 * `~/.claude.json`: where `claude mcp add` writes the user's MCP servers — `mcpServers` (its
 * "user" scope, every project) and `projects[<project path>].mcpServers` (its default "local"
 * scope: this project, this user only). Both are the user's own choice, kept in the user's own
 * private file outside any repository, so, as in Claude Code, they need no workspace trust (the
 * managed allow- and deny-lists still apply). Only those keys are read; the rest of the file
 * (history, tips, account state) is not MewCode's business. The file is often large, hence its
 * own cap; a file that cannot be used is said once, naming it.
 */
import { parseJsonWithinDepth } from '../../config/nesting-depth.js';
import { realpathSync } from 'node:fs';
import { parseServerEntry, type ServerConfig } from './server-config.js';
import { readClaudeJson } from './claude-json-probe.js';

export interface ClaudeJsonServers {
  user: ServerConfig[];
  local: ServerConfig[];
}

type Expand = (value: string, where: string, missing: (name: string) => void) => string;

export function readClaudeJsonServers(
  homeDir: string,
  projectRoot: string,
  expand: Expand,
  warn: (message: string) => void,
  skip?: (name: string, locate: () => string) => (reason: string) => void,
): ClaudeJsonServers {
  const found: ClaudeJsonServers = { user: [], local: [] };
  const { file, read } = readClaudeJson(homeDir);
  if (!read.ok) {
    if (!read.missing) warn(`${file}: cannot be read: ${read.reason}; the MCP servers \`claude mcp add\` stored there are not used`);
    return found;
  }
  let root: unknown;
  try {
    root = parseJsonWithinDepth(read.text);
  } catch (error) {
    warn(`${file}: not valid JSON (${(error as Error).message}); the MCP servers \`claude mcp add\` stored there are not used`);
    return found;
  }
  if (!isObject(root)) return found;
  found.user = entries(root.mcpServers, 'mcpServers', 'user');
  // Claude Code keys a project by the directory it was started in; the real path matches a link to it too.
  const projects = isObject(root.projects) ? root.projects : {};
  const keys = new Set([projectRoot, realPath(projectRoot)]);
  for (const key of keys) {
    const project = Object.hasOwn(projects, key) ? projects[key] : undefined;
    if (isObject(project)) found.local.push(...entries(project.mcpServers, `projects[${JSON.stringify(key)}].mcpServers`, 'local'));
  }
  return found;

  function entries(servers: unknown, at: string, scope: 'user' | 'local'): ServerConfig[] {
    if (servers === undefined) return [];
    if (!isObject(servers)) {
      warn(`${file}: ${at} must be an object of server names to servers; none of them is used`);
      return [];
    }
    const out: ServerConfig[] = [];
    for (const [name, raw] of Object.entries(servers)) {
      const locate = (key?: string): string => `${file} (${at}.${name}${key ? `.${key}` : ''}, claude mcp add's ${scope} scope)`;
      const server = parseServerEntry(name, raw, 'claude', scope, { locate, expand, warn, ...(skip ? { skipped: skip(name, () => locate()) } : {}) });
      if (server) out.push(server);
    }
    return out;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
