/**
 * A cheap look at `~/.claude.json` at start-up (nothing but fs), so a file without MCP servers does
 * not load the MCP runtime; claude-json.ts reads it properly once something may be there.
 */
import path from 'node:path';
import { readProjectTextFile } from '../../config/project-file.js';

export const CLAUDE_JSON = '.claude.json';
/** Claude Code keeps history in the file: a few MiB is ordinary. */
export const CLAUDE_JSON_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Whether the file may hold a server: a non-empty `mcpServers` object anywhere in its text (Claude
 * Code writes an empty one for every project it saw). A cheap look at start-up, so a file without
 * servers does not load the MCP runtime; readClaudeJsonServers then reads it properly.
 */
export function claudeJsonMayHaveServers(homeDir: string): boolean {
  const read = readProjectTextFile(path.join(homeDir, CLAUDE_JSON), { maxBytes: CLAUDE_JSON_MAX_BYTES });
  // Present but unreadable (too large, not a file): the reader says why.
  if (!read.ok) return !read.missing;
  return /"mcpServers"\s*:\s*\{\s*"/.test(read.text);
}

