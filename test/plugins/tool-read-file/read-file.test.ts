/** read_file (T2) on real files in a temporary project: windows, caps, markers, errors. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileReadTrackerImpl } from '../../../kernel/file-read-tracker.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { LINE_CUT_MARKER } from '../../../plugins/output-limits/limits.js';
import { invalidUtf8Bytes } from '../../../sdk/file-tool-support/binary-sniff.js';
import { ReadFileTool, describeFsError } from '../../../plugins/tool-read-file/read-file-tool.js';
import type { OutputLimits } from '../../../types/services.js';
import type { ToolContext, ToolInput } from '../../../types/tools.js';
import { toolContext } from '../../support/tool-context.js';

let root: string;
let home: string;
let reads: FileReadTrackerImpl;
let tool: ReadFileTool;
const limits = (): OutputLimits => createOutputLimits(path.join(root, '.mewcode', 'tool-output'));
const context = (): ToolContext => toolContext({ projectRoot: root, homeDir: home });
const read = (input: ToolInput, using: ReadFileTool = tool) => using.execute(input, context());
const put = (name: string, content: string | Buffer) => writeFile(path.join(root, name), content);
const numbered = (n: number, text: string) => `${String(n).padStart(6)}\t${text}`;
const lines = (count: number, make: (n: number) => string = (n) => `line ${n}`) => Array.from({ length: count }, (_, i) => `${make(i + 1)}\n`).join('');

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-read-')));
  home = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-home-')));
  reads = new FileReadTrackerImpl();
  tool = new ReadFileTool(limits(), reads);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

test('declares its name, schema, read-only category and the path as its permission target', () => {
  expect(tool.name).toBe('read_file');
  expect(tool.readOnly).toBe(true);
  expect(tool.category).toBe('read');
  expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['file_path'], properties: { file_path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } } });
  expect(tool.permissionTarget({ file_path: 'src/a.ts' })).toEqual({ kind: 'path', path: 'src/a.ts' });
  // The older field name still names the file.
  expect(tool.permissionTarget({ path: 'src/b.ts' })).toEqual({ kind: 'path', path: 'src/b.ts' });
  expect(tool.description).toMatch(/edit_file/);
  expect(tool.description).toMatch(/glob/);
});

test('numbers lines like cat -n (%6d\\t) and records the read with the file mtime', async () => {
  await put('a.ts', 'first\nsecond\n');
  const result = await read({ path: 'a.ts' });
  expect(result).toEqual({ content: `${numbered(1, 'first')}\n${numbered(2, 'second')}` });
  const real = path.join(root, 'a.ts');
  expect(reads.lastRead(real)?.mtimeMs).toBe((await stat(real)).mtimeMs);
});

test('a last line without a newline is shown; no phantom empty line after a final newline', async () => {
  await put('a.txt', 'x\ny');
  expect((await read({ path: 'a.txt' })).content).toBe(`${numbered(1, 'x')}\n${numbered(2, 'y')}`);
});

test('2000 lines are shown whole; 2001 lines stop at 2000 with the marker giving offset=2001', async () => {
  await put('exact.txt', lines(2000));
  const exact = await read({ path: 'exact.txt' });
  expect(exact.content.split('\n')).toHaveLength(2000);
  expect(exact.content.endsWith(numbered(2000, 'line 2000'))).toBe(true);

  await put('over.txt', lines(2001));
  const over = (await read({ path: 'over.txt' })).content.split('\n');
  expect(over).toHaveLength(2001);
  expect(over[1999]).toBe(numbered(2000, 'line 2000'));
  expect(over[2000]).toBe('[… more lines follow. To read on, call read_file with offset=2001.]');
  const rest = await read({ path: 'over.txt', offset: 2001 });
  expect(rest.content).toBe(numbered(2001, 'line 2001'));
});

test('exactly 256 KiB is shown whole; one byte more stops at the byte cap, saying so and where to go on', async () => {
  const row = (n: number) => `${String(n).padStart(4, '0')}${'x'.repeat(251)}`; // 255 chars + \n = 256 bytes
  await put('exact.txt', lines(1024, row));
  expect((await stat(path.join(root, 'exact.txt'))).size).toBe(256 * 1024);
  const exact = (await read({ path: 'exact.txt' })).content.split('\n');
  expect(exact).toHaveLength(1024);
  expect(exact[1023]).toBe(numbered(1024, row(1024)));

  await put('over.txt', lines(1024, row) + 'y');
  expect((await stat(path.join(root, 'over.txt'))).size).toBe(256 * 1024 + 1);
  const over = (await read({ path: 'over.txt' })).content.split('\n');
  expect(over).toHaveLength(1025);
  expect(over[1024]).toBe('[… stopped at the 256 KiB per-call limit; more lines follow. To read on, call read_file with offset=1025.]');
  expect((await read({ path: 'over.txt', offset: 1025 })).content).toBe(numbered(1025, 'y'));
});

test('a 2000-character line is shown whole; a 2001-character line is cut, marked, and explained', async () => {
  await put('ok.txt', `${'a'.repeat(2000)}\n`);
  expect((await read({ path: 'ok.txt' })).content).toBe(numbered(1, 'a'.repeat(2000)));

  await put('long.txt', `${'b'.repeat(2001)}\nshort\n`);
  const [first, second, note] = (await read({ path: 'long.txt' })).content.split('\n');
  expect(first).toBe(numbered(1, 'b'.repeat(2000) + LINE_CUT_MARKER));
  expect(second).toBe(numbered(2, 'short'));
  expect(note).toContain('longer than 2000 characters');
  expect(note).toContain(LINE_CUT_MARKER);
});

test('a 400 KB single-line file: one note, that the line was cut and how to read past it (not two that disagree)', async () => {
  await put('oneline.txt', `${'x'.repeat(400_000)}\nafter\n`);
  const [first, ...notes] = (await read({ path: 'oneline.txt' })).content.split('\n');
  expect(first).toBe(numbered(1, 'x'.repeat(2000) + LINE_CUT_MARKER));
  expect(notes).toEqual([expect.stringMatching(/^\[Line 1 is longer than 2000 characters and was cut; read_file cannot show the rest of it\..*call read_file with offset=2\.\]$/)]);
  expect(notes[0]).not.toContain('only its start');
});

test('offset and limit select a window; the marker names the next offset; offset 0 reads as 1', async () => {
  await put('ten.txt', lines(10));
  expect((await read({ path: 'ten.txt', offset: 3, limit: 4 })).content).toBe(
    [3, 4, 5, 6].map((n) => numbered(n, `line ${n}`)).join('\n') + '\n[… more lines follow. To read on, call read_file with offset=7.]',
  );
  expect((await read({ path: 'ten.txt', offset: 7, limit: 4 })).content).toBe([7, 8, 9, 10].map((n) => numbered(n, `line ${n}`)).join('\n'));
  expect((await read({ path: 'ten.txt', offset: 0, limit: 1 })).content.split('\n')[0]).toBe(numbered(1, 'line 1'));
  // limit above the maximum is clamped, not refused
  expect((await read({ path: 'ten.txt', limit: 5000 })).isError).toBeUndefined();
});

test('an offset past the end is an error that states the line count, and records nothing', async () => {
  await put('ten.txt', lines(10));
  const past = await read({ path: 'ten.txt', offset: 11 });
  expect(past.isError).toBe(true);
  expect(past.content).toBe('offset=11 is past the end of ten.txt: the file has 10 lines. Call read_file with an offset from 1 to 10.');
  await put('no-newline.txt', 'a\nb\nc');
  expect((await read({ path: 'no-newline.txt', offset: 99 })).content).toContain('the file has 3 lines');
  expect(reads.recent(10)).toEqual([]);
});

test('a multi-byte character straddling the byte cap is never split (no U+FFFD)', async () => {
  // Cap at 10 bytes: "aaaaaaaa" is 8 bytes, "€" (3 bytes) would end at byte 11.
  const tiny = new ReadFileTool({ ...limits(), readMaxBytes: 10 }, reads);
  await put('euro.txt', `aaaaaaaa€€\nnext\n`);
  const result = (await read({ path: 'euro.txt' }, tiny)).content.split('\n');
  expect(result[0]).toBe(numbered(1, 'aaaaaaaa'));
  expect(result[1]).toBe('[… line 1 is longer than the 10 bytes per-call limit; only its start is shown. To read the lines after it, call read_file with offset=2.]');

  // Real 256 KiB cap, no character cap: 100 000 × "€" = 300 000 bytes in one line.
  const wide = new ReadFileTool({ ...limits(), readLineMaxChars: 1_000_000 }, reads);
  await put('wide.txt', '€'.repeat(100_000));
  const shown = (await read({ path: 'wide.txt' }, wide)).content.split('\n')[0]!.slice(7);
  expect(shown).not.toContain('\ufffd');
  expect(shown).toBe('€'.repeat(Math.floor((256 * 1024) / 3)));
});

test('multi-byte text past the 1 MiB skip chunk decodes intact at a deep offset', async () => {
  // 1999-byte lines of "é" (2 bytes each) + \n: chunk boundaries fall inside characters.
  const row = 'é'.repeat(999);
  await put('accents.txt', lines(600, () => row));
  const window = (await read({ path: 'accents.txt', offset: 530, limit: 10 })).content.split('\n');
  expect(window.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => numbered(530 + i, row)));
  expect(window[10]).toBe('[… more lines follow. To read on, call read_file with offset=540.]');
});

test('the binary sniff does not count a character cut by its 8 KiB window as invalid', () => {
  const sample = Buffer.concat([Buffer.alloc(8191, 0x61), Buffer.from([0xc3])]);
  expect(invalidUtf8Bytes(sample, true)).toBe(0);
  expect(invalidUtf8Bytes(sample, false)).toBe(1);
  expect(invalidUtf8Bytes(Buffer.from([0xe0, 0x80, 0x80]), false)).toBe(3); // overlong
});

test('CRLF lines are shown without their \\r', async () => {
  await put('dos.txt', 'one\r\ntwo\r\n');
  expect((await read({ path: 'dos.txt' })).content).toBe(`${numbered(1, 'one')}\n${numbered(2, 'two')}`);
});

test('a UTF-8 byte-order mark is not shown as part of line 1', async () => {
  await put('bom.txt', '\ufeffhello\n');
  expect((await read({ path: 'bom.txt' })).content).toBe(numbered(1, 'hello'));
});

test('an empty file says so, is not an error, and counts as read', async () => {
  await put('empty.txt', '');
  expect(await read({ path: 'empty.txt' })).toEqual({ content: '[empty.txt is empty (0 bytes).]' });
  expect(reads.lastRead(path.join(root, 'empty.txt'))).toBeDefined();
});

test('binary files are refused: NUL bytes, or mostly invalid UTF-8; a few Latin-1 bytes are not binary', async () => {
  await put('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
  const png = await read({ path: 'img.png' });
  expect(png.isError).toBe(true);
  expect(png.content).toMatch(/^img\.png looks like a binary file \(it contains NUL bytes\); its content is not shown/);
  await put('noise.bin', Buffer.from(Array.from({ length: 4096 }, (_, i) => 0x80 + (i % 0x7f))));
  expect((await read({ path: 'noise.bin' })).content).toMatch(/binary file \(\d+% of its first bytes are not valid UTF-8\)/);
  await put('latin1.txt', Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' au lait\n')]));
  expect((await read({ path: 'latin1.txt' })).content).toBe(numbered(1, 'caf\ufffd au lait'));
  expect(reads.lastRead(path.join(root, 'img.png'))).toBeUndefined();
});

test('a directory, a missing file and a path through a file are distinct errors that say what to do', async () => {
  await mkdir(path.join(root, 'src'));
  await put('src/index.js', 'x');
  const dir = await read({ path: 'src' });
  expect(dir).toEqual({ isError: true, content: expect.stringMatching(/^src is a directory, not a file\. .*glob \(e\.g\. pattern "src\/\*"\) or bash ls/) });
  const missing = await read({ path: 'src/index.ts' });
  expect(missing.isError).toBe(true);
  expect(missing.content).toBe('File not found: src/index.ts. Similar names in the same directory: src/index.js. Check the path, or use glob to find the file by name (e.g. pattern "**/index.ts").');
  expect((await read({ path: 'nowhere/x.ts' })).content).toMatch(/^File not found: nowhere\/x\.ts\. Check the path/);
  expect((await read({ path: 'src/index.js/deeper' })).content).toMatch(/a part of the path is a file/);
});

test('a FIFO is refused at once instead of blocking on open', async () => {
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  const result = await read({ path: 'pipe' });
  expect(result).toEqual({ isError: true, content: expect.stringContaining('is not a regular file (it is a FIFO)') });
});

test('an unreadable file is a permission error (the errno mapping, since root can read anything)', async () => {
  const denied = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });
  for (const code of ['EACCES', 'EPERM']) {
    expect(await describeFsError(denied(code), path.join(root, 'secret.txt'), 'secret.txt')).toMatch(/^Permission denied: secret\.txt cannot be read/);
  }
  expect(await describeFsError(denied('EISDIR'), root, 'src')).toMatch(/^src is a directory/);
});

test('paths: relative to the project root, absolute, ~ for home, names with "..", symlinks recorded by target', async () => {
  await put('a..b.ts', 'dots\n');
  expect((await read({ path: 'a..b.ts' })).content).toBe(numbered(1, 'dots'));
  expect((await read({ path: path.join(root, 'a..b.ts') })).content).toBe(numbered(1, 'dots'));
  await writeFile(path.join(home, 'notes.md'), 'home\n');
  // Home is outside the project: readable only as an allowed additional directory (A3, A15).
  expect((await read({ path: '~/notes.md' })).content).toMatch(/^Refusing to read .*notes\.md: it is outside the project root/);
  const withHome = new ReadFileTool(limits(), reads, { additionalDirectories: () => ['~'] });
  expect((await read({ path: '~/notes.md' }, withHome)).content).toBe(numbered(1, 'home'));
  await symlink(path.join(root, 'a..b.ts'), path.join(root, 'link.ts'));
  reads = new FileReadTrackerImpl();
  tool = new ReadFileTool(limits(), reads);
  await read({ path: 'link.ts' });
  expect(reads.recent(5)).toEqual([path.join(root, 'a..b.ts')]);
});

test('bad input is an error naming the field', async () => {
  expect((await read({})).content).toMatch(/^read_file: "file_path" is required/);
  expect((await read({ file_path: 3 })).content).toMatch(/^read_file: "file_path" is required and must be a non-empty string/);
  expect((await read({ path: 'a', offset: -1 })).content).toMatch(/^read_file: "offset" must be an integer ≥ 1/);
  expect((await read({ path: 'a', limit: 'ten' })).content).toMatch(/^read_file: "limit" must be an integer ≥ 1 .*got "ten"/);
  expect((await read({ path: 'a', limit: 1.5 })).isError).toBe(true);
});
