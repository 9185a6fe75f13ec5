/**
 * A cheap look at `~/.claude.json` at start-up (nothing but fs), so a file without MCP servers does
 * not load the MCP runtime; claude-json.ts reads it properly once something may be there.
 */
import path from 'node:path';
import { readProjectTextFile, type ProjectFileRead } from '../../config/project-file.js';

export const CLAUDE_JSON = '.claude.json';
/** Claude Code keeps history in the file: a few MiB is ordinary. */
export const CLAUDE_JSON_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Whether the file may hold a server: a non-empty `mcpServers` object anywhere in its text (Claude
 * Code writes an empty one for every project it saw). A cheap look at start-up, so a file without
 * servers does not load the MCP runtime; readClaudeJsonServers then reads it properly.
 */
export function claudeJsonMayHaveServers(homeDir: string): boolean {
  const file = path.join(homeDir, CLAUDE_JSON);
  const read = readProjectTextFile(file, { maxBytes: CLAUDE_JSON_MAX_BYTES });
  // Present but unreadable (too large, not a file): the reader says why.
  const may = read.ok ? /"mcpServers"\s*:\s*\{\s*"/.test(read.text) : !read.missing;
  // Kept for the one parse that follows at this start (a file of several MiB is read once).
  probed = may ? { file, read } : undefined;
  return may;
}

let probed: { file: string; read: ProjectFileRead } | undefined;

/** `~/.claude.json` as the probe just read it (given once, then dropped), else read now. */
export function readClaudeJson(homeDir: string): { file: string; read: ProjectFileRead } {
  const file = path.join(homeDir, CLAUDE_JSON);
  const kept = probed?.file === file ? probed : undefined;
  probed = undefined;
  return kept ?? { file, read: readProjectTextFile(file, { maxBytes: CLAUDE_JSON_MAX_BYTES }) };
}

