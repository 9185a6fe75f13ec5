/** How tool calls, approvals and saved history look to an editor (ui-acp). */
import { expect, test } from '@jest/globals';
import type { Message } from '../../../types/messages.js';
import type { ApprovalRequest } from '../../../types/permissions.js';
import { announceToolCall, editDiff, toolKind, toolResultUpdate, toolTitle } from '../../../plugins/ui-acp/tool-calls.js';
import { approvalOutcome, permissionOptions } from '../../../plugins/ui-acp/permission-options.js';
import { historyUpdates } from '../../../plugins/ui-acp/history-replay.js';
import { FinalStatuses } from '../../../plugins/ui-acp/final-statuses.js';

const call = (name: string, input: unknown, id = 'c1') => ({ id, name, input: JSON.stringify(input) });

test('kinds: the built-in tools by name; a declared read-only plugin tool is a read; an MCP tool is other whatever it declares', () => {
  expect(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'agent'].map((n) => toolKind(n, undefined))).toEqual(['read', 'edit', 'edit', 'execute', 'search', 'search', 'think']);
  expect(toolKind('task_list', { readOnly: true })).toBe('read');
  expect(toolKind('deploy', { readOnly: false })).toBe('other');
  expect(toolKind('mcp__docs__search', { readOnly: true })).toBe('other');
});

test('titles and locations: paths relative to the project in the title, absolute (~ expanded) in locations, a read\'s offset as its line', () => {
  const read = announceToolCall(call('read_file', { file_path: 'src/a.ts', offset: 40 }), 'in_progress', { projectRoot: '/w', homeDir: '/home/u', tool: undefined });
  expect(read).toEqual({ toolCallId: 'c1', title: 'Read src/a.ts', kind: 'read', status: 'in_progress', locations: [{ path: '/w/src/a.ts', line: 40 }], rawInput: { file_path: 'src/a.ts', offset: 40 } });
  expect(announceToolCall(call('write_file', { file_path: '~/notes.md', content: '' }), 'pending', { projectRoot: '/w', homeDir: '/home/u', tool: undefined }).locations).toEqual([{ path: '/home/u/notes.md' }]);
  // The command as written (its spacing and line breaks shown), never the model's description of it.
  expect(toolTitle(call('bash', { command: 'npm   test\n --silent', description: 'Run the tests' }), '/w')).toBe('Run `npm   test\\n --silent` (2 lines)');
  expect(toolTitle(call('bash', { command: 'npm   test' }), '/w')).toBe('Run `npm   test`');
  expect(toolTitle(call('grep', { pattern: 'TODO' }), '/w')).toBe('Search for TODO');
  // An MCP tool by its real name, never by the title its server declares.
  expect(toolTitle(call('mcp__docs__search', {}), '/w', { hints: { title: 'Search the docs' } })).toBe('mcp__docs__search');
  expect(toolTitle({ name: 'read_file', input: '{not json' }, '/w')).toBe('Read a file');
});

test('edit diffs: the whole file when its text before is known, else the replaced part; a write of a new file has no oldText', () => {
  const edit = call('edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' });
  expect(editDiff(edit, '/w', 'one\ntwo\nthree\n')).toEqual({ type: 'diff', path: '/w/a.txt', oldText: 'one\ntwo\nthree\n', newText: 'one\nTWO\nthree\n' });
  expect(editDiff(edit, '/w', undefined)).toEqual({ type: 'diff', path: '/w/a.txt', oldText: 'two', newText: 'TWO' });
  expect(editDiff(call('edit_file', { file_path: 'a.txt', old_string: 'o', new_string: '0', replace_all: true }), '/w', 'foo boo')).toMatchObject({ newText: 'f00 b00' });
  // Text the tool found after normalising line endings: the replaced part only.
  expect(editDiff(edit, '/w', 'one\r\nTw o\r\n')).toEqual({ type: 'diff', path: '/w/a.txt', oldText: 'two', newText: 'TWO' });
  expect(editDiff(call('write_file', { file_path: 'n.txt', content: 'new' }), '/w', undefined)).toEqual({ type: 'diff', path: '/w/n.txt', newText: 'new' });
  expect(editDiff(call('write_file', { file_path: 'n.txt', content: 'new' }), '/w', 'old')).toEqual({ type: 'diff', path: '/w/n.txt', oldText: 'old', newText: 'new' });
  expect(editDiff(call('bash', { command: 'ls' }), '/w', undefined)).toBeUndefined();
});

test('a result: completed with the diff for an edit, failed with the error text (never a diff of an edit that did not happen)', () => {
  const edit = call('edit_file', { file_path: 'a.txt', old_string: 'a', new_string: 'b' });
  const diff = editDiff(edit, '/w', undefined);
  expect(toolResultUpdate(edit, { toolCallId: 'c1', content: 'Edited a.txt', isError: false }, diff)).toMatchObject({ status: 'completed', content: [diff] });
  expect(toolResultUpdate(edit, { toolCallId: 'c1', content: 'old_string not found', isError: true }, diff)).toMatchObject({
    status: 'failed',
    content: [{ type: 'content', content: { type: 'text', text: 'old_string not found' } }],
  });
});

/** As the kernel reads the chain: only an ask after the rules (the mode's) is lifted by an allow rule. */
const request = (layer: string): Pick<ApprovalRequest, 'verdict' | 'allowRuleLifts'> => ({ verdict: { decision: 'ask', layer }, allowRuleLifts: layer === 'permission-mode' });

test('approval options map to MewCode\'s scopes; a settings file\'s ask rule (managed or not) is answered once at a time; anything not offered denies', () => {
  const options = permissionOptions(request('permission-mode'));
  expect(options.map((o) => `${o.optionId}:${o.kind}`)).toEqual(['allow_always:allow_always', 'allow_session:allow_always', 'allow_once:allow_once', 'deny:reject_once']);
  expect(approvalOutcome({ outcome: 'selected', optionId: 'allow_always' }, options)).toEqual({ choice: 'allow_always', answeredBy: 'ui-acp' });
  expect(approvalOutcome({ outcome: 'selected', optionId: 'allow_session' }, options)).toEqual({ choice: 'allow_session', answeredBy: 'ui-acp' });
  expect(approvalOutcome({ outcome: 'selected', optionId: 'deny' }, options)).toMatchObject({ choice: 'deny' });
  expect(approvalOutcome({ outcome: 'cancelled' }, options)).toMatchObject({ choice: 'deny', reason: expect.stringContaining('cancelled') });
  expect(approvalOutcome({ outcome: 'selected', optionId: 'allow_everything' }, options)).toMatchObject({ choice: 'deny', reason: expect.stringContaining('not offered') });

  const managed = permissionOptions(request('permission-rules:managed'));
  expect(managed.map((o) => o.optionId)).toEqual(['allow_once', 'deny']);
  expect(approvalOutcome({ outcome: 'selected', optionId: 'allow_always' }, managed)).toMatchObject({ choice: 'deny' });
  // Any settings file's ask: an ask beats every allow, so a remembered answer could not lift it either.
  for (const layer of ['permission-rules:user', 'permission-rules:project', 'permission-rules:local']) {
    expect(permissionOptions(request(layer)).map((o) => o.optionId)).toEqual(['allow_once', 'deny']);
  }
});

test.each([
  ['no outcome (result {} or null)', undefined],
  ['an outcome that is a string', 'allow_once'],
  ['selected without an option', { outcome: 'selected' }],
  ['an unknown outcome kind', { outcome: 'approved' }],
])('a malformed permission answer (%s) denies, and the reason says what the editor sent', (_what, outcome) => {
  const answer = approvalOutcome(outcome, permissionOptions(request('permission-mode')));
  expect(answer).toMatchObject({ choice: 'deny', reason: expect.stringMatching(/^the editor answered the permission request (without an outcome|with an outcome that is not one of)/) });
  expect(answer.reason).not.toMatch(/Cannot read|undefined \(/);
});

test('a saved history replays as chunks and tool calls with their results, in order', () => {
  const messages: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'fix a.txt' }] },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'Editing.' }], toolCalls: [call('edit_file', { file_path: 'a.txt', old_string: 'x', new_string: 'y' }, 't1')] },
    { role: 'tool', results: [{ toolCallId: 't1', content: 'Edited', isError: false }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], toolCalls: [] },
  ];
  const updates = historyUpdates(messages, { projectRoot: '/w', tool: () => undefined });
  expect(updates.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'agent_thought_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk']);
  expect(updates[3]).toMatchObject({ toolCallId: 't1', kind: 'edit', title: 'Edit a.txt' });
  expect(updates[4]).toMatchObject({ toolCallId: 't1', status: 'completed', content: [{ type: 'diff', path: '/w/a.txt', oldText: 'x', newText: 'y' }] });
});

test('edit snapshots: taken once, read through the given reader, bounded in number', async () => {
  const { EditSnapshots } = await import('../../../plugins/ui-acp/edit-snapshots.js');
  const reads: string[] = [];
  const snapshots = new EditSnapshots(async (file) => {
    reads.push(file);
    return `text of ${file}`;
  });
  await snapshots.take('c1', '/w/a.txt');
  expect(snapshots.takeOut('c1')).toBe('text of /w/a.txt');
  expect(snapshots.takeOut('c1')).toBeUndefined();
  for (let i = 0; i < 40; i++) await snapshots.take(`k${i}`, `/w/${i}`);
  expect(snapshots.takeOut('k0')).toBeUndefined();
  expect(snapshots.takeOut('k39')).toBe('text of /w/39');
  expect(reads).toHaveLength(41);
});

test('the text before an edit is read only from a small regular UTF-8 file (not a link, a directory, binary or a missing file)', async () => {
  const { mkdtempSync, writeFileSync, symlinkSync, mkdirSync, rmSync } = await import('node:fs');
  const os = await import('node:os');
  const { readBeforeFromDisk } = await import('../../../plugins/ui-acp/edit-snapshots.js');
  const dir = mkdtempSync(`${os.tmpdir()}/ui-acp-snap-`);
  try {
    writeFileSync(`${dir}/a.txt`, 'héllo\n');
    writeFileSync(`${dir}/bin`, Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    symlinkSync(`${dir}/a.txt`, `${dir}/link`);
    mkdirSync(`${dir}/sub`);
    expect(await readBeforeFromDisk(`${dir}/a.txt`)).toBe('héllo\n');
    expect(await readBeforeFromDisk(`${dir}/bin`)).toBeUndefined();
    expect(await readBeforeFromDisk(`${dir}/link`)).toBeUndefined();
    expect(await readBeforeFromDisk(`${dir}/sub`)).toBeUndefined();
    expect(await readBeforeFromDisk(`${dir}/missing`)).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a path outside the project is titled as the editor can open it (absolute, or ~ in the home), never as ../..', () => {
  const context = { projectRoot: '/w/project', homeDir: '/home/u', tool: undefined };
  expect(announceToolCall(call('read_file', { file_path: '/etc/hostname' }), 'pending', context).title).toBe('Read /etc/hostname');
  expect(announceToolCall(call('edit_file', { file_path: '/home/u/.bashrc', old_string: 'a', new_string: 'b' }), 'pending', context).title).toBe('Edit ~/.bashrc');
  expect(announceToolCall(call('write_file', { file_path: '../sibling/x.txt', content: '' }), 'pending', context).title).toBe('Write /w/sibling/x.txt');
  expect(announceToolCall(call('read_file', { file_path: 'src/a.ts' }), 'pending', context).title).toBe('Read src/a.ts');
});

test('grep and glob are located at the file or folder they search, when they name one', () => {
  const context = { projectRoot: '/w', homeDir: '/home/u', tool: undefined };
  expect(announceToolCall(call('grep', { pattern: 'TODO', path: 'src/a.ts' }), 'in_progress', context).locations).toEqual([{ path: '/w/src/a.ts' }]);
  expect(announceToolCall(call('glob', { pattern: '**/*.ts', path: 'src' }), 'in_progress', context).locations).toEqual([{ path: '/w/src' }]);
  expect(announceToolCall(call('grep', { pattern: 'TODO' }), 'in_progress', context).locations).toEqual([]);
  expect(announceToolCall(call('bash', { command: 'ls', path: 'x' }), 'in_progress', context).locations).toEqual([]);
});

test('replay: a write_file, whose earlier content the history does not hold, shows its result text, never a diff that makes an overwrite look like a new file', () => {
  const messages: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'rewrite a.txt' }] },
    { role: 'assistant', content: [], toolCalls: [call('write_file', { file_path: 'a.txt', content: 'new\n' }, 'w1')] },
    { role: 'tool', results: [{ toolCallId: 'w1', content: 'Wrote 4 bytes (1 line) to a.txt.', isError: false }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], toolCalls: [] },
  ];
  const updates = historyUpdates(messages, { projectRoot: '/w', tool: () => undefined });
  const result = updates.find((u) => u.sessionUpdate === 'tool_call_update');
  expect(result).toMatchObject({ toolCallId: 'w1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Wrote 4 bytes (1 line) to a.txt.' } }] });
  expect(JSON.stringify(updates)).not.toContain('"diff"');
});

test('replay of a session saved before prompts were marked (best effort): each user message\'s first text, no reminder or compaction summary; after the first marked prompt only marked ones', () => {
  const messages: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'This session continues an earlier conversation that grew too long. <summary>S</summary>' }, { type: 'text', text: '# Recovered context' }] },
    { role: 'user', content: [{ type: 'text', text: 'typed before' }, { type: 'text', text: 'a hook context' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] },
    { role: 'user', content: [{ type: 'text', text: 'typed after' }, { type: 'text', text: 'another hook context' }], prompt: true },
    { role: 'assistant', content: [{ type: 'text', text: '(Cancelled.)' }], toolCalls: [], note: true },
    { role: 'user', content: [{ type: 'text', text: 'a stop hook reason' }] },
    { role: 'user', content: [{ type: 'text', text: '/review src\n\nexpanded command text' }], prompt: [{ type: 'text', text: '/review src' }, { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }] },
  ];
  const updates = historyUpdates(messages, { projectRoot: '/w', tool: () => undefined });
  expect(updates.filter((u) => u.sessionUpdate === 'user_message_chunk').map((u) => (u as { content: unknown }).content)).toEqual([
    { type: 'text', text: 'typed before' },
    { type: 'text', text: 'typed after' },
    { type: 'text', text: '/review src' },
    { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
  ]);
  expect(updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => (u as { content: { text: string } }).content.text)).toEqual(['ok']);
});

test('completed and failed are final: no later update of that call is let through; a new announcement starts it afresh', () => {
  const guard = new FinalStatuses();
  const update = (status: 'pending' | 'in_progress' | 'completed' | 'failed', toolCallId = 'c1') => ({ sessionUpdate: 'tool_call_update' as const, toolCallId, status });
  expect(guard.admit({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'x', status: 'pending' })).toBe(true);
  expect(guard.admit(update('failed'))).toBe(true);
  expect(guard.admit(update('in_progress'))).toBe(false);
  expect(guard.admit(update('completed'))).toBe(false);
  expect(guard.admit({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', content: [] })).toBe(false);
  expect(guard.admit(update('in_progress', 'c2'))).toBe(true);
  expect(guard.admit(update('completed', 'c2'))).toBe(true);
  expect(guard.admit(update('failed', 'c2'))).toBe(false);
  expect(guard.admit({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } })).toBe(true);
  expect(guard.admit({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'again', status: 'pending' })).toBe(true);
  expect(guard.admit(update('completed'))).toBe(true);
});
