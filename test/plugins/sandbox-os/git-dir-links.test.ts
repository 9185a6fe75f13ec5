/**
 * plugins/sandbox-os/git-dir-links.ts: the links and second names a command made in a git
 * directory, which the user's git would write through; what git itself makes there passes.
 */
import { linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { giveOwnCopy, plantedLinks } from '../../../plugins/sandbox-os/git-dir-links.js';

let gitDir: string;
beforeEach(() => {
  gitDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'mc-gdl-')), '.git');
  for (const dir of ['refs/heads', 'refs/remotes/origin', 'objects/ab', 'objects/info', 'logs/refs/heads', 'annex/objects', 'lfs/objects', 'modules/a/b/c/d/e/f/g/h/i/j/refs', 'hooks']) mkdirSync(path.join(gitDir, dir), { recursive: true });
  writeFileSync(path.join(gitDir, 'config'), '[core]\n');
  writeFileSync(path.join(gitDir, 'refs', 'heads', 'main'), '0'.repeat(40) + '\n');
});
afterEach(() => rmSync(path.dirname(gitDir), { recursive: true, force: true }));

const relative = (file: string): string => path.relative(gitDir, file);
const found = (since = 0, all = false): { links: string[]; shared: string[] } => {
  const walked = plantedLinks(gitDir, since, all);
  return { links: walked.links.map((link) => relative(link.entry)).sort(), shared: walked.shared.map(relative).sort() };
};
const later = (): number => Date.now() + 60_000;

test('links anywhere git writes (a module at any depth, git-lfs store included) and second names of files are found; what git makes passes', () => {
  symlinkSync('config', path.join(gitDir, 'COMMIT_EDITMSG'));
  symlinkSync('/home/x/.bashrc', path.join(gitDir, 'FETCH_HEAD'));
  symlinkSync('/home/x/bin', path.join(gitDir, 'refs', 'remotes', 'upstream'));
  symlinkSync('/tmp/o', path.join(gitDir, 'objects', 'cd'));
  symlinkSync('/home/x', path.join(gitDir, 'lfs', 'objects', 'ab'));
  symlinkSync('/home/x/.bash_aliases', path.join(gitDir, 'modules', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'config'));
  writeFileSync(path.join(gitDir, 'MERGE_MSG'), 'x');
  linkSync(path.join(gitDir, 'MERGE_MSG'), path.join(path.dirname(gitDir), 'elsewhere'));
  // What git and other tools make: symbolic refs as core.preferSymlinkRefs makes them, a
  // hard-linked object (git clone --local), git-annex's hard links.
  symlinkSync('refs/heads/main', path.join(gitDir, 'HEAD'));
  symlinkSync('refs/remotes/origin/main', path.join(gitDir, 'refs', 'remotes', 'origin', 'HEAD'));
  writeFileSync(path.join(gitDir, 'objects', 'ab', 'cdef'), 'blob');
  linkSync(path.join(gitDir, 'objects', 'ab', 'cdef'), path.join(path.dirname(gitDir), 'cloned-object'));
  writeFileSync(path.join(gitDir, 'annex', 'objects', 'k'), 'v');
  linkSync(path.join(gitDir, 'annex', 'objects', 'k'), path.join(path.dirname(gitDir), 'annexed'));
  expect(found()).toEqual({
    links: ['COMMIT_EDITMSG', 'FETCH_HEAD', 'lfs/objects/ab', 'modules/a/b/c/d/e/f/g/h/i/j/config', 'objects/cd', 'refs/remotes/upstream'],
    shared: ['MERGE_MSG'],
  });
});

test('HEAD leading anywhere but into refs is found', () => {
  symlinkSync('refs/../config', path.join(gitDir, 'HEAD'));
  expect(found().links).toEqual(['HEAD']);
});

test('links older than the command pass, unless the whole directory is new or the folder holding them was moved in during it', () => {
  const stash = path.join(path.dirname(gitDir), 'stash');
  mkdirSync(path.join(stash, 'remotes'), { recursive: true });
  symlinkSync('/home/x/.local/bin', path.join(stash, 'remotes', 'origin'));
  symlinkSync('config', path.join(gitDir, 'COMMIT_EDITMSG'));
  const since = later();
  expect(found(since).links).toEqual([]);
  expect(found(since, true).links).toEqual(['COMMIT_EDITMSG']);
  // A folder renamed into place keeps its links' times; its own change time is the rename's.
  rmSync(path.join(gitDir, 'refs', 'remotes'), { recursive: true });
  renameSync(path.join(stash, 'remotes'), path.join(gitDir, 'refs', 'remotes'));
  const moved = statSync(path.join(gitDir, 'refs', 'remotes')).ctimeMs;
  expect(lstatSync(path.join(gitDir, 'refs', 'remotes', 'origin')).ctimeMs).toBeLessThanOrEqual(moved);
  expect(found(moved).links).toContain('refs/remotes/origin');
});

test('giveOwnCopy ends the sharing: the same bytes and mode, and the other name untouched by a later write', () => {
  const file = path.join(gitDir, 'COMMIT_EDITMSG');
  const other = path.join(path.dirname(gitDir), '.tool-versions');
  writeFileSync(other, 'node 22\n', { mode: 0o640 });
  linkSync(other, file);
  expect(giveOwnCopy(file)).toBeUndefined();
  expect([readFileSync(file, 'utf8'), statSync(file).mode & 0o777, statSync(file).nlink, statSync(other).nlink]).toEqual(['node 22\n', 0o640, 1, 1]);
  writeFileSync(file, 'node path:/x\n');
  expect(readFileSync(other, 'utf8')).toBe('node 22\n');
});

test('the walk stops at its bound and says so', () => {
  const small = mkdtempSync(path.join(os.tmpdir(), 'mc-gdl-small-'));
  try {
    for (const name of ['a', 'b', 'c']) writeFileSync(path.join(small, name), '');
    expect(plantedLinks(small, 0, false, 3).truncated).toBe(false);
    expect(plantedLinks(small, 0, false, 2).truncated).toBe(true);
  } finally {
    rmSync(small, { recursive: true, force: true });
  }
});
