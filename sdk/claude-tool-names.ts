/**
 * Claude Code's names for MewCode's built-in tools, in one place: permission rules (`Bash(…)`),
 * hook matchers and payloads, and sub-agent tool lists all speak them beside ours. MCP tools
 * (`mcp__server__tool`) are named the same in both.
 */

import { CLAUDE_ONLY_TOOLS, CLAUDE_TO_OURS } from '../types/claude-tool-names.js';

// The tables live in types/ so the kernel can refuse a plugin tool that takes one of these names.
export { CLAUDE_ONLY_TOOLS, CLAUDE_TO_OURS };

/**
 * Whether a name is one of Claude Code's tools MewCode lacks (`WebFetch`, `NotebookEdit`…): the
 * one decision for every reader of rules and tool lists — such a name is kept, takes nothing away
 * and allows nothing, and is not reported as a typo.
 */
export function isClaudeOnlyTool(name: string): boolean {
  return CLAUDE_ONLY_TOOLS.includes(name);
}

/** The name payloads give a tool that has several Claude names (the first one above wins otherwise). */
const PREFERRED: Readonly<Record<string, string>> = { agent: 'Task' };

const OURS_TO_CLAUDE: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(CLAUDE_TO_OURS).reverse().map(([claude, ours]) => [ours, claude])),
  ...PREFERRED,
};

/** The registered name for a name as a user wrote it (Claude's or ours). */
export function fromClaudeToolName(name: string): string {
  // Own keys only: `constructor` or `toString` must not come back as Object's functions.
  return Object.hasOwn(CLAUDE_TO_OURS, name) ? CLAUDE_TO_OURS[name]! : name;
}

/** Claude Code's name for a registered tool (`Bash` for bash); other tools keep their name. */
export function claudeToolName(name: string): string {
  return Object.hasOwn(OURS_TO_CLAUDE, name) ? OURS_TO_CLAUDE[name]! : name;
}

/** Every name a matcher may use for a registered tool: Claude's (all of them) and ours. */
export function toolNameAliases(name: string): string[] {
  return [...Object.keys(CLAUDE_TO_OURS).filter((claude) => CLAUDE_TO_OURS[claude] === name), name];
}

/**
 * `mcp__server` or `mcp__server__*`, Claude Code's names for every tool of one MCP server (in
 * permission rules and `allowed-tools`): the prefix those tools share, `mcp__server__`. Undefined
 * for any other name, a single MCP tool (`mcp__server__tool`) included.
 */
export function mcpServerPrefix(name: string): string | undefined {
  const plain = /^mcp__([^_*][^*]*?)$/.exec(name);
  if (plain) return plain[1]!.includes('__') ? undefined : `${name}__`;
  const wildcard = /^(mcp__[^*]+?__)\*$/.exec(name);
  return wildcard && !wildcard[1]!.slice(5, -2).includes('__') ? wildcard[1] : undefined;
}
