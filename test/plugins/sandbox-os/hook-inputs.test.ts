/**
 * The sandbox's side of what installed git hooks read or run (sdk/git-hook-inputs.ts): the mount
 * plan keeps present ones read-only (where a link leads, when inside the project) and never makes
 * a mount point for a missing one (lefthook fails on a `lefthook-local.yml` that is a directory);
 * those are watched, and set aside after a command that made them (hook-inputs-sweep.ts). Real
 * hook files and real files in a temp repository.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitNamedPartsCached } from '../../../sdk/git-config-paths.js';
import { sweepHookInputs } from '../../../plugins/sandbox-os/hook-inputs-sweep.js';
import { planMounts, type MountPlan, type PathKind } from '../../../plugins/sandbox-os/mount-plan.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-hookplan-')));
  root = path.join(base, 'proj');
  home = path.join(base, 'home');
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(home);
  // lefthook's stub (cut), naming the project's lefthook binary by absolute path.
  const stub = `#!/bin/sh\ncall_lefthook()\n{\n  if ${root}/node_modules/lefthook-linux-x64/bin/lefthook -h >/dev/null 2>&1\n  then\n    ${root}/node_modules/lefthook-linux-x64/bin/lefthook "$@"\n  fi\n}\ncall_lefthook run "pre-commit" "$@"\n`;
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), stub);
  chmodSync(path.join(root, '.git', 'hooks', 'pre-commit'), 0o755);
  writeFileSync(path.join(root, 'lefthook.yml'), 'pre-commit:\n  commands:\n    lint:\n      run: echo ok\n');
  // pnpm-style: the package folder is a link into the store.
  const store = path.join(root, 'node_modules', '.pnpm', 'lefthook-linux-x64@2.2.2', 'node_modules', 'lefthook-linux-x64', 'bin');
  mkdirSync(store, { recursive: true });
  writeFileSync(path.join(store, 'lefthook'), '#!/bin/sh\n');
  symlinkSync(path.dirname(store), path.join(root, 'node_modules', 'lefthook-linux-x64'));
  // A config folder that is a link elsewhere in the project.
  mkdirSync(path.join(root, 'tools', 'hooks'), { recursive: true });
  symlinkSync('tools/hooks', path.join(root, '.lefthook'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const inspect = async (target: string): Promise<PathKind> => {
  try {
    const info = lstatSync(target);
    return info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'dir' : info.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
};

async function plan(): Promise<MountPlan> {
  const parts = (gitDir: string, workTree: string) => gitNamedPartsCached({ gitDir, workTree, homeDir: home });
  const result = await planMounts(
    { writableRoots: [root], homeDir: home, denyRead: [], gitNamedPaths: (g, w) => parts(g, w).named, hookInputs: (g, w) => parts(g, w).hookInputs.paths, realPath: async (p) => realpathSync(p) },
    inspect,
  );
  if (!result.ok) throw new Error(result.message);
  return result.plan;
}

test('present inputs read-only (through a link on the way, where it leads), missing ones watched and never given a mount point', async () => {
  const p = await plan();
  expect(p.readOnly).toEqual(
    expect.arrayContaining([
      path.join(root, 'lefthook.yml'),
      path.join(root, 'node_modules', '.pnpm', 'lefthook-linux-x64@2.2.2', 'node_modules', 'lefthook-linux-x64', 'bin', 'lefthook'),
      path.join(root, 'tools', 'hooks'),
    ]),
  );
  expect(p.watched).toEqual(
    expect.arrayContaining([
      { path: path.join(root, 'lefthook-local.yml'), missing: true },
      { path: path.join(root, '.lefthook-local.yml'), missing: true },
      { path: path.join(root, '.config', 'lefthook.yml'), missing: true },
      { path: path.join(root, '.lefthook'), missing: false },
    ]),
  );
  expect(p.blocked.filter((b) => /lefthook/.test(b))).toEqual([]);
  expect(p.readOnly).not.toContain(path.join(root, 'lefthook-local.yml'));
  // The folders on the way to what is read-only are pinned, parents first: none can be renamed away and replaced.
  const nm = path.join(root, 'node_modules');
  const way = [nm, path.join(nm, '.pnpm'), path.join(nm, '.pnpm', 'lefthook-linux-x64@2.2.2'), path.join(nm, '.pnpm', 'lefthook-linux-x64@2.2.2', 'node_modules'), path.join(nm, '.pnpm', 'lefthook-linux-x64@2.2.2', 'node_modules', 'lefthook-linux-x64'), path.join(nm, '.pnpm', 'lefthook-linux-x64@2.2.2', 'node_modules', 'lefthook-linux-x64', 'bin')];
  expect(p.pinned.filter((dir) => dir.startsWith(nm))).toEqual(way);
  expect(p.pinned).toContain(path.join(root, 'tools'));
  expect(p.pinned).not.toContain(root);
});

test('without an installed hook nothing of it is planned', async () => {
  rmSync(path.join(root, '.git', 'hooks', 'pre-commit'));
  const p = await plan();
  expect([...p.readOnly, ...p.blocked, ...(p.watched ?? []).map((entry) => entry.path)].filter((entry) => /lefthook/.test(entry))).toEqual([]);
});

test('after a command: a watched input it made is set aside and named; one it did not touch stays', async () => {
  const p = await plan();
  await new Promise((resolve) => setTimeout(resolve, 150)); // the set-up's files are older than the command
  const since = Date.now() - 20; // file times come from a coarser clock
  writeFileSync(path.join(root, 'lefthook-local.yml'), 'pre-commit:\n  commands:\n    x:\n      run: id\n');
  const { quarantined, unchecked } = await sweepHookInputs(p.watched ?? [], [root], since);
  expect(unchecked).toEqual([]);
  expect(quarantined).toEqual([expect.objectContaining({ path: path.join(root, 'lefthook-local.yml'), movedTo: path.join(root, 'lefthook-local.yml.quarantined-by-mewcode') })]);
  expect(existsSync(path.join(root, 'lefthook-local.yml'))).toBe(false);
  // The `.lefthook` link, older than the command, is left alone.
  expect(lstatSync(path.join(root, '.lefthook')).isSymbolicLink()).toBe(true);
  expect((await sweepHookInputs(p.watched ?? [], [root], Date.now() + 60_000)).quarantined).toEqual([]);
});

test('a missing input that appears is set aside whatever its times (written by an earlier command, its folder renamed into place)', async () => {
  mkdirSync(path.join(root, 'stage', '.config'), { recursive: true });
  writeFileSync(path.join(root, 'stage', '.config', 'lefthook.yml'), 'pre-commit:\n  commands:\n    x:\n      run: id\n');
  const p = await plan();
  await new Promise((resolve) => setTimeout(resolve, 150));
  const since = Date.now();
  renameSync(path.join(root, 'stage', '.config'), path.join(root, '.config'));
  const { quarantined } = await sweepHookInputs(p.watched ?? [], [root], since);
  expect(quarantined.map((item) => item.path)).toEqual([path.join(root, '.config', 'lefthook.yml')]);
});
