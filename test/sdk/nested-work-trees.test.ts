/** The folders below a project holding a `.git` (sdk/nested-work-trees.ts): what is entered, what is not, and the walk's bound. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nestedWorkTrees } from '../../sdk/nested-work-trees.js';

let root: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mc-nested-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'mc-nested-out-'));
  mkdirSync(path.join(root, '.git')); // the project's own: not a nested one
  mkdirSync(path.join(root, 'a', '.git', 'modules', 'x', '.git'), { recursive: true }); // a .git folder is not entered
  mkdirSync(path.join(root, 'b', 'c'), { recursive: true });
  writeFileSync(path.join(root, 'b', 'c', '.git'), 'gitdir: ../../store\n');
  mkdirSync(path.join(root, 'node_modules', 'dep', '.git'), { recursive: true }); // not entered
  mkdirSync(path.join(outside, 'r', '.git'), { recursive: true });
  symlinkSync(outside, path.join(root, 'linked')); // a link is not followed
  mkdirSync(path.join(root, 'l'));
  symlinkSync(path.join(outside, 'r', '.git'), path.join(root, 'l', '.git')); // a `.git` link counts
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

test('nested `.git` folders, files and links are found; links, `.git` folders and node_modules are not entered', async () => {
  expect(await nestedWorkTrees(root)).toEqual({ workTrees: [path.join(root, 'a'), path.join(root, 'b', 'c'), path.join(root, 'l')], truncated: false });
});

test('the walk stops at its bound of folders, saying so', async () => {
  // Folders walked: the root; a, b, l; b/c — five.
  expect((await nestedWorkTrees(root, 5)).truncated).toBe(false);
  const cut = await nestedWorkTrees(root, 4);
  expect(cut.truncated).toBe(true);
  expect(cut.workTrees).toEqual([path.join(root, 'a'), path.join(root, 'l')]);
});
