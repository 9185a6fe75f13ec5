/**
 * Claude Code's names for MewCode's built-in tools, in one place: permission rules (`Bash(…)`),
 * hook matchers and payloads, and sub-agent tool lists all speak them beside ours. MCP tools
 * (`mcp__server__tool`) are named the same in both.
 */

/** Claude Code's name → the registered name. */
export const CLAUDE_TO_OURS: Readonly<Record<string, string>> = {
  Bash: 'bash',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  Glob: 'glob',
  Grep: 'grep',
};

const OURS_TO_CLAUDE: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(CLAUDE_TO_OURS).map(([claude, ours]) => [ours, claude]));

/** The registered name for a name as a user wrote it (Claude's or ours). */
export function fromClaudeToolName(name: string): string {
  return CLAUDE_TO_OURS[name] ?? name;
}

/** Claude Code's name for a registered tool (`Bash` for bash); other tools keep their name. */
export function claudeToolName(name: string): string {
  return OURS_TO_CLAUDE[name] ?? name;
}
