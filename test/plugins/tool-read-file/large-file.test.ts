/**
 * T2: the head of a huge file is read without loading the file. A 1 GiB file whose first
 * 4 MiB are real text lines and whose rest is a sparse hole (reads as NUL bytes, costs no disk).
 * A whole-file read would raise the process's peak RSS by at least 1 GiB (the buffer alone) and
 * read 1 GiB; the peak (`resourceUsage().maxRSS`, which GC cannot hide) must grow by less than
 * 64 MiB, and the bytes the process read (`rchar` in /proc/self/io, which counts reads served
 * from the page cache too, so a streaming scan that keeps no buffer is caught) must stay under
 * 64 MiB. A deep offset inside the text exercises the skip path under the same bounds.
 */
import { readFileSync } from 'node:fs';
import { open, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileReadTrackerImpl } from '../../../kernel/file-read-tracker.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { ReadFileTool } from '../../../plugins/tool-read-file/read-file-tool.js';
import { toolContext } from '../../support/tool-context.js';

const GIB = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;
let root: string;

/** Bytes this process has read through read(2) and friends so far (Linux). */
function bytesRead(): number {
  const line = readFileSync('/proc/self/io', 'utf8').split('\n').find((l) => l.startsWith('rchar:'));
  if (!line) throw new Error('/proc/self/io has no rchar line');
  return Number(line.slice('rchar:'.length));
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-read-big-')));
  const file = await open(path.join(root, 'huge.log'), 'w');
  const block = Buffer.from(Array.from({ length: 16384 }, (_, i) => `log line ${String(i).padStart(6, '0')} ${'x'.repeat(40)}\n`).join(''));
  for (let i = 0; i < Math.ceil((4 * 1024 * 1024) / block.length); i++) await file.write(block);
  await file.truncate(GIB);
  await file.close();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

test('the first window of a 1 GiB file is read without reading the file: small peak-memory increase, few bytes read', async () => {
  const tool = new ReadFileTool(createOutputLimits(path.join(root, '.spill')), new FileReadTrackerImpl());
  const context = toolContext({ projectRoot: root });
  await tool.execute({ path: 'huge.log', limit: 1 }, context); // warm the code path, not the data

  const peakBefore = process.resourceUsage().maxRSS * 1024;
  const readBefore = bytesRead();
  const head = await tool.execute({ path: 'huge.log' }, context);
  const deep = await tool.execute({ path: 'huge.log', offset: 60000, limit: 3 }, context);
  const read = bytesRead() - readBefore;
  const growth = process.resourceUsage().maxRSS * 1024 - peakBefore;

  const lines = head.content.split('\n');
  expect(lines[0]).toBe(`     1\tlog line 000000 ${'x'.repeat(40)}`);
  expect(lines[2000]).toBe('[… more lines follow. To read on, call read_file with offset=2001.]');
  expect(deep.content.split('\n')[0]).toBe(` 60000\tlog line ${String((60000 - 1) % 16384).padStart(6, '0')} ${'x'.repeat(40)}`);
  // The head window and the skip to line 60,000 (≈ 3.4 MB of text) need a few MiB, not the GiB.
  expect(read).toBeGreaterThan(3 * MIB);
  expect(read).toBeLessThan(64 * MIB);
  expect(growth).toBeLessThan(64 * MIB);
});
