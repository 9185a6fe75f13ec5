/**
 * The context budget. When the MCP tools' definitions would take more than a
 * share of the context window (default 10 %), they are not all sent: `mcp_tool_search` is
 * offered instead, and the tools it finds are added to the tool list from the model's next step
 * (the kernel refreshes tools between turns), under their own names, so permission rules and
 * hooks see `mcp__server__tool` calls as always. A found tool stays loaded for the session.
 */
import type { Tool, ToolDefinition } from '../../types/tools.js';
import { toolDefinition } from '../../types/tools.js';

export const TOOL_SEARCH_NAME = 'mcp_tool_search';
export const DEFAULT_SEARCH_RESULTS = 5;
export const MAX_SEARCH_RESULTS = 20;
/** The kernel's estimate: characters / 3.5 per token (kernel/context-estimate.ts). */
const CHARS_PER_TOKEN = 3.5;

export function estimateDefinitionTokens(tools: readonly Tool[]): number {
  let chars = 0;
  for (const tool of tools) chars += JSON.stringify(toolDefinition(tool)).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 1);
}

/** Best matches first: whole-name hits, then name words, then description words. */
export function searchTools(tools: readonly Tool[], query: string, limit: number): Tool[] {
  const trimmed = query.trim();
  const select = /^select:(.+)$/i.exec(trimmed);
  if (select) {
    const wanted = new Set(select[1]!.split(',').map((name) => name.trim()));
    return tools.filter((tool) => wanted.has(tool.name)).slice(0, limit);
  }
  const terms = words(trimmed);
  if (terms.length === 0) return [];
  const scored: { tool: Tool; score: number }[] = [];
  for (const tool of tools) {
    const name = tool.name.toLowerCase();
    const nameWords = new Set(words(tool.name));
    const descriptionWords = new Set(words(tool.description));
    let score = name.includes(trimmed.toLowerCase()) ? 10 : 0;
    for (const term of terms) {
      if (nameWords.has(term)) score += 4;
      else if (name.includes(term)) score += 2;
      if (descriptionWords.has(term)) score += 1;
    }
    if (score > 0) scored.push({ tool, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1));
  return scored.slice(0, limit).map((entry) => entry.tool);
}

export interface ToolSearchDeps {
  /** Every MCP tool that is not sent (deferred), sorted by name. */
  deferred(): readonly Tool[];
  /** Add these to the tool list from the next step on. */
  load(names: readonly string[]): void;
}

export function createToolSearchTool(deps: ToolSearchDeps, deferredNames: readonly string[]): Tool {
  return {
    name: TOOL_SEARCH_NAME,
    description:
      'Find tools of the connected MCP servers. Their definitions are not sent with every request (there are too many); ' +
      'search by what you need ("query": words, or "select:<full name>,<full name>"), and the matching tools become callable from your next step, ' +
      `under their full names. Tools available this way: ${deferredNames.join(', ')}.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words describing the tool you need, or select:<name>,<name> for exact names.' },
        max_results: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, description: `At most this many tools (default ${DEFAULT_SEARCH_RESULTS}).` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    readOnly: true,
    permissionTarget: () => ({ kind: 'none' }),
    async execute(input) {
      const query = typeof input.query === 'string' ? input.query : '';
      if (query.trim() === '') return { content: 'Error: "query" must be a non-empty string.', isError: true };
      const requested = typeof input.max_results === 'number' && Number.isInteger(input.max_results) ? input.max_results : DEFAULT_SEARCH_RESULTS;
      const limit = Math.min(MAX_SEARCH_RESULTS, Math.max(1, requested));
      const found = searchTools(deps.deferred(), query, limit);
      if (found.length === 0) return { content: `No MCP tool matches ${JSON.stringify(query)}. Try other words; the tools are: ${deps.deferred().map((t) => t.name).join(', ')}.` };
      deps.load(found.map((tool) => tool.name));
      const definitions: ToolDefinition[] = found.map(toolDefinition);
      return {
        content: `${found.length} tool${found.length === 1 ? '' : 's'} found; callable from your next step:\n${JSON.stringify(definitions, null, 2)}`,
      };
    },
  };
}
