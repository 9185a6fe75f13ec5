/**
 * `--mcp-config <file-or-json>` (Claude Code's flag, repeatable): MCP servers this run adds, from
 * a JSON file or a JSON text on the command line, each holding `{"mcpServers": {...}}` as
 * `.mcp.json` does. A value that cannot be used at all (a missing or unreadable file, not JSON, no
 * `mcpServers` object) is a usage error naming it; the entries themselves are checked one by one
 * by the mcp plugin, which skips a bad one loudly and keeps the rest.
 */
import path from 'node:path';
import { readConfigFile } from '../config/config-file.js';

/** What an inline value is called in messages. */
export const INLINE_ORIGIN = '--mcp-config';

export interface McpConfigServers {
  servers: Record<string, unknown>;
  /** Where each server was given: the file's path, or `--mcp-config` for inline JSON. */
  origins: Record<string, string>;
}

/** The servers of every value, a later value's server replacing an earlier one of the same name. */
export function readMcpConfigFlags(values: readonly string[], cwd: string): McpConfigServers | { error: string } {
  const result: McpConfigServers = { servers: {}, origins: {} };
  for (const value of values) {
    const read = readOne(value, cwd);
    if ('error' in read) return read;
    for (const [name, entry] of Object.entries(read.servers)) {
      result.servers[name] = entry;
      result.origins[name] = read.origin;
    }
  }
  return result;
}

function readOne(value: string, cwd: string): { servers: Record<string, unknown>; origin: string } | { error: string } {
  const trimmed = value.trim();
  if (trimmed === '') return { error: '--mcp-config needs a JSON file or a JSON text ({"mcpServers": {…}})' };
  const inline = trimmed.startsWith('{');
  const origin = inline ? INLINE_ORIGIN : path.resolve(cwd, trimmed);
  let text = trimmed;
  if (!inline) {
    const read = readConfigFile(origin);
    if (!read.ok) return { error: `--mcp-config ${origin}: ${read.missing ? 'cannot be read: no such file' : read.reason}` };
    text = read.text;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `${inline ? INLINE_ORIGIN : `--mcp-config ${origin}`}: not valid JSON: ${(error as Error).message}` };
  }
  const servers = isObject(parsed) ? parsed.mcpServers : undefined;
  if (!isObject(servers)) return { error: `${inline ? INLINE_ORIGIN : `--mcp-config ${origin}`}: expected {"mcpServers": {<name>: {…}}}, as in .mcp.json` };
  return { servers, origin };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
