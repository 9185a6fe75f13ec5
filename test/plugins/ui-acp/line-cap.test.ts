/**
 * Lines over the size the agent reads are dropped, and a request among them is answered under its
 * top-level id wherever that member sits in the line (JSON leaves key order to the client); an
 * "id" nested in params is never taken for it.
 */
import { expect, test } from '@jest/globals';
import { capIncomingLines } from '../../../plugins/ui-acp/line-cap.js';

const MAX = 1000;

/** Feeds `text` in chunks of `chunk` bytes; returns what passed and what was answered. */
async function run(text: string | Buffer, chunk = 97, maxBytes = MAX): Promise<{ passed: string; replies: { id: unknown }[]; warnings: string[] }> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(new Uint8Array(bytes.subarray(i, i + chunk)));
      controller.close();
    },
  });
  const replies: { id: unknown }[] = [];
  const warnings: string[] = [];
  const out = capIncomingLines(input, { maxBytes, reply: (message) => replies.push(message as { id: unknown }), warn: (line) => warnings.push(line) });
  let passed = '';
  for await (const part of out as unknown as AsyncIterable<Uint8Array>) passed += Buffer.from(part).toString('utf8');
  return { passed, replies, warnings };
}

const big = 'y'.repeat(5000);
const line = (message: object): string => `${JSON.stringify(message)}\n`;

test.each([
  ['first', { jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { text: big } }, 7],
  ['last', { jsonrpc: '2.0', method: 'session/prompt', params: { text: big }, id: 77 }, 77],
  ['between, a string id', { jsonrpc: '2.0', method: 'session/prompt', id: 'abc-"q"', params: { text: big } }, 'abc-"q"'],
  ['last, after params holding nested ids and tricky strings', { jsonrpc: '2.0', params: { id: 1, text: `${big}"}{[,"id":3`, list: [{ id: 2 }] }, method: 'x', id: 9 }, 9],
])('an over-cap request with its id %s is answered under that id', async (_where, message, id) => {
  const { replies, passed, warnings } = await run(line(message) + line({ jsonrpc: '2.0', id: 2, method: 'small' }));
  expect(replies.map((r) => r.id)).toEqual([id]);
  expect(passed).toBe(line({ jsonrpc: '2.0', id: 2, method: 'small' }));
  expect(warnings[0]).toContain('answered with an error');
});

test.each([
  ['only nested ids (a notification)', { jsonrpc: '2.0', method: 'session/cancel', params: { id: 5, text: big, inner: [{ id: 6 }] } }],
  ['an id that is not a number or string', { jsonrpc: '2.0', method: 'x', params: { text: big }, id: { nested: 1 } }],
])('%s: nothing is answered, the line is said on stderr', async (_what, message) => {
  const { replies, warnings } = await run(line(message));
  expect(replies).toEqual([]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).not.toContain('answered with an error');
});

test('a line that is not one JSON object is not answered (a wrong id is worse than none)', async () => {
  const { replies } = await run(`{"id": 4, "params": "${big}"} {"id": 5}\n` + `[{"id": 6, "p": "${big}"}]\n`);
  expect(replies).toEqual([]);
});

test('the last byte chunking does not matter: one byte at a time finds the same id', async () => {
  const { replies } = await run(line({ jsonrpc: '2.0', params: { id: 1, text: big.slice(0, 1200) }, id: 'z' }), 1);
  expect(replies.map((r) => r.id)).toEqual(['z']);
});

test.each([
  ['a result', { jsonrpc: '2.0', id: 12, result: { content: big } }],
  ['an error, its id last', { jsonrpc: '2.0', error: { code: 1, message: big }, id: 'r-1' }],
])('an over-cap response (%s) is never answered: the request it answers fails with an error saying why', async (_what, message) => {
  const { replies, passed, warnings } = await run(line(message) + line({ jsonrpc: '2.0', id: 2, method: 'small' }));
  expect(replies).toEqual([]);
  const lines = passed.trimEnd().split('\n').map((text) => JSON.parse(text) as { id: unknown; error?: { code: number; message: string } });
  // The agent's own pending request of that id gets an error answer in place of the dropped one.
  expect(lines[0]).toEqual({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: expect.stringContaining("the editor's answer was over 1000 bytes") } });
  expect(lines[1]).toEqual({ jsonrpc: '2.0', id: 2, method: 'small' });
  expect(warnings[0]).toContain('answer');
  expect(warnings[0]).not.toContain('answered with an error');
});

test('a method key nested in params does not make a response a request', async () => {
  const { replies, passed } = await run(line({ jsonrpc: '2.0', id: 3, result: { method: 'x', content: big } }));
  expect(replies).toEqual([]);
  expect(JSON.parse(passed)).toMatchObject({ id: 3, error: { code: -32603 } });
});

// The SDK's real cap: the bulk of such a line is one string with an escape every ~100 bytes (a
// file's text, its newlines escaped). Reading past it takes one pass, whatever the escapes.
const REAL_MAX = 32 * 1024 * 1024 - 1024;

test.each([
  ['a request', (text: string) => ({ jsonrpc: '2.0', id: 'big', method: 'session/prompt', params: { prompt: [{ type: 'text', text }] } })],
  ['a response', (text: string) => ({ jsonrpc: '2.0', id: 'big', result: { content: text } })],
  ['a request, its id after the text', (text: string) => ({ jsonrpc: '2.0', method: 'session/prompt', params: { text }, id: 'big' })],
])('a 34 MiB line (%s) with an escape every 100 bytes is got past in one pass; the next line passes', async (_what, message) => {
  const text = `${'x'.repeat(99)}\n`.repeat(Math.floor((34 * 1024 * 1024) / 100));
  const bytes = Buffer.from(line(message(text)) + line({ jsonrpc: '2.0', id: 'ping', method: 'small' }), 'utf8');
  const started = Date.now();
  const { replies, passed } = await run(bytes, 64 * 1024, REAL_MAX);
  expect(Date.now() - started).toBeLessThan(6_000);
  const ids = [...replies.map((r) => r.id), ...passed.trimEnd().split('\n').map((part) => (JSON.parse(part) as { id: unknown }).id)];
  expect(ids).toEqual(['big', 'ping']);
}, 60_000);
