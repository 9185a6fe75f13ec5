/**
 * plugins/sandbox-os/git-walk.ts innerGitDirs: the git directories under `.git/modules` at any
 * depth (a submodule's name is free: `a/b/c/…`) and `.git/worktrees`, within a bound on the folders
 * listed, past which the rest is reported as not listed (so the sweep says it was not checked).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { innerGitDirs } from '../../../plugins/sandbox-os/git-walk.js';

let gitDir: string;
beforeEach(() => {
  gitDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'mc-inner-')), '.git');
  mkdirSync(gitDir);
});
afterEach(() => rmSync(path.dirname(gitDir), { recursive: true, force: true }));

const gitDirAt = (relative: string): string => {
  const dir = path.join(gitDir, relative);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  return dir;
};

test('modules at any depth, their own modules, and worktrees', async () => {
  const deep = gitDirAt('modules/a/b/c/d/e/f/g/h/i/j');
  const inner = gitDirAt('modules/lib/modules/sub');
  const lib = path.join(gitDir, 'modules', 'lib');
  writeFileSync(path.join(lib, 'HEAD'), 'ref: refs/heads/main\n');
  const worktree = gitDirAt('worktrees/feature');
  const { dirs, unlisted } = await innerGitDirs(gitDir);
  expect(dirs.sort()).toEqual([deep, lib, inner, worktree].sort());
  expect(unlisted.filter((item) => item.code !== 'ENOENT')).toEqual([]); // a git directory's missing `modules`: nothing there
});

test('past the bound on folders listed, the rest is reported, not skipped in silence', async () => {
  gitDirAt('modules/a/b');
  // Folders listed: modules, modules/a, modules/a/b/modules (missing: ENOENT, nothing there) = 3.
  const reported = async (max: number): Promise<string[]> => (await innerGitDirs(gitDir, max)).unlisted.filter((item) => item.code !== 'ENOENT').map((item) => path.relative(gitDir, item.path));
  expect(await reported(3)).toEqual([]);
  expect(await reported(2)).toEqual(['modules/a/b/modules']);
  const cut = await innerGitDirs(gitDir, 2);
  expect(cut.unlisted[0]!.code).toBe('more than 2 folders under modules');
});
