// NodeBody over a real Node stream: the async-iteration face the SDKs read, the web stream face
// other readers (MCP, clone()) get, one lock between them, backpressure at its boundary, and
// failures delivered after the chunks that arrived before them.
import { PassThrough } from 'node:stream';
import { BODY_HIGH_WATER_MARK, NodeBody } from '../../sdk/http/node-body.js';

interface Probe {
  source: PassThrough;
  body: NodeBody;
  settled: number;
}

function probe(): Probe {
  const source = new PassThrough();
  const result: Probe = { source, body: undefined as unknown as NodeBody, settled: 0 };
  result.body = new NodeBody(source, () => (result.settled += 1), (error) => new TypeError('terminated', { cause: error }));
  return result;
}

const text = (chunk: Uint8Array | undefined): string => new TextDecoder().decode(chunk);
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('async iteration yields each chunk as a plain Uint8Array, in order, and settles once at the end', async () => {
  const p = probe();
  const { source, body } = p;
  const seen: string[] = [];
  const reading = (async () => {
    for await (const chunk of body) {
      expect(chunk.constructor).toBe(Uint8Array);
      seen.push(text(chunk));
    }
  })();
  source.write('data: one\n\n');
  await tick();
  expect(seen).toEqual(['data: one\n\n']); // read before the rest was written
  source.end('data: two\n\n');
  await reading;
  expect(seen).toEqual(['data: one\n\n', 'data: two\n\n']);
  expect([p.settled, body.locked]).toEqual([1, false]);
});

test('settle runs exactly once, whether the body ends, fails or is cancelled', async () => {
  const ended = probe();
  ended.source.end('x');
  for await (const _ of ended.body);
  const failed = probe();
  failed.source.destroy(new Error('reset'));
  await expect((async () => { for await (const _ of failed.body); })()).rejects.toThrow('terminated');
  const cancelled = probe();
  await cancelled.body.cancel();
  await cancelled.body.cancel();
  expect([ended.settled, failed.settled, cancelled.settled]).toEqual([1, 1, 1]);
  expect(cancelled.source.destroyed).toBe(true);
});

test('one reader at a time: iterating locks the body against a web reader and a second iterator, and ending unlocks it', async () => {
  const { source, body } = probe();
  expect(body.locked).toBe(false);
  const iterator = body[Symbol.asyncIterator]();
  expect(body.locked).toBe(true);
  expect(() => body.getReader()).toThrow('ReadableStream is locked');
  expect(() => body.values()).toThrow('ReadableStream is locked');
  await expect(body.cancel()).rejects.toThrow('ReadableStream is locked');
  source.end('only');
  expect(text((await iterator.next()).value)).toBe('only');
  expect((await iterator.next()).done).toBe(true);
  expect(body.locked).toBe(false);
  // A closed body read again is empty, as a closed web stream is.
  expect((await body.values().next()).done).toBe(true);
});

test("return() on an iterator never started cancels the body and closes the source (the SDKs' CancelReadableStream)", async () => {
  const p = probe();
  p.source.write('unwanted');
  await p.body[Symbol.asyncIterator]().return!();
  expect([p.source.destroyed, p.body.locked, p.settled]).toEqual([true, false, 1]);
});

test('return() while a read is pending ends that read and cancels; preventCancel keeps the source open', async () => {
  const cancelled = probe();
  const iterator = cancelled.body.values();
  const pending = iterator.next();
  await iterator.return!();
  expect(await pending).toEqual({ done: true, value: undefined });
  expect(cancelled.source.destroyed).toBe(true);
  expect(cancelled.settled).toBe(1);

  const kept = probe();
  const first = kept.body.values({ preventCancel: true });
  kept.source.write('a');
  expect(text((await first.next()).value)).toBe('a');
  await first.return!();
  expect(kept.source.destroyed).toBe(false);
  kept.source.end('b');
  const rest: string[] = [];
  for await (const chunk of kept.body) rest.push(text(chunk));
  expect(rest).toEqual(['b']);
});

test('a failure is reported after the chunks that arrived before it, as the error the caller maps it to', async () => {
  const { source, body } = probe();
  source.write('data: partial-1\n\n');
  source.write('data: partial-2\n\n');
  await tick();
  source.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  await tick();
  const iterator = body.values();
  expect(text((await iterator.next()).value)).toBe('data: partial-1\n\n');
  expect(text((await iterator.next()).value)).toBe('data: partial-2\n\n');
  const error = (await iterator.next().catch((e: unknown) => e)) as TypeError & { cause: NodeJS.ErrnoException };
  expect([error.name, error.message, error.cause.code]).toEqual(['TypeError', 'terminated', 'ECONNRESET']);
  expect(body.locked).toBe(false);
});

test(`the source is paused once ${BODY_HIGH_WATER_MARK} chunks wait unread, not at ${BODY_HIGH_WATER_MARK - 1}, and resumes as they are read`, async () => {
  const { source, body } = probe();
  for (let i = 0; i < BODY_HIGH_WATER_MARK - 1; i++) source.write(`chunk ${i}`);
  await tick();
  expect(source.isPaused()).toBe(false);
  source.write(`chunk ${BODY_HIGH_WATER_MARK - 1}`);
  await tick();
  expect(source.isPaused()).toBe(true);
  const iterator = body.values();
  expect(text((await iterator.next()).value)).toBe('chunk 0');
  expect(source.isPaused()).toBe(false);
  source.end();
  let count = 1;
  while (!(await iterator.next()).done) count += 1;
  expect(count).toBe(BODY_HIGH_WATER_MARK);
});

test('the web stream face reads the same chunks; tee gives two readers; it locks the iterator out', async () => {
  const { source, body } = probe();
  source.write('first');
  const reader = body.getReader();
  expect(body.locked).toBe(true);
  expect(() => body.values()).toThrow('ReadableStream is locked');
  expect(text((await reader.read()).value)).toBe('first');
  reader.releaseLock();
  expect(body.locked).toBe(false);
  const [left, right] = body.tee();
  source.end('second');
  const all = async (stream: ReadableStream<Uint8Array>): Promise<string> => {
    let out = '';
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out += text(chunk);
    return out;
  };
  expect(await Promise.all([all(left), all(right)])).toEqual(['second', 'second']);
});

test('cancelling through the web stream face closes the source and settles', async () => {
  const p = probe();
  const stream = p.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>());
  await stream.cancel();
  await tick();
  expect([p.source.destroyed, p.settled]).toEqual([true, 1]);
});
