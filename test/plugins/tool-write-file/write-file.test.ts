/** write_file (T3) on real files: parent directories, mode, read-first rule, result text. */
import { chmod, link, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileReadTrackerImpl } from '../../../kernel/file-read-tracker.js';
import { countLines, describeFsError, WriteFileTool } from '../../../plugins/tool-write-file/write-file-tool.js';
import type { ToolContext, ToolInput } from '../../../types/tools.js';
import { toolContext } from '../../support/tool-context.js';

let root: string;
let reads: FileReadTrackerImpl;
let tool: WriteFileTool;
const context = (): ToolContext => toolContext({ projectRoot: root });
const write = (input: ToolInput) => tool.execute(input, context());
const at = (name: string) => path.join(root, name);
/** What read_file does on success: remember the file's current mtime. */
const markRead = async (name: string) => reads.recordRead(await realpath(at(name)), (await stat(at(name))).mtimeMs);

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-write-')));
  reads = new FileReadTrackerImpl();
  tool = new WriteFileTool(reads);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('declares its name, schema, write category and the path as its permission target', async () => {
  expect(tool.name).toBe('write_file');
  expect(tool.readOnly).toBe(false);
  expect(tool.category).toBe('write');
  expect(tool.inputSchema).toMatchObject({ required: ['file_path', 'content'], properties: { file_path: { type: 'string' }, content: { type: 'string' } } });
  expect(await tool.permissionTarget({ file_path: 'x/y.ts', content: '' })).toEqual({ kind: 'path', path: 'x/y.ts' });
  expect(await tool.permissionTarget({ path: 'x/z.ts', content: '' })).toEqual({ kind: 'path', path: 'x/z.ts' });
  // Given the roots, also where the path leads now (the permission layers judge it; the write goes there or nowhere).
  await mkdir(at('x'));
  await symlink('x', at('link'));
  const rooted = new WriteFileTool(reads, { roots: () => ({ projectRoot: root, homeDir: root }) });
  expect(await rooted.permissionTarget({ file_path: 'link/y.ts', content: '' })).toEqual({ kind: 'path', path: 'link/y.ts', real: at('x/y.ts') });
});

test('a path whose folder was swapped for a link between the permission check and the write is refused: nothing is written where the check never looked', async () => {
  await mkdir(at('.git'));
  await writeFile(at('.git/config'), '[core]\n');
  await mkdir(at('d'));
  const rooted = new WriteFileTool(reads, { roots: () => ({ projectRoot: root, homeDir: root }) });
  const input = { file_path: 'd/config', content: '[core]\n\tfsmonitor = evil\n' };
  const judged = await rooted.permissionTarget(input); // d/config, a plain folder's file, when the layers look
  // A command beside the call swaps the folder for a link to .git.
  await rm(at('d'), { recursive: true });
  await symlink('.git', at('d'));
  await markRead('.git/config');
  const result = await rooted.execute(input, toolContext({ projectRoot: root, permissionTarget: judged }));
  expect(result).toEqual({ content: expect.stringContaining('changed during the call'), isError: true });
  expect(await readFile(at('.git/config'), 'utf8')).toBe('[core]\n');
  // Unchanged since the check: written.
  await rm(at('d'));
  await mkdir(at('d'));
  const again = await rooted.permissionTarget(input);
  expect(await rooted.execute(input, toolContext({ projectRoot: root, permissionTarget: again }))).toMatchObject({ content: expect.stringContaining('Wrote') });
  expect(tool.description).toMatch(/edit_file/);
  expect(tool.description).toMatch(/read_file/);
});

test('a new file needs no read: parent directories are created, bytes and lines reported, the write recorded', async () => {
  const content = 'const a = 1;\nconst é = 2;\n';
  const result = await write({ path: 'src/deep/er/x.ts', content });
  expect(result).toEqual({ content: `Wrote ${Buffer.byteLength(content)} bytes (2 lines) to src/deep/er/x.ts (new file).` });
  expect(Buffer.byteLength(content)).toBe(27); // "é" is two bytes: bytes, not characters
  expect(await readFile(at('src/deep/er/x.ts'), 'utf8')).toBe(content);
  expect(reads.lastRead(at('src/deep/er/x.ts'))?.mtimeMs).toBe((await stat(at('src/deep/er/x.ts'))).mtimeMs);
  // no temporary file left behind
  expect(await readdir(at('src/deep/er'))).toEqual(['x.ts']);
});

test('overwriting a file that was not read in this session is refused with an instruction to read it', async () => {
  await writeFile(at('keep.txt'), 'precious');
  const result = await write({ path: 'keep.txt', content: 'oops' });
  expect(result.isError).toBe(true);
  expect(result.content).toBe(
    'Refusing to overwrite keep.txt: it already exists and has not been read in this session. Call read_file on keep.txt first to see what you would replace, then call write_file again. To change part of a file, use edit_file instead of rewriting it.',
  );
  expect(await readFile(at('keep.txt'), 'utf8')).toBe('precious');
});

test('overwriting a file that changed on disk since it was read is refused: read it again', async () => {
  await writeFile(at('a.txt'), 'v1');
  await markRead('a.txt');
  await writeFile(at('a.txt'), 'v2 by someone else');
  await utimes(at('a.txt'), new Date(), new Date(Date.now() + 5000));
  const result = await write({ path: 'a.txt', content: 'mine' });
  expect(result).toEqual({ isError: true, content: expect.stringMatching(/^Refusing to overwrite a\.txt: it has changed on disk since you last read it/) });
  expect(await readFile(at('a.txt'), 'utf8')).toBe('v2 by someone else');
});

test('a read file is overwritten, keeps its mode (0o755 stays 0o755), and can be written again without a re-read', async () => {
  await writeFile(at('run.sh'), '#!/bin/sh\necho old\n');
  await chmod(at('run.sh'), 0o755);
  await markRead('run.sh');
  const inodeBefore = (await stat(at('run.sh'))).ino;
  const result = await write({ path: 'run.sh', content: '#!/bin/sh\necho new' });
  // replaced by rename (atomic): a new inode, with the old mode given back
  expect((await stat(at('run.sh'))).ino).not.toBe(inodeBefore);
  expect(result).toEqual({ content: 'Wrote 18 bytes (2 lines) to run.sh.' });
  expect((await stat(at('run.sh'))).mode & 0o777).toBe(0o755);
  expect(await readFile(at('run.sh'), 'utf8')).toBe('#!/bin/sh\necho new');
  expect((await write({ path: 'run.sh', content: 'again\n' })).content).toBe('Wrote 6 bytes (1 line) to run.sh.');
  await chmod(at('run.sh'), 0o600);
  await markRead('run.sh');
  await write({ path: 'run.sh', content: 'secret' });
  expect((await stat(at('run.sh'))).mode & 0o777).toBe(0o600);
});

test('through a symlink the target file is written and the link stays a link', async () => {
  await mkdir(at('real'));
  await writeFile(at('real/conf.yaml'), 'a: 1\n');
  await symlink(at('real/conf.yaml'), at('conf.yaml'));
  await markRead('conf.yaml');
  expect((await write({ path: 'conf.yaml', content: 'a: 2\n' })).isError).toBeUndefined();
  expect(await readFile(at('real/conf.yaml'), 'utf8')).toBe('a: 2\n');
  expect(await realpath(at('conf.yaml'))).toBe(at('real/conf.yaml'));
});

test('a file with another hard link is replaced by the rename: the other name (maybe outside) keeps its inode and content', async () => {
  await writeFile(at('one.txt'), 'old');
  await link(at('one.txt'), at('two.txt'));
  const before = await stat(at('two.txt'));
  await markRead('one.txt');
  expect((await write({ path: 'one.txt', content: 'new' })).isError).toBeUndefined();
  expect(await readFile(at('one.txt'), 'utf8')).toBe('new');
  expect(await readFile(at('two.txt'), 'utf8')).toBe('old');
  const after = await stat(at('two.txt'));
  expect([after.ino, after.nlink, after.mtimeMs]).toEqual([before.ino, 1, before.mtimeMs]);
  expect((await stat(at('one.txt'))).ino).not.toBe(before.ino);
});

test('empty content, a directory target, a name with "..", and bad input', async () => {
  expect((await write({ path: 'empty.txt', content: '' })).content).toBe('Wrote 0 bytes (0 lines) to empty.txt (new file).');
  await mkdir(at('dir'));
  expect((await write({ path: 'dir', content: 'x' })).content).toMatch(/^dir is a directory; write_file writes files/);
  expect((await write({ path: 'a..b.ts', content: 'x' })).content).toBe('Wrote 1 byte (1 line) to a..b.ts (new file).');
  await writeFile(at('file'), 'x');
  expect((await write({ path: 'file/child.txt', content: 'x' })).content).toMatch(/a part of its directory path exists as a file/);
  expect((await write({ content: 'x' })).content).toMatch(/^write_file: "file_path" is required/);
  expect((await write({ path: 'x.txt' })).content).toMatch(/^write_file: "content" is required and must be a string .*got nothing/);
  expect((await write({ path: 'x.txt', content: 42 })).content).toMatch(/got number/);
});

test('write errors name the cause and what to do (the errno mapping, since root may write anything)', () => {
  const failure = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: failed`), { code });
  const target = { absolute: at('ro.txt'), real: at('ro.txt'), display: 'ro.txt' } as Parameters<typeof describeFsError>[1];
  expect(describeFsError(failure('EACCES'), target, 'write')).toMatch(/^Permission denied: ro\.txt .* Do not retry/);
  expect(describeFsError(failure('EROFS'), target, 'write')).toBe('Cannot write ro.txt: the filesystem is read-only.');
  expect(describeFsError(failure('ENOSPC'), target, 'write')).toMatch(/no space left on the device\. Nothing was changed\.$/);
});

test('line counting: a final newline ends the last line', () => {
  expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb'), countLines('\n\n')]).toEqual([0, 1, 1, 2, 2]);
});

test('the read-first rule lives in the file-read service: checkFresh and recordWrite', () => {
  const tracker = new FileReadTrackerImpl();
  expect(tracker.checkFresh('/p/a.ts', 5)).toEqual({ ok: false, reason: 'not-read' });
  tracker.recordRead('/p/a.ts', 5);
  expect(tracker.checkFresh('/p/a.ts', 5)).toEqual({ ok: true });
  expect(tracker.checkFresh('/p/a.ts', 6)).toEqual({ ok: false, reason: 'changed-since-read' });
  tracker.recordWrite('/p/a.ts', 6);
  expect(tracker.checkFresh('/p/a.ts', 6)).toEqual({ ok: true });
  tracker.recordWrite('/p/b.ts', 1);
  expect(tracker.recent(5)).toEqual(['/p/b.ts', '/p/a.ts']);
});
