/** The bounded output collector and the UTF-8 helpers, without processes. */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OutputCollector, type CollectorOptions } from '../../../plugins/tool-bash/output-collector.js';
import { boundaryAtOrAfter, boundaryAtOrBefore, countNewlines, incompleteTailStart } from '../../../plugins/tool-bash/utf8.js';

async function collector(overrides: Partial<CollectorOptions> = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mc-collect-'));
  const flow: boolean[] = [];
  let opened = 0;
  const c = new OutputCollector({
    maxBytes: 100,
    maxLines: 10,
    headLines: 2,
    headBytes: 25,
    spillMaxBytes: 1_000_000,
    openSpill: async () => path.join(dir, `spill-${++opened}.log`),
    setFlowing: (f) => flow.push(f),
    ...overrides,
  });
  return { c, flow, opens: () => opened };
}

test('incomplete characters at a chunk end are found; complete ones are not', () => {
  const bytes = Buffer.from('aé😀');
  expect(incompleteTailStart(bytes)).toBe(bytes.length);
  expect(incompleteTailStart(bytes.subarray(0, 2))).toBe(1); // first byte of é
  expect(incompleteTailStart(bytes.subarray(0, 5))).toBe(3); // 2 of 4 bytes of 😀
  expect(incompleteTailStart(bytes.subarray(0, 6))).toBe(3);
  expect(incompleteTailStart(Buffer.from([0x80, 0x80]))).toBe(2); // invalid: passed through
  expect(boundaryAtOrBefore(bytes, 2)).toBe(1);
  expect(boundaryAtOrAfter(bytes, 2)).toBe(3);
  expect(countNewlines(Buffer.from('a\nb\n\n'))).toBe(3);
});

test('newlines are counted exactly at any alignment and in any byte mix', () => {
  const bytes = Buffer.from(Array.from({ length: 10_003 }, (_, i) => (i % 7 === 0 ? 10 : (i * 37) % 256)));
  for (const offset of [0, 1, 2, 3, 5]) {
    const slice = bytes.subarray(offset, bytes.length - offset);
    expect(countNewlines(slice)).toBe(slice.filter((b) => b === 10).length);
  }
  expect(countNewlines(Buffer.alloc(65_536, 'y\n'))).toBe(32_768);
  expect(countNewlines(Buffer.from([0x0a, 0x8a, 0x0b, 0x09, 0xff, 0x0a]))).toBe(2);
});

test('output within the caps stays in memory and opens no file', async () => {
  const { c, opens } = await collector();
  c.write(Buffer.from('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n'));
  expect(await c.finish()).toEqual({ capped: false, text: '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n', totalBytes: 21, totalLines: 10 });
  expect(opens()).toBe(0);
});

test('an eleventh line, even without a newline, caps the output', async () => {
  const { c } = await collector();
  c.write(Buffer.from('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n'));
  c.write(Buffer.from('x'));
  const out = await c.finish();
  expect(out).toMatchObject({ capped: true, head: '1\n2\n', tail: '4\n5\n6\n7\n8\n9\n10\nx', totalLines: 11, omittedLines: 1, omittedBytes: 2, omittedRange: { from: 3, to: 3 } });
  if (!out.capped || !out.spill) throw new Error('expected a spill');
  expect(await readFile(out.spill.path, 'utf8')).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\nx');
});

test('the sources are paused while the spill file opens and resumed after', async () => {
  const { c, flow } = await collector();
  c.write(Buffer.alloc(150, 'a'));
  expect(flow).toEqual([false]);
  await c.finish();
  expect(flow).toEqual([false, true]);
});

test('a full write buffer pauses the sources until it drains; the file gets everything', async () => {
  const { c, flow } = await collector({ spillHighWaterMark: 16 });
  c.write(Buffer.alloc(150, 'a'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  c.write(Buffer.alloc(1000, 'b'));
  expect(flow.at(-1)).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(flow.at(-1)).toBe(true); // drained
  const out = await c.finish();
  if (!out.capped || !out.spill) throw new Error('expected a spill');
  expect((await readFile(out.spill.path, 'utf8')).length).toBe(1150);
});

test('a spill file that cannot be opened is reported; the head and tail are still right', async () => {
  const { c } = await collector({ openSpill: async () => '/nonexistent-dir/x/spill.log' });
  c.write(Buffer.from('a'.repeat(300)));
  const out = await c.finish();
  expect(out).toMatchObject({ capped: true, head: 'a'.repeat(25), tail: 'a'.repeat(75) });
  if (!out.capped) throw new Error('expected a cut');
  expect(out.spill).toBeUndefined();
  expect(out.spillError).toContain('ENOENT');
});

test('memory stays bounded: the tail ring keeps only the last chunks', async () => {
  const { c } = await collector({ spillMaxBytes: 1000 });
  for (let i = 0; i < 10_000; i++) c.write(Buffer.from(`${i}\n`));
  const out = await c.finish();
  if (!out.capped) throw new Error('expected a cut');
  expect(out.tail.endsWith('9999\n')).toBe(true);
  expect(out.spill?.cut).toBe(true);
  expect(out.spill?.bytes).toBeLessThanOrEqual(1000);
  const internal = c as unknown as { tailSize: number };
  expect(internal.tailSize).toBeLessThan(200);
});
