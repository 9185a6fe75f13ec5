/**
 * A cheap look at `~/.claude.json` at start-up (nothing but fs), so a file without MCP servers does
 * not load the MCP runtime; claude-json.ts reads it properly once something may be there.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export const CLAUDE_JSON = '.claude.json';
/** Claude Code keeps history in the file: a few MiB is ordinary. */
export const CLAUDE_JSON_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Whether the file may hold a server: a non-empty `mcpServers` object anywhere in its text (Claude
 * Code writes an empty one for every project it saw). A cheap look at start-up, so a file without
 * servers does not load the MCP runtime; readClaudeJsonServers then reads it properly.
 */
export async function claudeJsonMayHaveServers(homeDir: string): Promise<boolean> {
  try {
    const info = await stat(path.join(homeDir, CLAUDE_JSON));
    if (!info.isFile() || info.size > CLAUDE_JSON_MAX_BYTES) return info.isFile(); // too large: said by the reader
    return /"mcpServers"\s*:\s*\{\s*"/.test(await readFile(path.join(homeDir, CLAUDE_JSON), 'utf8'));
  } catch {
    return false;
  }
}

