/**
 * A model that repeats tool call ids (two calls `dup1` in one answer, `dup1` again next turn, a
 * call with no id): every request the CLI sends afterwards, and the one a resumed session sends,
 * pairs each tool call with exactly one result, its own, for both wire protocols.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggedRequest, ScriptedTurn } from '../scripted-server/index.js';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(() => prepareCli());
afterAll(() => removeTempDirs());

const TURNS: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'dup1', name: 'read_file', input: { path: 'a.txt' } },
      { id: 'dup1', name: 'glob', input: { pattern: '*.txt' } },
      { id: '', name: 'read_file', input: { path: 'b.txt' } },
    ],
  },
  { toolCalls: [{ id: 'dup1', name: 'read_file', input: { path: 'b.txt' } }] },
  { text: 'done' },
  { text: 'resumed' },
];

interface Pair {
  name: string;
  input: Record<string, unknown>;
  results: string[];
}

/** Each tool call of a request (by id, each id once) with the text of every result naming it. */
function pairsOf(request: LoggedRequest): Map<string, Pair> {
  const pairs = new Map<string, Pair>();
  const add = (id: string, name: string, input: Record<string, unknown>): void => {
    expect([id, pairs.has(id)]).toEqual([id, false]);
    pairs.set(id, { name, input, results: [] });
  };
  const answer = (id: string, text: string): void => {
    const pair = pairs.get(id);
    expect([id, pair !== undefined]).toEqual([id, true]);
    pair!.results.push(text);
  };
  for (const message of request.body.messages as any[]) {
    if (request.protocol === 'anthropic') {
      if (typeof message.content === 'string') continue;
      for (const block of message.content as any[]) {
        if (block.type === 'tool_use') add(block.id, block.name, block.input);
        if (block.type === 'tool_result') answer(block.tool_use_id, typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
      }
    } else {
      for (const call of message.tool_calls ?? []) add(call.id, call.function.name, JSON.parse(call.function.arguments));
      if (message.role === 'tool') answer(message.tool_call_id, String(message.content));
    }
  }
  return pairs;
}

/** What each call's one result must hold: the file it read, or the files glob listed. */
function expectOwnResults(request: LoggedRequest, calls: number): void {
  const pairs = pairsOf(request);
  expect(pairs.size).toBe(calls);
  for (const [id, { name, input, results }] of pairs) {
    expect([id, results.length]).toEqual([id, 1]);
    const text = results[0]!;
    if (name === 'glob') expect([id, text]).toEqual([id, expect.stringMatching(/a\.txt[\s\S]*b\.txt|b\.txt[\s\S]*a\.txt/)]);
    else expect([id, text]).toEqual([id, expect.stringContaining(input.path === 'a.txt' ? 'alpha text' : 'beta text')]);
    if (name === 'glob') expect(text).not.toContain('alpha text');
  }
}

describe.each(['anthropic', 'openai'] as const)('%s', (protocol) => {
  test('repeated and missing tool call ids: every call has exactly its own result, before and after a resume', async () => {
    await scenario(
      TURNS,
      async (s) => {
        writeFileSync(join(s.cwd, 'a.txt'), 'alpha text\n');
        writeFileSync(join(s.cwd, 'b.txt'), 'beta text\n');
        const first = await s.run(['-p', 'read them']);
        expect({ code: first.code, stdout: first.stdout }).toEqual({ code: 0, stdout: 'done\n' });
        expect(s.requests).toHaveLength(3);
        expectOwnResults(s.requests[1]!, 3);
        expectOwnResults(s.requests[2]!, 4);

        const resumed = await s.run(['--continue', '-p', 'and now?']);
        expect({ code: resumed.code, stdout: resumed.stdout }).toEqual({ code: 0, stdout: 'resumed\n' });
        expect(s.requests).toHaveLength(4);
        expectOwnResults(s.requests[3]!, 4);
      },
      protocol,
    );
  }, 60_000);
});
