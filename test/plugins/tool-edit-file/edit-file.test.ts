/** edit_file (T4) on real files: matching, errors that teach, replace_all, mode, CRLF, diff. */
import { chmod, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileReadTrackerImpl } from '../../../kernel/file-read-tracker.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { EditFileTool } from '../../../plugins/tool-edit-file/edit-file-tool.js';
import type { ToolContext, ToolInput } from '../../../types/tools.js';
import { toolContext } from '../../support/tool-context.js';

let root: string;
let reads: FileReadTrackerImpl;
let tool: EditFileTool;
const context = (): ToolContext => toolContext({ projectRoot: root });
const edit = (input: ToolInput) => tool.execute(input, context());
const at = (name: string) => path.join(root, name);
const markRead = async (name: string) => reads.recordRead(await realpath(at(name)), (await stat(at(name))).mtimeMs);
/** A file the model has read. */
const given = async (name: string, content: string | Buffer) => {
  await writeFile(at(name), content);
  await markRead(name);
};

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-edit-')));
  reads = new FileReadTrackerImpl();
  tool = new EditFileTool(createOutputLimits(path.join(root, '.spill')), reads);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('declares its name, schema, write category and file_path as its permission target (A4)', async () => {
  expect(tool.name).toBe('edit_file');
  expect(tool.readOnly).toBe(false);
  expect(tool.category).toBe('write');
  expect(tool.inputSchema).toMatchObject({
    required: ['file_path', 'old_string', 'new_string'],
    properties: { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' }, replace_all: { type: 'boolean' } },
  });
  expect(await tool.permissionTarget({ file_path: 'src/a.ts', old_string: 'a', new_string: 'b' })).toEqual({ kind: 'path', path: 'src/a.ts' });
  expect(tool.description).toMatch(/read_file/);
  expect(tool.description).toMatch(/write_file/);
});

test('an exact unique match is replaced; the result names the line and carries a unified diff', async () => {
  await given('a.ts', 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n');
  const result = await edit({ file_path: 'a.ts', old_string: 'five', new_string: 'FIVE\nand a half' });
  expect(result).toEqual({
    content: ['Edited a.ts: replaced 1 occurrence (line 5).', '@@ -2,7 +2,8 @@', ' two', ' three', ' four', '-five', '+FIVE', '+and a half', ' six', ' seven', ' eight'].join('\n'),
  });
  expect(await readFile(at('a.ts'), 'utf8')).toBe('one\ntwo\nthree\nfour\nFIVE\nand a half\nsix\nseven\neight\n');
  // the new mtime is recorded: a second edit needs no re-read
  expect((await edit({ file_path: 'a.ts', old_string: 'one', new_string: '1' })).isError).toBeUndefined();
});

test('"$" sequences in new_string are inserted literally', async () => {
  await given('a.js', 'x = price;\n');
  await edit({ file_path: 'a.js', old_string: 'price', new_string: "$& $1 $$ $'" });
  expect(await readFile(at('a.js'), 'utf8')).toBe("x = $& $1 $$ $';\n");
});

test('no match: the error shows the closest region with line numbers and says how to fix the call', async () => {
  await given('m.py', ['def a():', '    return 1', '', 'def total(items):', '    s = 0', '    for i in items:', '        s += i', '    return s', ''].join('\n'));
  const result = await edit({ file_path: 'm.py', old_string: 'def total(items):\n  s = 0\n  for i in items:', new_string: 'x' });
  expect(result.isError).toBe(true);
  expect(result.content).toBe(
    [
      'old_string was not found in m.py.',
      'Lines 4-6 match it except for whitespace (indentation, tabs vs spaces, or trailing spaces):',
      '     4\tdef total(items):',
      '     5\t    s = 0',
      '     6\t    for i in items:',
      'Copy the exact text from the file, including indentation and whitespace and without the line-number prefixes, and retry. If the file may have changed, call read_file on it first (offset=4).',
    ].join('\n'),
  );

  // A changed word: no line matches exactly, the window sharing the most words is shown.
  const renamed = await edit({ file_path: 'm.py', old_string: '    for item in items:\n        s += item', new_string: 'x' });
  expect(renamed.content).toContain('The most similar region is lines 6-7:\n     6\t    for i in items:\n     7\t        s += i');

  const unrelated = await edit({ file_path: 'm.py', old_string: '@@@', new_string: 'x' });
  expect(unrelated.content).toMatch(/No similar lines were found either\. Call read_file/);
});

test('no match because read_file line-number prefixes were copied: the hint says so and where it matches', async () => {
  await given('a.ts', 'alpha\nbeta\ngamma\n');
  const result = await edit({ file_path: 'a.ts', old_string: '     2\tbeta\n     3\tgamma', new_string: 'x' });
  expect(result.content).toContain("old_string seems to include read_file's line-number prefixes");
  expect(result.content).toContain('Without them it matches at line 2.');
});

test('several matches without replace_all: the count, the lines, and how to disambiguate; nothing written', async () => {
  await given('a.ts', 'let x = 1;\nfoo();\nlet x = 1;\nbar();\nlet x = 1;\n');
  const result = await edit({ file_path: 'a.ts', old_string: 'let x = 1;', new_string: 'let x = 2;' });
  expect(result).toEqual({
    isError: true,
    content:
      'old_string occurs 3 times in a.ts (at lines 1, 3, 5), and edit_file replaces exactly one occurrence unless replace_all is true. Include more surrounding lines in old_string so that it matches only the occurrence you mean, or set replace_all: true to change every occurrence.',
  });
  expect(await readFile(at('a.ts'), 'utf8')).toContain('let x = 1;\nbar();');
});

test('replace_all replaces every occurrence and lists their lines; the diff groups nearby changes', async () => {
  const body = ['a = old', ...Array.from({ length: 20 }, (_, i) => `pad ${i}`), 'b = old', 'c = old', ''].join('\n');
  await given('a.txt', body);
  const result = await edit({ file_path: 'a.txt', old_string: 'old', new_string: 'new', replace_all: true });
  expect(await readFile(at('a.txt'), 'utf8')).toBe(body.replaceAll('old', 'new'));
  const [summary, ...diff] = result.content.split('\n');
  expect(summary).toBe('Edited a.txt: replaced 3 occurrences (lines 1, 22, 23).');
  expect(diff.filter((l) => l.startsWith('@@'))).toEqual(['@@ -1,4 +1,4 @@', '@@ -19,5 +19,5 @@']);
  expect(diff.filter((l) => l.startsWith('-') || l.startsWith('+'))).toEqual(['-a = old', '+a = new', '-b = old', '-c = old', '+b = new', '+c = new']);
});

test('a large change is diffed with a size cap and a marker saying where to look', async () => {
  const many = Array.from({ length: 200 }, (_, i) => `v${i}`).join('\n') + '\n';
  await given('big.txt', many);
  const result = await edit({ file_path: 'big.txt', old_string: 'v', new_string: 'w', replace_all: true });
  const lines = result.content.split('\n');
  expect(lines.length).toBeLessThanOrEqual(1 + 80 + 1);
  expect(lines[lines.length - 1]).toBe('[… diff cut at 80 lines; call read_file on big.txt with offset=1 to check the rest of the change.]');
  expect(await readFile(at('big.txt'), 'utf8')).toBe(many.replaceAll('v', 'w'));
});

test('when later change groups are left out of the diff, the marker points at them in the edited file', async () => {
  const body = Array.from({ length: 400 }, (_, i) => (i % 10 === 5 ? 'X' : `l${i}`)).join('\n') + '\n';
  await given('spread.txt', body);
  const result = await edit({ file_path: 'spread.txt', old_string: 'X', new_string: 'Y\nZ', replace_all: true });
  const lines = result.content.split('\n');
  // 8 groups of 10 diff lines fit in 80; the 9th (old line 86) starts 3 lines of context earlier,
  // and the 8 changes before it each added a line.
  expect(lines.filter((l) => l.startsWith('@@'))).toHaveLength(8);
  expect(lines[lines.length - 1]).toBe('[… diff cut at 80 lines; call read_file on spread.txt with offset=91 to check the rest of the change.]');
  const after = (await readFile(at('spread.txt'), 'utf8')).split('\n');
  expect(after.slice(90, 95)).toEqual(['l82', 'l83', 'l84', 'Y', 'Z']);
});

test('the file keeps its mode', async () => {
  await given('run.sh', '#!/bin/sh\necho hi\n');
  await chmod(at('run.sh'), 0o755);
  await markRead('run.sh');
  await edit({ file_path: 'run.sh', old_string: 'hi', new_string: 'there' });
  expect((await stat(at('run.sh'))).mode & 0o777).toBe(0o755);
  expect(await readFile(at('run.sh'), 'utf8')).toBe('#!/bin/sh\necho there\n');
});

test('a CRLF file matched with LF strings keeps CRLF on disk, new lines included', async () => {
  await given('dos.txt', 'one\r\ntwo\r\nthree\r\n');
  const result = await edit({ file_path: 'dos.txt', old_string: 'one\ntwo', new_string: 'one\ninserted\ntwo' });
  expect(result.content.split('\n')[0]).toBe('Edited dos.txt: replaced 1 occurrence (line 1). CRLF line endings kept.');
  expect(result.content).not.toContain('\r');
  expect(await readFile(at('dos.txt'))).toEqual(Buffer.from('one\r\ninserted\r\ntwo\r\nthree\r\n'));
});

test('a file with mixed endings: only the edited text changes; LF strings match CRLF lines', async () => {
  await given('mixed.txt', 'a\r\nb\r\nc\nd\n');
  await edit({ file_path: 'mixed.txt', old_string: 'a\nb', new_string: 'A\nB' });
  expect(await readFile(at('mixed.txt'))).toEqual(Buffer.from('A\r\nB\r\nc\nd\n'));
  await edit({ file_path: 'mixed.txt', old_string: 'c\nd', new_string: 'C\nD' });
  expect(await readFile(at('mixed.txt'))).toEqual(Buffer.from('A\r\nB\r\nC\nD\n'));
});

test('read-first is enforced: never read, or changed since the read', async () => {
  await writeFile(at('a.ts'), 'x\n');
  expect(await edit({ file_path: 'a.ts', old_string: 'x', new_string: 'y' })).toEqual({
    isError: true,
    content: 'Refusing to edit a.ts: it has not been read in this session. Call read_file on a.ts first, then retry edit_file with old_string copied exactly from what you read.',
  });
  await markRead('a.ts');
  await writeFile(at('a.ts'), 'x changed\n');
  const { utimes } = await import('node:fs/promises');
  await utimes(at('a.ts'), new Date(), new Date(Date.now() + 5000));
  expect((await edit({ file_path: 'a.ts', old_string: 'x', new_string: 'y' })).content).toMatch(/^Refusing to edit a\.ts: it has changed on disk since you last read it/);
  expect(await readFile(at('a.ts'), 'utf8')).toBe('x changed\n');
});

test('names with ".." are ordinary names', async () => {
  await given('a..b.ts', 'const v = 1;\n');
  expect((await edit({ file_path: 'a..b.ts', old_string: '1', new_string: '2' })).content).toMatch(/^Edited a\.\.b\.ts: replaced 1 occurrence/);
  expect(await readFile(at('a..b.ts'), 'utf8')).toBe('const v = 2;\n');
});

test('an empty old_string creates a missing file or fills an empty one, and is refused otherwise', async () => {
  expect(await edit({ file_path: 'new/dir/n.ts', old_string: '', new_string: 'hello\n' })).toEqual({ content: 'Created new/dir/n.ts with 6 bytes (1 line).' });
  expect(await readFile(at('new/dir/n.ts'), 'utf8')).toBe('hello\n');
  await given('empty.ts', '');
  expect((await edit({ file_path: 'empty.ts', old_string: '', new_string: 'x' })).content).toBe('Wrote 1 byte (1 line) into the empty file empty.ts.');
  expect((await edit({ file_path: 'new/dir/n.ts', old_string: '', new_string: 'again' })).content).toMatch(/^edit_file: old_string is empty, but new\/dir\/n\.ts is not/);
});

test('identical strings, a missing file, a directory, non-UTF-8 content and bad input are errors that say what to do', async () => {
  await given('a.ts', 'x');
  expect((await edit({ file_path: 'a.ts', old_string: 'x', new_string: 'x' })).content).toMatch(/^edit_file: old_string and new_string are identical/);
  expect((await edit({ file_path: 'nope.ts', old_string: 'x', new_string: 'y' })).content).toMatch(/^File not found: nope\.ts\. .*use write_file/);
  expect((await edit({ file_path: '.', old_string: 'x', new_string: 'y' })).content).toMatch(/is a directory/);
  await given('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  expect((await edit({ file_path: 'latin1.txt', old_string: 'caf', new_string: 'CAF' })).content).toMatch(/is not valid UTF-8 text .*nothing was changed/);
  expect(await readFile(at('latin1.txt'))).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  expect((await edit({ old_string: 'x', new_string: 'y' })).content).toMatch(/^edit_file: "file_path" is required/);
  expect((await edit({ file_path: 'a.ts', new_string: 'y' })).content).toMatch(/^edit_file: "old_string" is required .*got nothing/);
  expect((await edit({ file_path: 'a.ts', old_string: 'x', new_string: null })).content).toMatch(/^edit_file: "new_string" is required .*got null/);
  expect((await edit({ file_path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: 'yes' })).content).toMatch(/^edit_file: "replace_all" must be true or false/);
});

test('a UTF-8 byte-order mark survives an edit', async () => {
  await given('bom.txt', '\ufeffhello\n');
  await edit({ file_path: 'bom.txt', old_string: 'hello', new_string: 'bye' });
  expect(await readFile(at('bom.txt'))).toEqual(Buffer.from('\ufeffbye\n'));
});

test('a failure to open the file names it by its real path, never by the descriptor path it was opened through', async () => {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(at('sock'), resolve));
  try {
    const result = await edit({ file_path: 'sock', old_string: 'a', new_string: 'b' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('sock');
    expect(result.content).not.toMatch(/\/proc\/self\/fd\//);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
