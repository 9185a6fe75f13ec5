/**
 * read_file, write_file and edit_file when a front end holds the files (TOKENS.WorkspaceFiles):
 * the text comes from and goes to its buffers, while every check is still made on the disk.
 * The front end here is a small real one: open buffers in memory over the real disk, as an editor
 * with unsaved changes is.
 */
import { chmod, link, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileReadTrackerImpl } from '../../../kernel/file-read-tracker.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { EditFileTool } from '../../../plugins/tool-edit-file/edit-file-tool.js';
import { ReadFileTool } from '../../../plugins/tool-read-file/read-file-tool.js';
import { WriteFileTool } from '../../../plugins/tool-write-file/write-file-tool.js';
import type { ToolInput } from '../../../types/tools.js';
import type { WorkspaceFiles } from '../../../types/workspace-io.js';
import { toolContext } from '../../support/tool-context.js';

/** An editor: buffers (unsaved text) by path; reads fall back to the disk; writes change the buffer only. */
class EditorBuffers implements WorkspaceFiles {
  readonly buffers = new Map<string, string>();
  readonly asked: string[] = [];
  readonly written: string[] = [];

  /** The ranges asked for, in order (undefined: the whole text). */
  readonly ranges: ({ line: number; limit: number } | undefined)[] = [];

  async readText(realPath: string, _signal?: AbortSignal, range?: { line: number; limit: number }): Promise<string> {
    this.asked.push(realPath);
    this.ranges.push(range);
    const text = this.buffers.get(realPath) ?? (await readFile(realPath, 'utf8'));
    if (!range) return text;
    // As an editor answers `line` / `limit`: those lines, each with its line end.
    return (text.match(/[^\n]*\n|[^\n]+$/g) ?? []).slice(range.line - 1, range.line - 1 + range.limit).join('');
  }

  async writeText(realPath: string, content: string): Promise<void> {
    this.written.push(realPath);
    this.buffers.set(realPath, content);
  }
}

let root: string;
let outside: string;
let editor: EditorBuffers;
let reads: FileReadTrackerImpl;
let readTool: ReadFileTool;
let writeTool: WriteFileTool;
let editTool: EditFileTool;
const at = (name: string) => path.join(root, name);
const context = () => toolContext({ projectRoot: root });
const read = (input: ToolInput) => readTool.execute(input, context());
const write = (input: ToolInput) => writeTool.execute(input, context());
const edit = (input: ToolInput) => editTool.execute(input, context());

function tools(files: WorkspaceFiles | undefined): void {
  const limits = createOutputLimits(path.join(root, '.spill'));
  const workspaceFiles = () => files;
  readTool = new ReadFileTool(limits, reads, { workspaceFiles });
  writeTool = new WriteFileTool(reads, { workspaceFiles });
  editTool = new EditFileTool(limits, reads, { workspaceFiles });
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-buffers-')));
  outside = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-buffers-out-')));
  editor = new EditorBuffers();
  reads = new FileReadTrackerImpl();
  tools(editor);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

test('read_file shows the unsaved buffer, numbered and windowed like a file', async () => {
  await writeFile(at('a.ts'), 'on disk\n');
  editor.buffers.set(at('a.ts'), 'one\ntwo\nthree\nfour\n');
  expect(await read({ file_path: 'a.ts' })).toEqual({ content: '     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour' });
  const window = await read({ file_path: 'a.ts', offset: 2, limit: 2 });
  expect(window.content).toMatch(/^ {5}2\ttwo\n {5}3\tthree\n/);
  expect(editor.asked).toEqual([at('a.ts'), at('a.ts')]);
});

test('read_file asks the editor by the real path, after containment: a link out of the project is refused and the editor never asked', async () => {
  await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
  await symlink(path.join(outside, 'secret.txt'), at('leak.txt'));
  await mkdir(at('src'));
  await writeFile(at('src/real.ts'), 'x\n');
  await symlink(at('src/real.ts'), at('alias.ts'));
  const refused = await read({ file_path: 'leak.txt' });
  expect(refused.isError).toBe(true);
  expect(refused.content).toMatch(/outside/);
  expect((await read({ file_path: 'alias.ts' })).content).toBe('     1\tx');
  expect(editor.asked).toEqual([at('src/real.ts')]);
});

test('read_file refuses a file that is binary on disk without asking the editor; a missing file is not found', async () => {
  await writeFile(at('blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
  editor.buffers.set(at('blob.bin'), 'what an editor decoded');
  const binary = await read({ file_path: 'blob.bin' });
  expect(binary.isError).toBe(true);
  expect(binary.content).toMatch(/binary/);
  editor.buffers.set(at('ghost.ts'), 'a buffer never saved');
  expect((await read({ file_path: 'ghost.ts' })).content).toMatch(/not found|does not exist/i);
  expect(editor.asked).toEqual([]);
});

test('an editor that fails to answer becomes an error result the model can act on', async () => {
  await writeFile(at('a.ts'), 'x\n');
  tools({ readText: async () => Promise.reject(new Error('buffer closed')) });
  const result = await read({ file_path: 'a.ts' });
  expect(result).toEqual({ isError: true, content: expect.stringContaining('buffer closed') });
});

test('edit_file applies to the buffer, writes through the editor, leaves the disk alone; a second edit needs no re-read', async () => {
  await writeFile(at('a.ts'), 'const a = 1;\n');
  editor.buffers.set(at('a.ts'), 'const a = 1;\nconst unsaved = 2;\n');
  await read({ file_path: 'a.ts' });
  const result = await edit({ file_path: 'a.ts', old_string: 'unsaved = 2', new_string: 'edited = 3' });
  expect(result.isError).toBeUndefined();
  expect(result.content).toMatch(/^Edited a\.ts: replaced 1 occurrence \(line 2\)\./);
  expect(result.content).toContain('-const unsaved = 2;\n+const edited = 3;');
  expect(editor.buffers.get(at('a.ts'))).toBe('const a = 1;\nconst edited = 3;\n');
  expect(await readFile(at('a.ts'), 'utf8')).toBe('const a = 1;\n');
  expect((await edit({ file_path: 'a.ts', old_string: 'const a', new_string: 'let a' })).isError).toBeUndefined();
  expect(editor.buffers.get(at('a.ts'))).toBe('let a = 1;\nconst edited = 3;\n');
  expect(editor.written).toEqual([at('a.ts'), at('a.ts')]);
});

test('edit_file keeps the read-first and stale-file rules on the disk file: nothing reaches the editor', async () => {
  await writeFile(at('a.ts'), 'one\n');
  editor.buffers.set(at('a.ts'), 'one\ntwo\n');
  const unread = await edit({ file_path: 'a.ts', old_string: 'two', new_string: '2' });
  expect(unread.isError).toBe(true);
  expect(unread.content).toMatch(/read/i);
  await read({ file_path: 'a.ts' });
  const later = new Date(Date.now() + 5_000);
  await utimes(at('a.ts'), later, later); // saved or changed on disk since the read
  const stale = await edit({ file_path: 'a.ts', old_string: 'two', new_string: '2' });
  expect(stale.isError).toBe(true);
  expect(stale.content).toMatch(/changed|modified/i);
  expect(editor.written).toEqual([]);
  expect(editor.buffers.get(at('a.ts'))).toBe('one\ntwo\n');
});

test('edit_file refuses a binary file and one outside the project before the editor is asked', async () => {
  await writeFile(at('blob.bin'), Buffer.from([1, 0, 2, 0]));
  reads.recordRead(at('blob.bin'), (await stat(at('blob.bin'))).mtimeMs);
  editor.buffers.set(at('blob.bin'), 'abc');
  expect((await edit({ file_path: 'blob.bin', old_string: 'abc', new_string: 'x' })).isError).toBe(true);
  await writeFile(path.join(outside, 'b.ts'), 'b\n');
  const escaped = await edit({ file_path: path.join(outside, 'b.ts'), old_string: 'b', new_string: 'c' });
  expect(escaped.isError).toBe(true);
  expect(escaped.content).toMatch(/outside/);
  expect(editor.asked).toEqual([]);
  expect(editor.written).toEqual([]);
});

test('write_file creates a new file through the editor (its directory made on disk, the file left to the editor)', async () => {
  const result = await write({ file_path: 'src/new.ts', content: 'export {};\n' });
  expect(result).toEqual({ content: 'Wrote 11 bytes (1 line) to src/new.ts (new file).' });
  expect(editor.buffers.get(at('src/new.ts'))).toBe('export {};\n');
  expect((await stat(at('src'))).isDirectory()).toBe(true);
  await expect(stat(at('src/new.ts'))).rejects.toMatchObject({ code: 'ENOENT' });
});

test('write_file over an existing file: read first, a read-only file stays protected, a link out of the project is refused', async () => {
  await writeFile(at('a.ts'), 'old\n');
  expect((await write({ file_path: 'a.ts', content: 'new\n' })).isError).toBe(true);
  await read({ file_path: 'a.ts' });
  expect((await write({ file_path: 'a.ts', content: 'new\n' })).isError).toBeUndefined();
  expect(editor.buffers.get(at('a.ts'))).toBe('new\n');

  await writeFile(at('locked.ts'), 'locked\n');
  await chmod(at('locked.ts'), 0o444);
  await read({ file_path: 'locked.ts' });
  // root may write any file, so only another user sees the refusal
  const asRoot = process.getuid?.() === 0;
  expect((await write({ file_path: 'locked.ts', content: 'x' })).isError).toBe(asRoot ? undefined : true);

  // A write outside the project is refused with the editor never asked, even through a link.
  await symlink(path.join(outside, 'target.ts'), at('out.ts'));
  const escaped = await write({ file_path: 'out.ts', content: 'x' });
  expect(escaped.isError).toBe(true);
  expect(escaped.content).toMatch(/outside/);
  expect(editor.written).toEqual(asRoot ? [at('a.ts'), at('locked.ts')] : [at('a.ts')]);
});

test('an editor that only reads: edits read its buffer and are written to disk as usual', async () => {
  const readOnlyEditor: WorkspaceFiles = { readText: (p) => editor.readText(p) };
  tools(readOnlyEditor);
  await writeFile(at('a.ts'), 'disk\n');
  editor.buffers.set(at('a.ts'), 'buffer\n');
  await read({ file_path: 'a.ts' });
  expect((await edit({ file_path: 'a.ts', old_string: 'buffer', new_string: 'edited' })).isError).toBeUndefined();
  expect(await readFile(at('a.ts'), 'utf8')).toBe('edited\n');
});

test('unbound (no front end): the disk, as always', async () => {
  tools(undefined);
  await writeFile(at('a.ts'), 'disk\n');
  editor.buffers.set(at('a.ts'), 'buffer\n');
  expect((await read({ file_path: 'a.ts' })).content).toBe('     1\tdisk');
  expect((await edit({ file_path: 'a.ts', old_string: 'disk', new_string: 'edited' })).isError).toBeUndefined();
  expect(await readFile(at('a.ts'), 'utf8')).toBe('edited\n');
  expect(editor.asked).toEqual([]);
});

test('a file given another hard link after it was read (a name maybe outside the project) is not handed to the editor, which writes in place: write_file and edit_file refuse it', async () => {
  await writeFile(at('shared.txt'), 'project content\n');
  expect((await read({ file_path: 'shared.txt' })).isError).toBeUndefined();
  // read_file refuses a file with several links; one made after the read is what is left to catch.
  await link(at('shared.txt'), path.join(outside, 'shared.txt'));
  const written = await write({ file_path: 'shared.txt', content: 'replaced\n' });
  expect(written.isError).toBe(true);
  expect(written.content).toMatch(/has 2 hard links .*nothing was written/);
  const edited = await edit({ file_path: 'shared.txt', old_string: 'project', new_string: 'edited' });
  expect(edited.isError).toBe(true);
  expect(edited.content).toMatch(/has 2 hard links/);
  expect(editor.written).toEqual([]);
  expect(await readFile(path.join(outside, 'shared.txt'), 'utf8')).toBe('project content\n');
});

describe('an unsaved edit in the buffer after the model read it (no mtime changes)', () => {
  beforeEach(async () => {
    await writeFile(at('a.txt'), 'alpha\nbeta\ngamma\n');
  });

  test('write_file refuses to replace it, and writes once the model read it again', async () => {
    await read({ file_path: 'a.txt' });
    editor.buffers.set(at('a.txt'), 'USER LINE\nalpha\nbeta\ngamma\n');
    const refused = await write({ file_path: 'a.txt', content: 'mine\n' });
    expect(refused).toMatchObject({ isError: true, content: expect.stringMatching(/has changed since you last read it/i) });
    expect(editor.buffers.get(at('a.txt'))).toBe('USER LINE\nalpha\nbeta\ngamma\n');
    await read({ file_path: 'a.txt' });
    expect(await write({ file_path: 'a.txt', content: 'mine\n' })).not.toHaveProperty('isError');
    expect(editor.buffers.get(at('a.txt'))).toBe('mine\n');
  });

  test('edit_file refuses too; its own writes, and a buffer left as the model saw it, are no change', async () => {
    await read({ file_path: 'a.txt' });
    expect(await edit({ file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' })).not.toHaveProperty('isError');
    expect(await edit({ file_path: 'a.txt', old_string: 'gamma', new_string: 'GAMMA' })).not.toHaveProperty('isError');
    expect(await write({ file_path: 'a.txt', content: 'alpha\nBETA\nGAMMA\nmore\n' })).not.toHaveProperty('isError');
    editor.buffers.set(at('a.txt'), 'alpha\nBETA\nGAMMA\nmore\nuser typed\n');
    expect(await edit({ file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' })).toMatchObject({ isError: true, content: expect.stringMatching(/has changed since you last read it/i) });
    expect(editor.buffers.get(at('a.txt'))).toBe('alpha\nBETA\nGAMMA\nmore\nuser typed\n');
  });

  test('a read of some lines: a change in those lines is caught', async () => {
    await read({ file_path: 'a.txt', offset: 2, limit: 1 });
    editor.buffers.set(at('a.txt'), 'alpha\nbeta (user)\ngamma\n');
    expect(await write({ file_path: 'a.txt', content: 'x\n' })).toMatchObject({ isError: true });
    expect(await edit({ file_path: 'a.txt', old_string: 'gamma', new_string: 'G' })).toMatchObject({ isError: true });
  });

  test('on disk the mtime still decides (no extra read of the buffer when nothing holds the file)', async () => {
    tools(undefined);
    await read({ file_path: 'a.txt' });
    expect(await write({ file_path: 'a.txt', content: 'disk\n' })).not.toHaveProperty('isError');
    await writeFile(at('a.txt'), 'changed outside\n');
    await utimes(at('a.txt'), new Date(), new Date(Date.now() + 5000));
    expect(await write({ file_path: 'a.txt', content: 'again\n' })).toMatchObject({ isError: true });
  });
});

describe('read_file with offset / limit asks the editor for those lines only, with the same result as on disk', () => {
  const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  test.each([
    [{ offset: 5, limit: 3 }, { line: 5, limit: 4 }],
    [{ limit: 4 }, { line: 1, limit: 5 }],
    [{ offset: 28, limit: 10 }, { line: 28, limit: 11 }],
    [{ offset: 30 }, { line: 30, limit: 2001 }],
  ])('%j', async (window, asked) => {
    await writeFile(at('n.txt'), text);
    const fromEditor = await read({ file_path: 'n.txt', ...window });
    expect(editor.ranges).toEqual([asked]);
    tools(undefined);
    expect(fromEditor).toEqual(await read({ file_path: 'n.txt', ...window }));
  });

  test('past the end: the same error as on disk', async () => {
    await writeFile(at('n.txt'), text);
    const fromEditor = await read({ file_path: 'n.txt', offset: 40, limit: 2 });
    expect(editor.ranges[0]).toEqual({ line: 40, limit: 3 });
    tools(undefined);
    expect(fromEditor).toEqual(await read({ file_path: 'n.txt', offset: 40, limit: 2 }));
  });

  test('an editor that ignores the range and sends the whole text: still the lines asked for', async () => {
    await writeFile(at('n.txt'), text);
    const whole = { readText: async (realPath: string) => readFile(realPath, 'utf8') };
    tools(whole);
    const fromEditor = await read({ file_path: 'n.txt', offset: 5, limit: 3 });
    tools(undefined);
    expect(fromEditor).toEqual(await read({ file_path: 'n.txt', offset: 5, limit: 3 }));
  });

  test('no offset or limit: the whole text is asked for', async () => {
    await writeFile(at('n.txt'), text);
    await read({ file_path: 'n.txt' });
    expect(editor.ranges).toEqual([undefined]);
  });
});
