/** The submodules an index registers, read from the index file (git-index.ts), checked against git's own listing. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitlinkPaths, parseGitlinks } from '../../../plugins/sandbox-os/git-index.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function repo(): { root: string; git: (...args: string[]) => string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mc-git-index-'));
  dirs.push(root);
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' } }).toString();
  git('init', '-q', '-b', 'main');
  // Long and shared path prefixes (what version 4 compresses), a name with a space and non-ASCII.
  for (const file of ['a.txt', 'src/deep/nested/one.ts', 'src/deep/nested/two.ts', 'src/my file.ts', 'src/ünï.ts']) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), file);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  const head = git('rev-parse', 'HEAD').trim();
  for (const link of ['node_modules/left-pad', 'src/deep/vendored lib', 'zz']) git('update-index', '--add', '--cacheinfo', `160000,${head},${link}`);
  return { root, git };
}

const fromGit = (git: (...args: string[]) => string): string[] =>
  git('ls-files', '-s', '-z')
    .split('\0')
    .filter((line) => line.startsWith('160000 '))
    .map((line) => line.slice(line.indexOf('\t') + 1));

test.each([2, 3, 4])('index version %i: the gitlinks git lists, no more', async (version) => {
  const { root, git } = repo();
  if (version === 3) {
    writeFileSync(path.join(root, 'later.txt'), 'x');
    git('add', '-N', 'later.txt'); // intent-to-add: an extended flag, which makes the index version 3
  }
  git('update-index', `--index-version=${version}`);
  expect(readFileSync(path.join(root, '.git', 'index')).readUInt32BE(4)).toBe(version);
  const expected = fromGit(git);
  expect(expected).toEqual(['node_modules/left-pad', 'src/deep/vendored lib', 'zz']);
  expect(await gitlinkPaths(path.join(root, '.git'))).toEqual(expected);
});

test('a split index: the gitlinks kept in the shared index are listed too', async () => {
  const { root, git } = repo();
  git('update-index', '--split-index');
  expect(parseGitlinks(readFileSync(path.join(root, '.git', 'index')))).toEqual([]); // the entries left the index file
  expect(await gitlinkPaths(path.join(root, '.git'))).toEqual(fromGit(git));
});

test('what is not an index, or is cut short, yields what could be read, never a throw', () => {
  expect(parseGitlinks(Buffer.from('not an index at all'))).toEqual([]);
  const { root } = repo();
  const data = readFileSync(path.join(root, '.git', 'index'));
  for (const cut of [12, 70, 200, data.length - 30]) expect(() => parseGitlinks(data.subarray(0, cut))).not.toThrow();
  expect(parseGitlinks(data)).toHaveLength(3);
});

test('no index (no repository, or nothing added yet): none', async () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'mc-git-index-none-'));
  dirs.push(empty);
  expect(await gitlinkPaths(path.join(empty, '.git'))).toEqual([]);
});
