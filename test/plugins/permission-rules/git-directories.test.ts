/**
 * The file tools ask for every path inside a git directory (not only its config and hooks): HEAD
 * (printed raw by a shell prompt), refs/replace (hides a commit's change), info/exclude (hides a
 * file), grafts, shallow, packed-refs, objects — the project's `.git`, a submodule's or worktree's,
 * a nested repository's, a `.git` file's target, and a folder shaped as a git directory (a bare
 * repository). As for `.claude/**`: in every mode, whatever the broad allow rules; an exact rule
 * of the user's passes it. A bash write there stays the sandbox's (unchanged here).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PermissionMode } from '../../../types/permissions.js';
import { bash, bootRules, decide, edit, tempDirs, write, type Dirs } from './helpers.js';

let dirs: Dirs;
let outside: string;
beforeEach(() => {
  dirs = tempDirs();
  const git = path.join(dirs.root, '.git');
  for (const dir of ['hooks', 'objects/ab', 'refs/heads', 'info', 'modules/lib/refs', 'worktrees/feature']) mkdirSync(path.join(git, dir), { recursive: true });
  writeFileSync(path.join(git, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(git, 'config'), '[core]\n');
  // A bare repository committed inside the project, found by its shape alone.
  for (const dir of ['vendor/lib.git/objects', 'vendor/lib.git/refs/heads']) mkdirSync(path.join(dirs.root, dir), { recursive: true });
  writeFileSync(path.join(dirs.root, 'vendor/lib.git/HEAD'), 'ref: refs/heads/main\n');
  // A linked worktree's git directory outside the project, named by the root's `.git` file in `wt/`.
  outside = path.join(path.dirname(dirs.root), 'main-repo', '.git', 'worktrees', 'wt');
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'HEAD'), 'ref: refs/heads/wt\n');
  writeFileSync(path.join(outside, 'commondir'), '../..\n');
  mkdirSync(path.join(dirs.root, 'wt'));
  writeFileSync(path.join(dirs.root, 'wt', '.git'), `gitdir: ${outside}\n`);
  mkdirSync(path.join(dirs.root, 'src'));
  symlinkSync('../vendor/lib.git', path.join(dirs.root, 'src', 'lib')); // a link into the bare repository
});
afterEach(() => dirs.cleanup());

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions'];
const INSIDE = [
  '.git/HEAD',
  '.git/refs/replace/09c344c2062d446d401c49d50512cd761eb45c90',
  '.git/refs/heads/main',
  '.git/info/exclude',
  '.git/info/grafts',
  '.git/info/attributes',
  '.git/shallow',
  '.git/packed-refs',
  '.git/index',
  '.git/FETCH_HEAD',
  '.git/objects/ab/cdef0123456789',
  '.git/objects/pack/pack-1.pack',
  '.git/modules/lib/HEAD',
  '.git/modules/lib/refs/replace/x',
  '.git/worktrees/feature/HEAD',
  '.git', // a `.git` file where the directory is: git would follow its gitdir
  'sub/.git',
  'sub/.git/HEAD',
  'packages/a/.git/info/exclude',
  '.Git/HEAD',
  'vendor/lib.git/HEAD',
  'vendor/lib.git/refs/replace/x',
  'vendor/lib.git/objects/info/grafts',
  'vendor/lib.git/new-file',
  'src/lib/HEAD', // through the link: its real path is inside the bare repository
];

describe.each(MODES)('in %s mode, with Edit(**) and Write(./**) allowed', (mode) => {
  test.each(INSIDE)('write_file and edit_file of %s ask', async (file) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)', 'Edit(.git/**)'] } });
    for (const verdict of [await write(kernel, file, mode), await edit(kernel, path.join(dirs.root, file), mode)]) {
      expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    }
  });
});

test("a linked worktree's git directory outside the project, and its common directory, ask", async () => {
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(//**)'] } });
  for (const file of [path.join(outside, 'HEAD'), path.join(outside, 'index'), path.join(outside, '..', '..', 'refs', 'replace', 'x')]) {
    expect(await write(kernel, file, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  }
});

test('the reason names the git directory and the exact rule; that rule of the user passes it', async () => {
  const first = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)'] } });
  const verdict = await write(first.kernel, '.git/info/exclude', 'acceptEdits');
  expect(verdict!.reason).toContain('inside of a git directory');
  expect(verdict!.reason).toContain('Edit(.git/info/exclude)');
  const second = await bootRules(dirs, { cli: { allowedTools: ['Edit(.git/info/exclude)'] } });
  expect(await write(second.kernel, '.git/info/exclude', 'acceptEdits')).toMatchObject({ decision: 'allow' });
  expect(await write(second.kernel, '.git/HEAD', 'acceptEdits')).toMatchObject({ decision: 'ask' });
});

test('where the path led when the tool was asked is judged too: a plain folder then swapped for a link to .git still asks', async () => {
  mkdirSync(path.join(dirs.root, 'd'));
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
  const led = path.join(dirs.root, '.git', 'config');
  for (const tool of ['write_file', 'edit_file']) {
    expect(await decide(kernel, tool, { file_path: 'd/config', real: led }, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    expect(await decide(kernel, tool, { file_path: 'd/config', real: path.join(dirs.root, 'd', 'config') }, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  }
});

test("a user's deny rule sees where the path led when the tool was asked, not only where it leads now", async () => {
  mkdirSync(path.join(dirs.root, 'd'));
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Write(./**)'], disallowedTools: ['Write(./secret/**)'] } });
  expect(await decide(kernel, 'write_file', { file_path: 'd/x', real: path.join(dirs.root, 'secret', 'x') }, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
  expect(await decide(kernel, 'write_file', { file_path: 'd/x', real: path.join(dirs.root, 'd', 'x') }, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});

test('ordinary files beside git directories are not protected', async () => {
  mkdirSync(path.join(dirs.root, 'docs', 'refs'), { recursive: true }); // refs without HEAD and objects: not a git directory
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)'] } });
  for (const file of ['src/a.ts', '.gitignore', '.gitmodules', '.github/workflows/ci.yml', 'docs/refs/HEAD.md', 'vendor/other/HEAD', 'wt/src/a.ts', 'lib.git']) {
    expect(await write(kernel, file, 'acceptEdits')).toMatchObject({ decision: 'allow' });
  }
});

test("a bash write there is left to the sandbox, as before (rm .git/index.lock after a crashed git)", async () => {
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, 'rm -f .git/index.lock', 'bypassPermissions')).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
});
