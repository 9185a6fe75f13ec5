/** MewCode's own files in a project, reached without following links (sdk/project-state-dir.ts). */
import { execFileSync } from 'node:child_process';
import { constants, closeSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  StatePathRefused,
  openProjectStateFile,
  openStateDirectory,
  openStateFile,
  readProjectStateFile,
  removeStateEntry,
  replaceProjectStateFile,
  unlinkProjectStateFile,
} from '../../sdk/project-state-dir.js';

let base: string;
let root: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-state-dir-')));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'keep.txt'), 'keep\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const outsideNames = (): string[] => (readdirSync(outside, { recursive: true }) as string[]).sort();

test('a file in a folder of the root whose name begins with two dots (`..state/`) is inside the root', () => {
  replaceProjectStateFile(root, path.join(root, '..state', 'a.json'), '{}');
  expect(readProjectStateFile(root, path.join(root, '..state', 'a.json'))).toBe('{}');
  expect(() => readProjectStateFile(root, path.join(outside, 'keep.txt'))).toThrow('is not inside');
});

test('creates the directories one by one and opens files in them', () => {
  const dir = openStateDirectory(root, '.mewcode/tool-output', { create: true })!;
  expect(dir.path).toBe(path.join(root, '.mewcode', 'tool-output'));
  expect(dir.real).toBe(path.join(root, '.mewcode', 'tool-output'));
  const fd = openStateFile(dir, 'a.log', constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  writeSync(fd, 'x');
  closeSync(fd);
  dir.close();
  expect(readFileSync(path.join(root, '.mewcode', 'tool-output', 'a.log'), 'utf8')).toBe('x');
  expect(openStateDirectory(root, '.mewcode/missing', { create: false })).toBeUndefined();
  expect(() => openStateDirectory(root, '../outside', { create: true })).toThrow(/inside the project/);
});

test.each([
  ['an absolute link at .mewcode', () => symlinkSync(outside, path.join(root, '.mewcode'))],
  ['a relative link at .mewcode', () => symlinkSync('../outside', path.join(root, '.mewcode'))],
  ['a dangling link at .mewcode', () => symlinkSync(path.join(outside, 'new'), path.join(root, '.mewcode'))],
  ['a link at the last directory', () => (mkdirSync(path.join(root, '.mewcode')), symlinkSync(outside, path.join(root, '.mewcode', 'tool-output')))],
  ['a dangling link at the last directory', () => (mkdirSync(path.join(root, '.mewcode')), symlinkSync(path.join(outside, 'new'), path.join(root, '.mewcode', 'tool-output')))],
])('%s is refused, and nothing is created outside', (_name, plant) => {
  plant();
  const before = outsideNames();
  expect(() => openStateDirectory(root, '.mewcode/tool-output', { create: true })).toThrow(StatePathRefused);
  expect(() => openStateDirectory(root, '.mewcode/tool-output', { create: true })).toThrow(/is a symbolic link/);
  expect(() => replaceProjectStateFile(root, path.join(root, '.mewcode', 'tool-output', 'f'), 'x')).toThrow(StatePathRefused);
  expect(outsideNames()).toEqual(before);
});

test('a file where a directory should be is refused', () => {
  writeFileSync(path.join(root, '.mewcode'), 'a file');
  expect(() => openStateDirectory(root, '.mewcode/sessions', { create: true })).toThrow(/\.mewcode is not a directory/);
});

test('files: a link, a FIFO or a hard link at the name is refused; nothing is read or written through it', () => {
  const dir = path.join(root, '.mewcode');
  mkdirSync(dir);
  symlinkSync(path.join(outside, 'keep.txt'), path.join(dir, 'link'));
  execFileSync('mkfifo', [path.join(dir, 'fifo')]);
  linkSync(path.join(outside, 'keep.txt'), path.join(dir, 'hard'));
  expect(() => readProjectStateFile(root, path.join(dir, 'link'))).toThrow(/symbolic link/);
  expect(() => openProjectStateFile(root, path.join(dir, 'link'), constants.O_WRONLY | constants.O_APPEND)).toThrow(/symbolic link/);
  expect(() => openProjectStateFile(root, path.join(dir, 'fifo'), constants.O_WRONLY | constants.O_APPEND)).toThrow(/not a regular file/);
  expect(() => openProjectStateFile(root, path.join(dir, 'hard'), constants.O_WRONLY | constants.O_APPEND)).toThrow(/2 hard links/);
  // Unlinking removes the link, never its target.
  expect(unlinkProjectStateFile(root, path.join(dir, 'link'))).toBe(true);
  expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep\n');
});

test('removing a tree never follows a link inside it', () => {
  const sessions = openStateDirectory(root, '.mewcode/sessions', { create: true })!;
  const victim = path.join(root, '.mewcode', 'sessions', 's1');
  mkdirSync(path.join(victim, 'deep'), { recursive: true });
  symlinkSync(outside, path.join(victim, 'deep', 'to-outside'));
  symlinkSync(path.join(outside, 'keep.txt'), path.join(victim, 'file-link'));
  writeFileSync(path.join(victim, 'conversation.jsonl'), '{}\n');
  expect(removeStateEntry(sessions, 's1')).toBe(true);
  sessions.close();
  expect(existsSync(victim)).toBe(false);
  expect(outsideNames()).toEqual(['keep.txt']);
});
