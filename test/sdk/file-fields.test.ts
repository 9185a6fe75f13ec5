import { expect, test } from '@jest/globals';
import { canonicalFileFields, filePathOf } from '../../sdk/file-tool-support/file-fields.js';
import { claudeToolName, fromClaudeToolName, toolNameAliases } from '../../sdk/claude-tool-names.js';

test('the older `path` becomes `file_path`; both naming different files is an input error naming both', () => {
  expect(canonicalFileFields({ path: 'a.ts', offset: 2 })).toEqual({ ok: true, input: { file_path: 'a.ts', offset: 2 } });
  expect(canonicalFileFields({ file_path: 'a.ts', path: 'a.ts' })).toEqual({ ok: true, input: { file_path: 'a.ts' } });
  const input = { file_path: 'a.ts' };
  expect(canonicalFileFields(input)).toEqual({ ok: true, input });
  expect(canonicalFileFields({ file_path: 'a.ts', path: 'b.ts' })).toEqual({ ok: false, error: '"file_path" and "path" (its older name) give different values; send only "file_path"' });
});

test('filePathOf reads a stored call under either name, and nothing else', () => {
  expect(filePathOf({ file_path: 'x' })).toBe('x');
  expect(filePathOf({ path: 'y' })).toBe('y');
  expect(filePathOf({ filename: 'z' })).toBeUndefined();
  expect(filePathOf(undefined)).toBeUndefined();
});

test('the sub-agent tool is Task (and Agent) to Claude Code users', () => {
  expect(claudeToolName('agent')).toBe('Task');
  expect(fromClaudeToolName('Task')).toBe('agent');
  expect(fromClaudeToolName('Agent')).toBe('agent');
  expect(toolNameAliases('agent')).toEqual(['Task', 'Agent', 'agent']);
  expect(toolNameAliases('bash')).toEqual(['Bash', 'bash']);
  expect(claudeToolName('read_file')).toBe('Read');
});
