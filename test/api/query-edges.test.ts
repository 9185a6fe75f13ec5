/**
 * query() at its edges, as an SDK user drives it: a canUseTool that never answers (interrupt and
 * abort still stop the prompt), a working directory that is not there, and prompts with no text
 * (refused before anything is sent, as `mewcode -p ""` refuses them).
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { query, type StreamMessage } from '../../api/index.js';
import { removeTempDirs } from '../cli/helpers.js';
import { collect, withPlace } from './helpers.js';

afterEach(removeTempDirs);

const writeCall = { toolCalls: [{ id: 'w1', name: 'write_file', input: { file_path: 'out.txt', content: 'x' } }] };
const never = (): Promise<never> => new Promise<never>(() => undefined);

test('interrupt() while a canUseTool question that ignores its signal is pending: the prompt ends cancelled, nothing is written', async () => {
  await withPlace([writeCall, { text: 'after' }], async (place) => {
    const q = query({ prompt: 'write', options: { ...place.options, canUseTool: never } });
    const seen: StreamMessage[] = [];
    const started = Date.now();
    for await (const message of q) {
      seen.push(message);
      if (message.type === 'approval_request') setTimeout(() => void q.interrupt(), 50);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(seen.at(-1)).toMatchObject({ type: 'result', stop_reason: 'cancelled' });
    expect(existsSync(path.join(place.cwd, 'out.txt'))).toBe(false);
  });
}, 20_000);

test('abortController aborted while a canUseTool question that ignores its signal is pending: the query ends', async () => {
  await withPlace([writeCall, { text: 'after' }], async (place) => {
    const abortController = new AbortController();
    const seen: StreamMessage[] = [];
    for await (const message of query({ prompt: 'write', options: { ...place.options, abortController, canUseTool: never } })) {
      seen.push(message);
      if (message.type === 'approval_request') setTimeout(() => abortController.abort(), 50);
    }
    expect(seen.filter((m) => m.type === 'result')).toEqual([expect.objectContaining({ stop_reason: 'cancelled' })]);
    expect(place.server.requests).toHaveLength(1);
  });
}, 20_000);

test('a cwd that does not exist, or is a file, is an error naming it, before anything boots or is sent', async () => {
  await withPlace([{ text: 'never' }], async (place) => {
    const missing = path.join(place.cwd, 'no-such-dir');
    await expect(collect(query({ prompt: 'hi', options: { ...place.options, cwd: missing } }))).rejects.toThrow(`options.cwd is not a directory: ${missing}`);
    const file = path.join(place.cwd, 'file.txt');
    writeFileSync(file, 'x');
    await expect(collect(query({ prompt: 'hi', options: { ...place.options, cwd: file } }))).rejects.toThrow(`options.cwd is not a directory: ${file}`);
    expect(place.server.requests).toHaveLength(0);
    expect(place.stderr.join('')).toBe('');
  });
});

test('a prompt with no text is a TypeError naming it; nothing is sent to the model', async () => {
  await withPlace([{ text: 'first' }, { text: 'never' }], async (place) => {
    const options = { ...place.options };
    await expect(collect(query({ prompt: '', options }))).rejects.toThrow(TypeError);
    await expect(collect(query({ prompt: '  \n ', options }))).rejects.toThrow('prompt is empty');
    expect(place.server.requests).toHaveLength(0);
    async function* stream() {
      yield 'one';
      yield { type: 'user' as const, message: { role: 'user' as const, content: [{ type: 'text', text: ' ' }] } };
    }
    const seen: StreamMessage[] = [];
    await expect(
      (async () => {
        for await (const message of query({ prompt: stream(), options })) seen.push(message);
      })(),
    ).rejects.toThrow('prompt message 2 is empty');
    expect(seen.filter((m) => m.type === 'result')).toHaveLength(1);
    expect(place.server.requests).toHaveLength(1);
  });
});

test('a stderr callback that throws does not fail the run (the notice falls back to standard error)', async () => {
  await withPlace([{ toolCalls: [{ id: 'g1', name: 'glob', input: { pattern: '*' } }] }, { text: 'never' }], async (place) => {
    const messages = await collect(
      query({
        prompt: 'look',
        options: {
          cwd: place.cwd,
          env: place.env,
          maxTurns: 1,
          stderr: () => {
            throw new Error('the logger is broken');
          },
        },
      }),
    );
    expect(messages.some((m) => m.type === 'error')).toBe(false);
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'error_max_turns' });
  });
});

test('streaming input: interrupt() while idle between messages stops nothing, the next message runs (only one sent before the first starts it stopped)', async () => {
  await withPlace([{ text: 'first answer' }, { text: 'second answer' }], async (place) => {
    let q: ReturnType<typeof query> | undefined;
    async function* prompts() {
      yield 'one';
      await q!.interrupt(); // nothing runs now: the first prompt has ended, the next is not sent yet
      yield 'two';
    }
    q = query({ prompt: prompts(), options: place.options });
    const results = (await collect(q)).filter((m) => m.type === 'result');
    expect(results.map((m) => (m as { stop_reason?: string; result?: string }).result)).toEqual(['first answer', 'second answer']);
  });
});

test('an abortController already aborted when query() is called: as interrupt() before start, a system message and a cancelled result, nothing sent', async () => {
  await withPlace([{ text: 'never asked' }], async (place) => {
    const abortController = new AbortController();
    abortController.abort();
    const messages = await collect(query({ prompt: 'hello', options: { ...place.options, abortController } }));
    expect(messages.map((m) => m.type)).toEqual(expect.arrayContaining(['system', 'result']));
    const result = messages.find((m) => m.type === 'result') as { stop_reason?: string };
    expect(result.stop_reason).toBe('cancelled');
    expect(JSON.stringify(messages)).not.toContain('never asked');
  });
});
