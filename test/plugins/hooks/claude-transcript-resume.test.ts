/**
 * The Claude-shaped transcript hooks read (`transcript_path`) is append-only across processes, as
 * Claude Code's is: a continued session (a new process, a new ClaudeTranscripts) keeps the lines
 * already written (same uuid, same timestamp) and appends only what is new; a compaction seen by a
 * later process adds a compact_boundary line rather than rewriting the file; a rebuilt file gets
 * the same uuids. Each "process" here is a fresh ClaudeTranscripts over the session's history.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ClaudeTranscripts, claudeTranscriptPath } from '../../../plugins/hooks/claude-transcript.js';
import type { SessionContext } from '../../../types/hooks.js';
import type { Message } from '../../../types/messages.js';
import type { KernelApi } from '../../../types/plugin.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

const SESSION = '20261208-000000-abcd';

/** One process: its kernel's main session holds `history`. */
function processWith(root: string, history: Message[]) {
  const kernel = { session: { sessionId: SESSION, agentId: 'main', conversation: { messages: history } } } as unknown as KernelApi;
  const warnings: string[] = [];
  const transcripts = new ClaudeTranscripts(kernel, (message) => warnings.push(message));
  const context: SessionContext = { sessionId: SESSION, agentId: 'main', projectRoot: root, homeDir: root };
  return { transcripts, context, warnings, history };
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], prompt: true });
const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }], toolCalls: [] });
const call = (id: string, command: string): Message => ({ role: 'assistant', content: [], toolCalls: [{ id, name: 'bash', input: JSON.stringify({ command }) }] });
const result = (id: string, content: string): Message => ({ role: 'tool', results: [{ toolCallId: id, content, isError: false }] });

function lines(file: string): Record<string, any>[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a continued session keeps the earlier lines as they were and appends only the new ones, the chain unbroken', async () => {
  const root = temp('mewcode-transcript-resume-');
  const history = [user('first'), answer('one')];
  const one = processWith(root, history);
  one.transcripts.appended(history[0]!, { ...one.context, index: 0 });
  await sleep(15);
  one.transcripts.appended(history[1]!, { ...one.context, index: 1 });
  const file = one.transcripts.path(one.context);
  const before = readFileSync(file, 'utf8');
  const first = lines(file);
  expect(first.map((line) => line.type)).toEqual(['user', 'assistant']);
  // Stamped when the message happened, not when the file was written.
  expect(first[0]!.timestamp).not.toBe(first[1]!.timestamp);
  expect(Date.parse(first[0]!.timestamp)).toBeLessThan(Date.parse(first[1]!.timestamp));

  await sleep(15);
  const resumed = [...history.map((message) => structuredClone(message)), user('second'), answer('two')];
  const two = processWith(root, resumed);
  two.transcripts.path(two.context);
  const after = readFileSync(file, 'utf8');
  expect(after.startsWith(before)).toBe(true);
  const all = lines(file);
  expect(all.map((line) => [line.type, line.message.content])).toEqual([
    ['user', 'first'],
    ['assistant', [{ type: 'text', text: 'one' }]],
    ['user', 'second'],
    ['assistant', [{ type: 'text', text: 'two' }]],
  ]);
  expect(all[2]!.parentUuid).toBe(all[1]!.uuid);
  expect(all[3]!.parentUuid).toBe(all[2]!.uuid);
  expect(new Set(all.map((line) => line.uuid)).size).toBe(4);

  // A third process with nothing new adds nothing.
  const three = processWith(root, resumed.map((message) => structuredClone(message)));
  three.transcripts.path(three.context);
  expect(readFileSync(file, 'utf8')).toBe(after);
});

test('a compaction a later process finds appends a compact_boundary line and the new history; the first prompt stays', () => {
  const root = temp('mewcode-transcript-compact-');
  const one = processWith(root, [user('first'), call('c1', 'echo AUDIT-ME'), result('c1', 'AUDIT-ME\n'), answer('answer-1')]);
  const file = one.transcripts.path(one.context);
  const before = readFileSync(file, 'utf8');

  // The compaction ran in a process whose hooks never wrote the file; the next one finds it.
  // The summary, the last answer it kept, and a new exchange.
  const two = processWith(root, [user('SUMMARY'), answer('answer-1'), user('next'), answer('answer-2')]);
  two.transcripts.path(two.context);
  expect(readFileSync(file, 'utf8').startsWith(before)).toBe(true);
  const all = lines(file);
  expect(all.map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant', 'system', 'user', 'assistant', 'user', 'assistant']);
  const boundary = all[4]!;
  expect(boundary).toMatchObject({ type: 'system', subtype: 'compact_boundary', logicalParentUuid: all[3]!.uuid });
  expect(boundary.compactMetadata).toBeDefined();
  expect(all[5]!.parentUuid).toBe(boundary.uuid);
  expect(all[5]!.message.content).toBe('SUMMARY');
  expect(all[0]!.message.content).toBe('first');
  // A kept message keeps the time it had.
  expect(all[6]!.message).toEqual(all[3]!.message);
  expect(all[6]!.timestamp).toBe(all[3]!.timestamp);
});

test('a compaction in this process, told by postCompact, writes the boundary with its trigger at once', () => {
  const root = temp('mewcode-transcript-compact-now-');
  const state = processWith(root, [user('first'), answer('one')]);
  const file = state.transcripts.path(state.context);
  // The kernel replaced the history with the summary.
  (state.transcripts as unknown as { kernel: { session: { conversation: { messages: Message[] } } } }).kernel.session.conversation.messages = [user('SUMMARY')];
  state.transcripts.compacted({ trigger: 'manual', preTokens: 1234 }, state.context);
  const all = lines(file);
  expect(all.map((line) => line.type)).toEqual(['user', 'assistant', 'system', 'user']);
  expect(all[2]!.compactMetadata).toEqual({ trigger: 'manual', preTokens: 1234 });
});

test('a file rebuilt after it was removed gets the same uuids', () => {
  const root = temp('mewcode-transcript-rebuild-');
  const history = [user('first'), call('c1', 'ls'), result('c1', 'a.txt'), answer('done')];
  const one = processWith(root, history);
  const file = one.transcripts.path(one.context);
  const uuids = lines(file).map((line) => [line.uuid, line.parentUuid]);
  rmSync(file);
  const two = processWith(root, history.map((message) => structuredClone(message)));
  two.transcripts.path(two.context);
  expect(lines(file).map((line) => [line.uuid, line.parentUuid])).toEqual(uuids);
});

test('a long file is read from its end only, and a torn last line does not swallow the next one', () => {
  const root = temp('mewcode-transcript-long-');
  const big = 'x'.repeat(3 * 1024 * 1024);
  const history = [user('first'), call('c1', 'cat big'), result('c1', big), answer('read it')];
  const one = processWith(root, history);
  const file = one.transcripts.path(one.context);
  const two = processWith(root, [...history, user('second'), answer('two')]);
  two.transcripts.path(two.context);
  expect(lines(file).map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  // A crash cut the last line off: the next process starts on a line of its own.
  writeFileSync(file, readFileSync(file, 'utf8') + '{"type":"user","mess');
  const three = processWith(root, [...history, user('second'), answer('two'), user('third')]);
  three.transcripts.path(three.context);
  const text = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  expect(text.at(-2)).toBe('{"type":"user","mess');
  expect(JSON.parse(text.at(-1)!).message.content).toBe('third');
});

test("a sub-agent's transcript written by an earlier process is appended to, not replaced", () => {
  const root = temp('mewcode-transcript-agent-');
  const one = processWith(root, []);
  const agent: SessionContext = { ...one.context, agentId: 'agent-1', parentAgentId: 'main' };
  one.transcripts.appended(user('task'), agent);
  one.transcripts.appended(answer('working'), agent);
  const file = one.transcripts.path(agent);
  expect(file).toBe(claudeTranscriptPath(root, SESSION, 'agent-1'));
  const before = lines(file);
  const two = processWith(root, []);
  two.transcripts.appended(answer('more'), agent);
  two.transcripts.path(agent);
  const all = lines(file);
  expect(all.slice(0, 2)).toEqual(before);
  expect(all).toHaveLength(3);
  expect(all[2]!.parentUuid).toBe(before[1]!.uuid);
});

test('a missing session folder is made, as before', () => {
  const root = temp('mewcode-transcript-new-');
  mkdirSync(path.join(root, '.mewcode'), { recursive: true });
  const one = processWith(root, [user('hi')]);
  expect(lines(one.transcripts.path(one.context))).toHaveLength(1);
  expect(one.warnings).toEqual([]);
});
