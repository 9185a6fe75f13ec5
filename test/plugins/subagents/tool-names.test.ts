/** Claude Code's tool names beside ours: a name that is also an Object property is only a name. */
import { expect, test } from '@jest/globals';
import { claudeToolName, fromClaudeToolName } from '../../../sdk/claude-tool-names.js';
import { subagentToolFilter } from '../../../plugins/subagents/tool-filter.js';
import type { Tool } from '../../../types/tools.js';

const tool = (name: string): Tool => ({ name, description: name, inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: '' }) });

test('names like constructor or __proto__ map to themselves, so a tool list can name them', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    expect(fromClaudeToolName(name)).toBe(name);
    expect(claudeToolName(name)).toBe(name);
  }
  expect(fromClaudeToolName('Read')).toBe('read_file');
  expect(claudeToolName('bash')).toBe('Bash');
  const all = [tool('toString'), tool('read_file')];
  expect(all.filter(subagentToolFilter({ disallowed: ['toString'] })).map((t) => t.name)).toEqual(['read_file']);
  expect(all.filter(subagentToolFilter({ allowed: ['toString'] })).map((t) => t.name)).toEqual(['toString']);
});
