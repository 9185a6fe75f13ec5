/**
 * The MCP servers an editor passes in `session/new` / `session/load`, in the `.mcp.json`
 * `mcpServers` shape that `CliOptions.mcpServers` takes (the mcp plugin validates them like any
 * other entry, so a bad one is skipped loudly by name). ACP lists env and headers as
 * `{name, value}` pairs; `.mcp.json` keys them by name.
 */
import type { McpServer } from '@agentclientprotocol/sdk';

export interface ConvertedServers {
  servers: Record<string, unknown>;
  /** One line per server that could not be taken (a duplicate name). */
  warnings: string[];
}

/** Keyed by names the editor chose: no prototype, so `__proto__` or `constructor` is a key like any other. */
function pairs(list: readonly { name: string; value: string }[] | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const { name, value } of list ?? []) out[name] = value;
  return out;
}

export function mcpServersFromAcp(list: readonly McpServer[] | undefined): ConvertedServers {
  const servers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const warnings: string[] = [];
  for (const server of list ?? []) {
    if (Object.hasOwn(servers, server.name)) {
      warnings.push(`MCP server "${server.name}" is listed twice by the editor; the first entry is used`);
      continue;
    }
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      servers[server.name] = { type: server.type, url: server.url, headers: pairs(server.headers) };
    } else {
      const stdio = server as Extract<McpServer, { command: string }>;
      servers[server.name] = { type: 'stdio', command: stdio.command, args: [...(stdio.args ?? [])], env: pairs(stdio.env) };
    }
  }
  return { servers, warnings };
}
