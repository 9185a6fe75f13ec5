/** The shared reader of project-supplied definition files: places, kinds, links and the size limit. */
import { execFileSync } from 'node:child_process';
import { closeSync, linkSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { inPackageDirectory, projectBoundary, projectScriptProblem, readProjectTextFile, readUpTo } from '../../config/project-file.js';

let base: string;
let root: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-project-file-')));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.md'), 'SECRET');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const at = (rel: string): string => path.join(root, rel);
const read = (rel: string, maxBytes = 1024, oversize?: 'truncate') => readProjectTextFile(at(rel), { root, maxBytes, ...(oversize ? { oversize } : {}) });

test('a plain file is read; a missing one is missing, not refused', () => {
  writeFileSync(at('CLAUDE.md'), 'hello');
  expect(read('CLAUDE.md')).toEqual({ ok: true, text: 'hello', truncated: false, realPath: at('CLAUDE.md') });
  expect(read('AGENTS.md')).toMatchObject({ ok: false, missing: true });
});

test('size limit: exactly maxBytes is read whole, one byte more is refused (or cut when asked)', () => {
  writeFileSync(at('a.md'), 'x'.repeat(100));
  expect(read('a.md', 100)).toMatchObject({ ok: true, truncated: false });
  writeFileSync(at('a.md'), 'x'.repeat(101));
  expect(read('a.md', 100)).toEqual({ ok: false, missing: false, reason: 'it is 101 bytes, over the 100-byte limit' });
  expect(read('a.md', 100, 'truncate')).toEqual({ ok: true, text: 'x'.repeat(100), truncated: true, realPath: at('a.md') });
});

test('the reader takes what the file holds up to the limit, whatever size fstat gave (a file that grew, a /proc file)', () => {
  const content = Buffer.from(Array.from({ length: 20_000 }, (_, i) => i % 251));
  writeFileSync(at('grown.md'), content);
  const fd = openSync(at('grown.md'), 'r');
  try {
    // The hint is the size fstat gave: right, too small (the file grew), or 0 (/proc).
    for (const hint of [20_000, 5_000, 0]) {
      expect(readUpTo(fd, 100_000, hint).equals(content)).toBe(true);
      // At the limit: exactly `limit` bytes, however the buffer grew.
      expect(readUpTo(fd, 20_000, hint).equals(content)).toBe(true);
      expect(readUpTo(fd, 12_345, hint).equals(content.subarray(0, 12_345))).toBe(true);
    }
  } finally {
    closeSync(fd);
  }
  // Through readProjectTextFile: a file of exactly maxBytes is whole, one byte over is refused.
  writeFileSync(at('big.md'), 'y'.repeat(70_000));
  expect(read('big.md', 70_000)).toMatchObject({ ok: true, text: 'y'.repeat(70_000), truncated: false });
  expect(read('big.md', 69_999)).toMatchObject({ ok: false, reason: 'it is 70000 bytes, over the 69999-byte limit' });
  expect(read('big.md', 69_999, 'truncate')).toMatchObject({ ok: true, text: 'y'.repeat(69_999), truncated: true });
});

test('a cut never splits a character', () => {
  writeFileSync(at('a.md'), `${'x'.repeat(99)}é`);
  expect(read('a.md', 100, 'truncate')).toMatchObject({ ok: true, text: 'x'.repeat(99), truncated: true });
});

test('links out of the project are refused: absolute, relative, chained, through a directory, through /proc', () => {
  symlinkSync(path.join(outside, 'secret.md'), at('abs.md'));
  symlinkSync('../outside/secret.md', at('rel.md'));
  symlinkSync('rel.md', at('chain.md'));
  symlinkSync(outside, at('docs'));
  symlinkSync(`/proc/self/root${path.join(outside, 'secret.md')}`, at('proc.md'));
  for (const name of ['abs.md', 'rel.md', 'chain.md', 'docs/secret.md', 'proc.md']) {
    const result = read(name);
    expect(result).toMatchObject({ ok: false, missing: false });
    expect(JSON.stringify(result)).toMatch(/outside the project/);
  }
});

test('/proc, /dev and /sys are refused even when the root contains them', () => {
  symlinkSync('/proc/self/environ', at('env.md'));
  expect(readProjectTextFile(at('env.md'), { root: '/', maxBytes: 1024 })).toMatchObject({ ok: false, reason: expect.stringMatching(/system file/) });
  expect(readProjectTextFile('/dev/zero', { maxBytes: 1024 })).toMatchObject({ ok: false, reason: expect.stringMatching(/system file/) });
});

test('a link inside the project is followed when it keeps its extension', () => {
  writeFileSync(at('AGENTS.md'), 'shared');
  symlinkSync('AGENTS.md', at('CLAUDE.md'));
  expect(read('CLAUDE.md')).toMatchObject({ ok: true, text: 'shared' });
  writeFileSync(at('.env'), 'TOKEN=1');
  symlinkSync('.env', at('MEWCODE.md'));
  expect(read('MEWCODE.md')).toMatchObject({ ok: false, reason: expect.stringMatching(/another kind/) });
});

test('FIFOs, directories, dangling links and hard links are refused, without blocking', () => {
  execFileSync('mkfifo', [at('pipe.md')]);
  mkdirSync(at('dir.md'));
  symlinkSync(path.join(outside, 'none.md'), at('dangling.md'));
  linkSync(path.join(outside, 'secret.md'), at('hard.md'));
  expect(read('pipe.md')).toMatchObject({ ok: false, reason: 'it is a FIFO, not a regular file' });
  expect(read('dir.md')).toMatchObject({ ok: false, reason: 'it is a directory, not a regular file' });
  expect(read('dangling.md')).toMatchObject({ ok: false, missing: false, reason: expect.stringMatching(/does not exist/) });
  expect(read('hard.md')).toMatchObject({ ok: false, reason: expect.stringMatching(/^it has 2 hard links/) });
});

test("the user's own file (no root) may be a link anywhere, but still not a FIFO", () => {
  symlinkSync(path.join(outside, 'secret.md'), at('user.md'));
  expect(readProjectTextFile(at('user.md'), { maxBytes: 1024 })).toMatchObject({ ok: true, text: 'SECRET' });
  execFileSync('mkfifo', [at('pipe.md')]);
  expect(readProjectTextFile(at('pipe.md'), { maxBytes: 1024 })).toMatchObject({ ok: false, reason: 'it is a FIFO, not a regular file' });
});

test('a hook script: inside and plain passes; a link out, a FIFO or a hard link does not; a missing one is left to the command', () => {
  writeFileSync(at('ok.sh'), 'echo');
  symlinkSync(path.join(outside, 'secret.md'), at('out.sh'));
  execFileSync('mkfifo', [at('pipe.sh')]);
  linkSync(path.join(outside, 'secret.md'), at('hard.sh'));
  expect(projectScriptProblem(at('ok.sh'), root)).toBeUndefined();
  expect(projectScriptProblem(at('none.sh'), root)).toBeUndefined();
  expect(projectScriptProblem(at('out.sh'), root)).toMatch(/outside the project/);
  expect(projectScriptProblem(at('pipe.sh'), root)).toMatch(/FIFO/);
  expect(projectScriptProblem(at('hard.sh'), root)).toMatch(/hard links/);
});

test('config discovery: a project file linked out is a layer error naming it; in the home directory the same link is the user\'s own and is used', async () => {
  const { loadConfig } = await import('../../config/load.js');
  const home = path.join(base, 'home');
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(outside, 'mewcode.yaml'), 'ui: { theme: dark }\n');
  symlinkSync(path.join(outside, 'mewcode.yaml'), at('.mewcode.yaml'));
  const project = await loadConfig({ cwd: root, homeDir: home });
  expect(project.layers).toEqual([{ layer: 'project', file: at('.mewcode.yaml'), loaded: false, error: expect.stringMatching(/\.mewcode\.yaml\): it is a link to .*mewcode\.yaml, outside the project/) }]);
  symlinkSync(path.join(outside, 'mewcode.yaml'), path.join(home, '.mewcode.yaml'));
  const inHome = await loadConfig({ cwd: home, homeDir: home });
  expect(inHome.layers).toEqual([{ layer: 'project', file: path.join(home, '.mewcode.yaml'), loaded: true }]);
});

test('projectBoundary: none for the home directory, the root otherwise', () => {
  expect(projectBoundary(root, base)).toBe(root);
  expect(projectBoundary(base, base)).toBeUndefined();
});

test('package directories are judged below the root: a project that itself lies under node_modules gains nothing', () => {
  expect(inPackageDirectory('/p/node_modules/.pnpm/a@1/node_modules/a/index.js', '/p')).toBe(true);
  expect(inPackageDirectory('/p/.venv/lib/python3.12/site-packages/six.py', '/p')).toBe(true);
  expect(inPackageDirectory('/home/u/node_modules/p/notes.txt', '/home/u/node_modules/p')).toBe(false);
  expect(inPackageDirectory('/p/src/node_modules.txt', '/p')).toBe(false);
});

test('a hard link inside a package directory of the project is read', () => {
  mkdirSync(at('node_modules/pkg'), { recursive: true });
  linkSync(path.join(outside, 'secret.md'), at('node_modules/pkg/README.md'));
  expect(read('node_modules/pkg/README.md')).toMatchObject({ ok: true, text: 'SECRET' });
});
