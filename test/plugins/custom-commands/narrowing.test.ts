/**
 * Which calls a command's `allowed-tools` entry names, in Claude Code's spellings: tool names
 * (Claude's and MewCode's), `Bash(prefix:*)` and exact commands, and MCP entries for one tool or a
 * whole server (`mcp__server`, `mcp__server__*`), as Claude Code's permission rules read them.
 */
import { entryCovers } from '../../../plugins/custom-commands/narrowing.js';

test('tool names and Bash patterns', () => {
  expect(entryCovers('Read', 'read_file', {})).toBe(true);
  expect(entryCovers('read_file', 'read_file', {})).toBe(true);
  expect(entryCovers('Read', 'grep', {})).toBe(false);
  expect(entryCovers('Bash(git add:*)', 'bash', { command: 'git add -A' })).toBe(true);
  expect(entryCovers('Bash(git add:*)', 'bash', { command: 'git commit -m x' })).toBe(false);
  expect(entryCovers('Bash(npm run test:*)', 'bash', { command: 'npm run test -- --watch' })).toBe(true);
  expect(entryCovers('Bash(git status)', 'bash', { command: 'git status' })).toBe(true);
});

test('MCP entries: one tool, or every tool of a server (mcp__server, mcp__server__*)', () => {
  expect(entryCovers('mcp__github__create_issue', 'mcp__github__create_issue', {})).toBe(true);
  expect(entryCovers('mcp__github__create_issue', 'mcp__github__list_issues', {})).toBe(false);
  expect(entryCovers('mcp__github', 'mcp__github__list_issues', {})).toBe(true);
  expect(entryCovers('mcp__github__*', 'mcp__github__list_issues', {})).toBe(true);
  expect(entryCovers('mcp__github', 'mcp__github_enterprise__list_issues', {})).toBe(false);
  expect(entryCovers('mcp__plugin_kit_everything', 'mcp__plugin_kit_everything__echo', {})).toBe(true);
});
