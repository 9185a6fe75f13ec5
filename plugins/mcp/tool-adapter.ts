/**
 * An MCP tool as a MewCode tool (M6): `mcp__<server>__<tool>`, the description or a
 * fallback, the input schema passed through (`{type: object}` when the server gives none),
 * read-only only when `readOnlyHint === true`; the other hints travel to hooks as `hints`.
 * Permission rules match the full name (`mcp__server__tool`, `mcp__server__*`), so there is no
 * path or command target. A call never throws (K1): every failure is an error result.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { OutputLimits } from '../../types/output-limits.js';
import type { JsonSchema, Tool, ToolHints } from '../../types/tools.js';
import { describeError, type McpConnection } from './connection.js';
import { toToolOutput, type McpCallResult } from './content.js';
import { NAME_PATTERN } from './server-config.js';

/** The longest tool name every provider takes (OpenAI: 64). */
export const MAX_TOOL_NAME_LENGTH = 64;
/** The kernel waits this much longer than the MCP timeout, so the server's timeout speaks first. */
const OUTER_TIMEOUT_MARGIN_MS = 2_000;

export const mcpToolName = (server: string, tool: string): string => `mcp__${server}__${tool}`;

export interface AdapterDeps {
  limits(): OutputLimits | undefined;
  warn(message: string): void;
}

export function adaptTools(connection: McpConnection, deps: AdapterDeps): Tool[] {
  const tools: Tool[] = [];
  for (const tool of connection.tools) {
    const name = mcpToolName(connection.name, tool.name);
    if (!NAME_PATTERN.test(tool.name)) {
      deps.warn(`mcp: server "${connection.name}" offers a tool named ${JSON.stringify(tool.name)}, which is not a valid tool name (letters, digits, "_", "-"); it is skipped`);
      continue;
    }
    if (name.length > MAX_TOOL_NAME_LENGTH) {
      deps.warn(`mcp: ${name} is longer than ${MAX_TOOL_NAME_LENGTH} characters, which providers refuse; it is skipped (a shorter server name helps)`);
      continue;
    }
    tools.push(adaptTool(connection, tool, name, deps));
  }
  return tools;
}

function inputSchemaOf(tool: McpTool): JsonSchema {
  const schema = tool.inputSchema as JsonSchema | undefined;
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return { type: 'object' };
  return schema.type === undefined ? { ...schema, type: 'object' } : schema;
}

function hintsOf(server: string, tool: McpTool): ToolHints {
  const annotations = tool.annotations ?? {};
  const hints: ToolHints = { mcp: { server, tool: tool.name } };
  const title = tool.title ?? annotations.title;
  if (title !== undefined) hints.title = title;
  if (annotations.destructiveHint !== undefined) hints.destructive = annotations.destructiveHint;
  if (annotations.idempotentHint !== undefined) hints.idempotent = annotations.idempotentHint;
  if (annotations.openWorldHint !== undefined) hints.openWorld = annotations.openWorldHint;
  return hints;
}

function adaptTool(connection: McpConnection, tool: McpTool, name: string, deps: AdapterDeps): Tool {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const timeoutMs = connection.config.toolTimeoutsMs.get(tool.name) ?? connection.config.callTimeoutMs;
  const description = tool.description?.trim() || tool.title || `Tool "${tool.name}" of the MCP server "${connection.name}".`;
  return {
    name,
    description,
    inputSchema: inputSchemaOf(tool),
    readOnly,
    category: readOnly ? 'read' : 'exec',
    hints: hintsOf(connection.name, tool),
    permissionTarget: () => ({ kind: 'none' }),
    timeoutMs: () => timeoutMs + OUTER_TIMEOUT_MARGIN_MS,
    async execute(input, context) {
      try {
        const progress = context.progress;
        const onProgress = progress ? (update: { progress: number; total?: number; message?: string }) => progress({ ...update }) : undefined;
        const result = (await connection.callTool(tool.name, input, { signal: context.signal, timeoutMs, ...(onProgress ? { onProgress } : {}) })) as McpCallResult;
        return await toToolOutput(result, deps.limits(), context.toolCallId, context.sessionId);
      } catch (error) {
        return { content: callFailure(connection.name, tool.name, timeoutMs, error, context.signal), isError: true };
      }
    },
  };
}

function callFailure(server: string, tool: string, timeoutMs: number, error: unknown, signal: AbortSignal): string {
  const code = (error as { code?: unknown }).code;
  if (signal.aborted) return `The call of ${tool} on MCP server "${server}" was cancelled.`;
  // -32001: the SDK's RequestTimeout.
  if (code === -32001) return `MCP server "${server}" did not answer ${tool} within ${timeoutMs} ms (its timeout_ms); the request was cancelled. Try again, or with less work per call.`;
  return `MCP tool ${tool} on server "${server}" failed: ${describeError(error)}`;
}
