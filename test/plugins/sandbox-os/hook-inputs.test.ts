/**
 * The sandbox's side of what installed git hooks read or run (sdk/git-hook-inputs.ts): the mount
 * plan keeps present ones read-only (where a link leads, when inside the project) and never makes
 * a mount point for a missing one (lefthook fails on a `lefthook-local.yml` that is a directory);
 * those are watched, and set aside after a command that made them (hook-inputs-sweep.ts). Real
 * hook files and real files in a temp repository.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitNamedPartsCached } from '../../../sdk/git-config-paths.js';
import { sweepGitInfo, sweepHookInputs } from '../../../plugins/sandbox-os/hook-inputs-sweep.js';
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

const list = async (dir: string): Promise<string[]> => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

async function plan(): Promise<MountPlan> {
  const parts = (gitDir: string, workTree: string) => gitNamedPartsCached({ gitDir, workTree, homeDir: home });
  const result = await planMounts(
    { writableRoots: [root], homeDir: home, denyRead: [], gitNamedPaths: (g, w) => parts(g, w).named, hookInputs: (g, w) => parts(g, w).hookInputs.paths, realPath: async (p) => realpathSync(p) },
    inspect,
    list,
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

describe("a git directory's info/ folder (lefthook keeps its clones of remote configurations there)", () => {
  const info = (): string => path.join(root, '.git', 'info');
  beforeEach(() => {
    mkdirSync(path.join(info(), 'lefthook-remotes', 'shared-main'), { recursive: true });
    writeFileSync(path.join(info(), 'lefthook-remotes', 'shared-main', 'lefthook.yml'), 'pre-commit:\n  commands:\n    x:\n      run: echo ok\n');
    writeFileSync(path.join(info(), 'lefthook.checksum'), 'abc 1\n');
    writeFileSync(path.join(info(), 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n');
    writeFileSync(path.join(info(), 'sparse-checkout'), '/*\n');
  });

  test("entries other than git's own are read-only, info/ pinned, git's files writable; the names are kept", async () => {
    const p = await plan();
    expect(p.readOnly).toEqual(expect.arrayContaining([path.join(info(), 'lefthook-remotes'), path.join(info(), 'lefthook.checksum')]));
    for (const own of ['exclude', 'sparse-checkout']) expect(p.readOnly).not.toContain(path.join(info(), own));
    expect(p.pinned).toContain(info());
    expect(p.pinned.indexOf(path.join(root, '.git'))).toBeLessThan(p.pinned.indexOf(info()));
    expect(p.gitInfo).toEqual([{ dir: info(), names: ['lefthook-remotes', 'lefthook.checksum'] }]);
    // The installed lefthook stub names the clones' folder as one of its inputs too.
    expect(gitNamedPartsCached({ gitDir: path.join(root, '.git'), workTree: root, homeDir: home }).hookInputs.paths).toContain(path.join(info(), 'lefthook-remotes'));
  });

  test('a link there is refused (it could be replaced)', async () => {
    symlinkSync(path.join(root, 'tools'), path.join(info(), 'shared'));
    const result = await planMounts({ writableRoots: [root], homeDir: home, denyRead: [] }, inspect, list);
    expect(result).toEqual({ ok: false, message: expect.stringContaining(`${path.join(info(), 'shared')} is a symbolic link`) });
  });

  test("after a command: a new entry that is not git's own is set aside; git's own files and the entries from before stay", async () => {
    rmSync(path.join(info(), 'lefthook-remotes'), { recursive: true });
    const p = await plan();
    mkdirSync(path.join(info(), 'lefthook-remotes', 'shared-main'), { recursive: true });
    writeFileSync(path.join(info(), 'lefthook-remotes', 'shared-main', 'lefthook.yml'), 'pre-commit:\n  commands:\n    x:\n      run: id\n');
    writeFileSync(path.join(info(), 'refs'), '');
    writeFileSync(path.join(info(), 'attributes'), '');
    const { quarantined, unchecked } = await sweepGitInfo(p.gitInfo ?? [], [root]);
    expect(unchecked).toEqual([]);
    expect(quarantined).toEqual([expect.objectContaining({ path: path.join(info(), 'lefthook-remotes'), movedTo: path.join(info(), 'lefthook-remotes.quarantined-by-mewcode') })]);
    expect(readdirSync(info()).sort()).toEqual(['attributes', 'exclude', 'lefthook-remotes.quarantined-by-mewcode', 'lefthook.checksum', 'refs', 'sparse-checkout']);
  });

  test('info/ missing when the plan was made: whatever a command puts there but git\'s files is set aside', async () => {
    rmSync(info(), { recursive: true });
    const p = await plan();
    expect(p.gitInfo).toEqual([{ dir: info(), names: [] }]);
    mkdirSync(path.join(info(), 'lefthook-remotes'), { recursive: true });
    writeFileSync(path.join(info(), 'exclude'), '');
    const { quarantined } = await sweepGitInfo(p.gitInfo ?? [], [root]);
    expect(quarantined.map((item) => item.path)).toEqual([path.join(info(), 'lefthook-remotes')]);
  });
});
