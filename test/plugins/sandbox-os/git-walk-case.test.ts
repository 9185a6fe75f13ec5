/**
 * The sweep's walk finds git directories in every spelling git opens on a filesystem that ignores
 * case (macOS, WSL's /mnt/c, CIFS, vfat, ext4 casefold): a nested `.GIT`, and a folder shaped as
 * one by `head`, `Objects` and `Refs`. (Here the filesystem keeps case; what matters is that the
 * walk does not compare names as written.)
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findGitEntries } from '../../../plugins/sandbox-os/git-walk.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-walk-case-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

test('a nested .GIT and .Git are found as .git entries', async () => {
  await mkdir(path.join(root, 'src', 'lib', '.GIT'), { recursive: true });
  await mkdir(path.join(root, 'vendor', '.Git'), { recursive: true });
  const { entries } = await findGitEntries(root);
  expect(entries.map((entry) => path.relative(root, entry.path)).sort()).toEqual([path.join('src', 'lib', '.GIT'), path.join('vendor', '.Git')]);
});

test('a folder holding head, Objects and Refs is found as a git directory; one missing a part is not', async () => {
  for (const dir of ['shaped/Objects', 'shaped/Refs', 'partial/Objects']) await mkdir(path.join(root, dir), { recursive: true });
  await writeFile(path.join(root, 'shaped', 'head'), 'ref: refs/heads/main\n');
  await writeFile(path.join(root, 'partial', 'HEAD'), 'ref: refs/heads/main\n');
  const { entries } = await findGitEntries(root);
  expect(entries.map((entry) => path.relative(root, entry.path))).toEqual(['shaped']);
});
