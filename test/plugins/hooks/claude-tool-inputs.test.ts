/**
 * A Claude Code hook matches a built-in tool under Claude's name (`Skill`, `Task`, `Grep`…) and
 * reads its `tool_input` in Claude's field names and value shapes: every such tool's input is
 * given that way (MewCode's own fields kept beside), an `updatedInput` in Claude's names comes
 * back in MewCode's, a field neither knows is refused (never silently dropped), and the
 * Claude-shaped transcript's tool_use blocks use the same mapping.
 */
import { expect, test } from '@jest/globals';
import { claudeToolInput, fromClaudeToolInput } from '../../../plugins/hooks/events.js';
import { claudeEntries } from '../../../plugins/hooks/claude-transcript.js';

const root = '/p';
const home = '/h';
const toClaude = (tool: string, input: Record<string, unknown>): Record<string, unknown> => claudeToolInput(tool, input, root, home);
const back = (tool: string, updated: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> => fromClaudeToolInput(tool, updated, original, root, home);

test("Skill: {skill, args} beside MewCode's {name, arguments}; a rewrite in Claude's names comes back", () => {
  const original = { name: 'deploy', arguments: 'prod' };
  expect(toClaude('load_skill', original)).toEqual({ name: 'deploy', arguments: 'prod', skill: 'deploy', args: 'prod' });
  expect(toClaude('load_skill', { name: 'review' })).toEqual({ name: 'review', skill: 'review' });
  // A Claude Code script builds the input from scratch…
  expect(back('load_skill', { skill: 'deploy', args: 'staging' }, original)).toEqual({ name: 'deploy', arguments: 'staging' });
  // …or copies what it was given and changes Claude's field: that change is meant.
  expect(back('load_skill', { ...toClaude('load_skill', original), skill: 'deploy-dry-run' }, original)).toEqual({ name: 'deploy-dry-run', arguments: 'prod' });
  // A MewCode-aware script changing MewCode's field is heard too.
  expect(back('load_skill', { ...toClaude('load_skill', original), arguments: 'staging' }, original)).toEqual({ name: 'deploy', arguments: 'staging' });
  // Dropping the arguments drops them.
  expect(back('load_skill', { skill: 'deploy' }, original)).toEqual({ name: 'deploy' });
});

test('Task: description, prompt, subagent_type in Claude\'s spelling (the default one named), run_in_background', () => {
  const original = { description: 'look', prompt: 'List the files', subagent_type: 'explore' };
  expect(toClaude('agent', original)).toEqual({ description: 'look', prompt: 'List the files', subagent_type: 'Explore' });
  expect(toClaude('agent', { description: 'd', prompt: 'p' })).toEqual({ description: 'd', prompt: 'p', subagent_type: 'general-purpose' });
  expect(toClaude('agent', { description: 'd', prompt: 'p', subagent_type: 'general', run_in_background: true })).toMatchObject({ subagent_type: 'general-purpose', run_in_background: true });
  // Copied back unchanged: the call keeps its own spelling; changed: the hook's type is started.
  expect(back('agent', toClaude('agent', original), original)).toEqual(original);
  expect(back('agent', { ...toClaude('agent', original), subagent_type: 'general-purpose', prompt: 'List only' }, original)).toEqual({ description: 'look', prompt: 'List only', subagent_type: 'general-purpose' });
  // The filled-in default copied back asks for nothing new.
  expect(back('agent', toClaude('agent', { description: 'd', prompt: 'p' }), { description: 'd', prompt: 'p' })).toEqual({ description: 'd', prompt: 'p' });
});

test('Bash: command, description, timeout; workdir kept; run_in_background taken back only as false (MewCode runs none in the background)', () => {
  const original = { command: 'npm test', description: 'Run tests', timeout: 120000, workdir: 'pkg' };
  expect(toClaude('bash', original)).toEqual(original);
  expect(back('bash', { ...toClaude('bash', original), command: 'npm test -- --ci' }, original)).toEqual({ ...original, command: 'npm test -- --ci' });
  expect(back('bash', { command: 'ls', run_in_background: false }, original)).toEqual({ command: 'ls' });
  // What MewCode cannot honour is refused, naming the field: never run as if it were not asked.
  expect(() => back('bash', { command: 'sleep 100', run_in_background: true }, original)).toThrow(/run_in_background/);
  expect(() => back('bash', { command: 'ls', dangerouslyDisableSandbox: true }, original)).toThrow(/dangerouslyDisableSandbox/);
});

test('Read, Write, Edit: file_path absolute beside the call\'s own; offset, limit, content, old_string, new_string, replace_all', () => {
  expect(toClaude('read_file', { file_path: 'src/a.ts', offset: 10, limit: 5 })).toEqual({ file_path: '/p/src/a.ts', offset: 10, limit: 5 });
  expect(toClaude('read_file', { file_path: '~/notes.md' })).toEqual({ file_path: '/h/notes.md' });
  expect(toClaude('write_file', { file_path: 'a', content: 'x' })).toEqual({ file_path: '/p/a', content: 'x' });
  const edit = { file_path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true };
  expect(toClaude('edit_file', edit)).toEqual({ ...edit, file_path: '/p/a.ts' });
  expect(back('edit_file', { ...toClaude('edit_file', edit), new_string: 'z' }, edit)).toEqual({ ...edit, new_string: 'z' });
  expect(back('read_file', { file_path: '/p/b.ts', limit: 1 }, { file_path: 'a.ts' })).toEqual({ file_path: '/p/b.ts', limit: 1 });
  expect(() => back('read_file', { file_path: '/p/doc.pdf', pages: '1-3' }, { file_path: 'doc.pdf' })).toThrow(/pages/);
});

test('Glob: pattern and path (absolute, as Claude Code gives paths)', () => {
  const original = { pattern: '**/*.ts', path: 'src' };
  expect(toClaude('glob', original)).toEqual({ pattern: '**/*.ts', path: '/p/src' });
  expect(toClaude('glob', { pattern: '*.md' })).toEqual({ pattern: '*.md' });
  expect(back('glob', toClaude('glob', original), original)).toEqual(original);
  expect(back('glob', { pattern: '**/*.ts', path: '/p/lib' }, original)).toEqual({ pattern: '**/*.ts', path: '/p/lib' });
});

test("Grep: Claude's -i, -A, -B, -C beside MewCode's names; output_mode always said (MewCode's default is content)", () => {
  const original = { pattern: 'TODO', path: 'src', case_insensitive: true, context: 2, before: 1, after: 3, glob: '*.ts', type: 'ts', head_limit: 5, multiline: false };
  expect(toClaude('grep', original)).toEqual({ ...original, path: '/p/src', output_mode: 'content', '-i': true, '-C': 2, '-B': 1, '-A': 3 });
  expect(toClaude('grep', { pattern: 'x', output_mode: 'count', '-i': true })).toEqual({ pattern: 'x', output_mode: 'count', '-i': true });
  // Copied back unchanged: exactly the call.
  expect(back('grep', toClaude('grep', original), original)).toEqual(original);
  // Claude's flag changed (MewCode's copy left as it was): the change holds, under the call's field.
  expect(back('grep', { ...toClaude('grep', original), '-i': false, '-C': 0 }, original)).toEqual({ ...original, case_insensitive: false, context: 0 });
  // Built from scratch in Claude's names: back in MewCode's (`-n` is a name MewCode's grep takes).
  expect(back('grep', { pattern: 'x', '-i': true, '-n': true, output_mode: 'files_with_matches' }, { pattern: 'y' })).toEqual({ pattern: 'x', case_insensitive: true, '-n': true, output_mode: 'files_with_matches' });
  expect(() => back('grep', { pattern: 'x', '--hidden': true }, { pattern: 'y' })).toThrow(/--hidden/);
});

test('TodoWrite: todos of {content, status, activeForm} (activeForm the step itself when the call gave none)', () => {
  const original = { todos: [{ content: 'Run the tests', status: 'in_progress', priority: 'high' }, { content: 'Fix', status: 'pending', activeForm: 'Fixing' }] };
  expect(toClaude('todo_write', original)).toEqual({ todos: [{ content: 'Run the tests', status: 'in_progress', activeForm: 'Run the tests', priority: 'high' }, { content: 'Fix', status: 'pending', activeForm: 'Fixing' }] });
  expect(back('todo_write', toClaude('todo_write', original), original)).toEqual(original);
  const updated = { todos: [{ content: 'Run the tests', status: 'completed', activeForm: 'Running the tests' }] };
  expect(back('todo_write', updated, original)).toEqual(updated);
});

test('a tool Claude Code has no name for (a plugin\'s, an MCP server\'s) is given and taken as it is', () => {
  expect(toClaude('deploy', { target: 'prod' })).toEqual({ target: 'prod' });
  expect(back('deploy', { target: 'staging', extra: 1 }, { target: 'prod' })).toEqual({ target: 'staging', extra: 1 });
});

test("the Claude-shaped transcript's tool_use blocks carry Claude's input shapes", () => {
  const [entry] = claudeEntries(
    {
      role: 'assistant',
      content: [],
      toolCalls: [
        { id: 't1', name: 'load_skill', input: JSON.stringify({ name: 'deploy', arguments: 'prod' }) },
        { id: 't2', name: 'agent', input: JSON.stringify({ description: 'd', prompt: 'p', subagent_type: 'explore' }) },
        { id: 't3', name: 'read_file', input: JSON.stringify({ file_path: 'a.ts' }) },
      ],
    },
    { projectRoot: root, homeDir: home },
  );
  const blocks = (entry!.message as { content: Record<string, unknown>[] }).content;
  expect(blocks).toEqual([
    { type: 'tool_use', id: 't1', name: 'Skill', input: { name: 'deploy', arguments: 'prod', skill: 'deploy', args: 'prod' } },
    { type: 'tool_use', id: 't2', name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: 'Explore' } },
    { type: 'tool_use', id: 't3', name: 'Read', input: { file_path: '/p/a.ts' } },
  ]);
});
