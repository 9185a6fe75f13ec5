/**
 * Lines over the size the agent reads are dropped, and a request among them is answered under its
 * top-level id wherever that member sits in the line (JSON leaves key order to the client); an
 * "id" nested in params is never taken for it.
 */
import { expect, test } from '@jest/globals';
import { capIncomingLines } from '../../../plugins/ui-acp/line-cap.js';

const MAX = 1000;

/** Feeds `text` in chunks of `chunk` bytes; returns what passed and what was answered. */
async function run(text: string, chunk = 97): Promise<{ passed: string; replies: { id: unknown }[]; warnings: string[] }> {
  const bytes = Buffer.from(text, 'utf8');
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(new Uint8Array(bytes.subarray(i, i + chunk)));
      controller.close();
    },
  });
  const replies: { id: unknown }[] = [];
  const warnings: string[] = [];
  const out = capIncomingLines(input, { maxBytes: MAX, reply: (message) => replies.push(message as { id: unknown }), warn: (line) => warnings.push(line) });
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
