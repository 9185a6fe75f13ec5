/**
 * plugins/sandbox-os/git-dir-links.ts: the links and second names a command made in a git
 * directory, which the user's git would write through; what git itself makes there passes.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { plantedLinks } from '../../../plugins/sandbox-os/git-dir-links.js';

let gitDir: string;
beforeEach(() => {
  gitDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'mc-gdl-')), '.git');
  for (const dir of ['refs/heads', 'refs/remotes', 'objects/ab', 'objects/info', 'logs/refs/heads', 'annex/objects', 'modules/lib', 'hooks']) mkdirSync(path.join(gitDir, dir), { recursive: true });
  writeFileSync(path.join(gitDir, 'config'), '[core]\n');
  writeFileSync(path.join(gitDir, 'refs', 'heads', 'main'), '0'.repeat(40) + '\n');
});
afterEach(() => rmSync(path.dirname(gitDir), { recursive: true, force: true }));

const planted = (since = 0, all = false, max?: number): string[] => plantedLinks(gitDir, since, all, max).planted.map((found) => path.relative(gitDir, found.entry)).sort();

test('links anywhere git writes, and second names of files, are found; what git makes passes', () => {
  symlinkSync('config', path.join(gitDir, 'COMMIT_EDITMSG'));
  symlinkSync('/home/x/.bashrc', path.join(gitDir, 'FETCH_HEAD'));
  symlinkSync('/home/x/bin', path.join(gitDir, 'refs', 'remotes', 'origin'));
  symlinkSync('/tmp/o', path.join(gitDir, 'objects', 'cd'));
  writeFileSync(path.join(gitDir, 'MERGE_MSG'), 'x');
  linkSync(path.join(gitDir, 'MERGE_MSG'), path.join(path.dirname(gitDir), 'elsewhere'));
  // What git and other tools make: HEAD as core.preferSymlinkRefs makes it, a hard-linked object
  // (git clone --local), git-annex's hard links, a module's own directory (checked on its own).
  symlinkSync('refs/heads/main', path.join(gitDir, 'HEAD'));
  writeFileSync(path.join(gitDir, 'objects', 'ab', 'cdef'), 'blob');
  linkSync(path.join(gitDir, 'objects', 'ab', 'cdef'), path.join(path.dirname(gitDir), 'cloned-object'));
  writeFileSync(path.join(gitDir, 'annex', 'objects', 'k'), 'v');
  linkSync(path.join(gitDir, 'annex', 'objects', 'k'), path.join(path.dirname(gitDir), 'annexed'));
  symlinkSync('config', path.join(gitDir, 'modules', 'lib', 'COMMIT_EDITMSG'));
  expect(planted()).toEqual(['COMMIT_EDITMSG', 'FETCH_HEAD', 'MERGE_MSG', 'objects/cd', 'refs/remotes/origin']);
});

test('HEAD leading anywhere but into refs is found', () => {
  symlinkSync('refs/../config', path.join(gitDir, 'HEAD'));
  expect(planted()).toEqual(['HEAD']);
});

test('links older than the command pass unless the whole directory is new', () => {
  symlinkSync('config', path.join(gitDir, 'COMMIT_EDITMSG'));
  const later = Date.now() + 60_000;
  expect(planted(later)).toEqual([]);
  expect(planted(later, true)).toEqual(['COMMIT_EDITMSG']);
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
