/**
 * listedPaths: which deny-read candidates exist, from one listing per directory. It may only drop
 * a path that a resolution would have found missing.
 */
import { mkdtemp, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listedPaths } from '../../../plugins/sandbox-os/listed-paths.js';

let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'mc-listed-'));
  await mkdir(path.join(home, '.ssh'));
  await writeFile(path.join(home, '.netrc'), 'x');
  await writeFile(path.join(home, 'Notes.TXT'), 'x');
  await mkdir(path.join(home, '.config', 'gh'), { recursive: true });
  await symlink(path.join(home, 'nowhere'), path.join(home, '.npmrc')); // a dangling link: listed, resolved later
  await writeFile(path.join(home, 'plain-file'), 'x');
});
afterAll(() => rm(home, { recursive: true, force: true }));

test('keeps the names their directories list and drops the rest, one listing per directory', async () => {
  const listed: string[] = [];
  const list = (dir: string): Promise<string[]> => {
    listed.push(dir);
    return readdir(dir);
  };
  const at = (rel: string): string => path.join(home, rel);
  const kept = await listedPaths([at('.ssh'), at('.ssh/'), at('.aws'), at('.netrc'), at('.netrc'), at('.config/gh'), at('.config/gcloud'), at('.npmrc'), at('.kube/config'), at('plain-file/inner')], list);
  expect(kept.sort()).toEqual([at('.config/gh'), at('.netrc'), at('.npmrc'), at('.ssh'), `${at('.ssh')}/`].sort());
  expect(listed.sort()).toEqual([home, at('.config'), at('.kube'), at('plain-file')].sort()); // missing parent: ENOENT; a file: ENOTDIR
});

test('a name with another case, a name that is not ASCII, `.` and `..` are kept where their directory exists', async () => {
  // A case-insensitive file system finds the first; another Unicode spelling (NFC / NFD) may find the second.
  const given = [path.join(home, 'notes.txt'), path.join(home, 'Rele\u0301ve\u0301s.pdf'), `${home}/.ssh/.`, `${home}/.ssh/..`, `${home}/missing/.`, path.join(home, 'missing', 'Relevés.pdf')];
  expect(await listedPaths(given)).toEqual(given.slice(0, 4));
});

test('every name in a directory that cannot be listed (but may be passed through) is kept', async () => {
  const denied = (dir: string): Promise<string[]> =>
    dir === path.join(home, '.config') ? Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) : readdir(dir);
  const kept = await listedPaths([path.join(home, '.config', 'gh'), path.join(home, '.config', 'missing'), path.join(home, '.aws')], denied);
  expect(kept).toEqual([path.join(home, '.config', 'gh'), path.join(home, '.config', 'missing')]);
});
