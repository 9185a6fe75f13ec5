/**
 * Which tools a sub-agent gets (G2), in order: all tools → minus the never-allowed ones (the
 * agent and task tools: sub-agents cannot start or steer sub-agents) → for a background agent,
 * only the background allowlist and MCP tools → minus the role's disallowed → only the role's
 * allowed → for a read-only role, only tools whose `readOnly` is true (MCP tools included: an MCP
 * tool is read-only only when it says so) → only the caller's hard allowlist. System tools are
 * always kept. Names are compared exactly as registered, after Claude Code's names (Read, Bash…)
 * are mapped to ours, so no tool is dropped by a spelling mismatch (the seed's load_skill bug).
 * An MCP server's tools are named as Claude Code names them: `mcp__srv` (the server: every tool
 * of it) or `mcp__srv__*`; `*` alone is every tool.
 *
 * The result is a predicate, evaluated whenever the session's tool view refreshes, so an MCP
 * tool that connects later is filtered by the same rules.
 */
import { fromClaudeToolName } from '../../sdk/claude-tool-names.js';
import type { Tool } from '../../types/tools.js';

/** Tools no sub-agent is given. */
export const NEVER_ALLOWED: ReadonlySet<string> = new Set(['agent', 'task_list', 'task_output', 'task_stop', 'task_message']);

/** What a background agent may use besides MCP and system tools (registered names). */
export const BACKGROUND_ALLOWED: ReadonlySet<string> = new Set(['read_file', 'write_file', 'edit_file', 'glob', 'grep', 'bash']);

export interface FilterSpec {
  background?: boolean;
  readOnly?: boolean;
  /** As written: Claude Code's names or ours. Undefined = no restriction. */
  allowed?: readonly string[];
  disallowed?: readonly string[];
  /** The caller's hard allowlist (a fork-mode skill's `allowed-tools`). */
  only?: readonly string[];
}

/** Whether a list names a tool: by its name, `*`, or its MCP server (`mcp__srv`, `mcp__srv__*`). */
type ListTest = (name: string) => boolean;

function listTest(list: readonly string[] | undefined, wildcards: boolean): ListTest | undefined {
  if (!list) return undefined;
  const exact = new Set(list.map(fromClaudeToolName));
  // `mcp__srv` (no tool part) and `mcp__srv__*` both mean the server's tools: the prefix `mcp__srv__`.
  const servers = wildcards ? list.flatMap((entry) => /^mcp__[^_]+(?:_(?!_)[^_]*)*(?:__\*)?$/.test(entry) ? [`${entry.replace(/__\*$/, '')}__`] : []) : [];
  return (name) => exact.has(name) || (wildcards && exact.has('*')) || servers.some((prefix) => name.startsWith(prefix));
}

export function subagentToolFilter(spec: FilterSpec): (tool: Tool) => boolean {
  const allowed = listTest(spec.allowed, true);
  const disallowed = listTest(spec.disallowed, true);
  // The caller's hard allowlist is exact names (as before).
  const only = listTest(spec.only, false);
  return (tool) => {
    if (NEVER_ALLOWED.has(tool.name)) return false;
    if (tool.system === true) return true;
    if (spec.background && !BACKGROUND_ALLOWED.has(tool.name) && !tool.name.startsWith('mcp__')) return false;
    if (disallowed?.(tool.name)) return false;
    if (allowed && !allowed(tool.name)) return false;
    if (spec.readOnly && !tool.readOnly) return false;
    if (only && !only(tool.name)) return false;
    return true;
  };
}
