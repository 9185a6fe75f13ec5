/**
 * The mount plan for git directories beyond `.git` itself: submodules' (`.git/modules/**`) and
 * linked worktrees' (`.git/worktrees/*`), and overlapping deny-read entries. Pure: run everywhere.
 */
import path from 'node:path';
import { planMounts, type Inspect, type List, type MountPlan, type PathKind } from '../../../plugins/sandbox-os/mount-plan.js';
import { MAX_GIT_MODULES } from '../../../plugins/sandbox-os/policy.js';

const ROOT = '/work/proj';
const GIT = `${ROOT}/.git`;
const HOME = '/home/u';

/** An inspector and a lister over one table; everything else is missing. */
function disk(table: Record<string, PathKind>): { inspect: Inspect; list: List } {
  return {
    inspect: async (target) => table[target] ?? 'missing',
    list: async (dir) => Object.keys(table).filter((p) => path.dirname(p) === dir).map((p) => path.basename(p)),
  };
}

/** A git directory with config, hooks and HEAD. */
function gitDir(dir: string): Record<string, PathKind> {
  return { [dir]: 'dir', [`${dir}/HEAD`]: 'file', [`${dir}/config`]: 'file', [`${dir}/hooks`]: 'dir' };
}

async function plan(table: Record<string, PathKind>, denyRead: string[] = []): Promise<MountPlan> {
  const { inspect, list } = disk(table);
  const result = await planMounts({ writableRoots: [ROOT], homeDir: HOME, denyRead }, inspect, list);
  if (!result.ok) throw new Error(result.message);
  return result.plan;
}

test("each submodule's git directory is pinned with its config and hooks read-only, names with / and nested submodules included", async () => {
  const p = await plan({
    ...gitDir(GIT),
    [`${GIT}/modules`]: 'dir',
    ...gitDir(`${GIT}/modules/lib`),
    [`${GIT}/modules/vendor`]: 'dir', // submodule "vendor/zlib": a directory without HEAD on the way
    ...gitDir(`${GIT}/modules/vendor/zlib`),
    [`${GIT}/modules/lib/modules`]: 'dir',
    ...gitDir(`${GIT}/modules/lib/modules/inner`),
  });
  for (const dir of [`${GIT}/modules/lib`, `${GIT}/modules/vendor/zlib`, `${GIT}/modules/lib/modules/inner`]) {
    expect(p.readOnly).toEqual(expect.arrayContaining([`${dir}/config`, `${dir}/hooks`]));
    expect(p.blocked).toContain(`${dir}/config.worktree`);
    expect(p.pinned).toContain(dir);
  }
  // Every directory on the way is pinned, parents first (the order bubblewrap binds them in).
  const order = [GIT, `${GIT}/modules`, `${GIT}/modules/lib`, `${GIT}/modules/vendor`, `${GIT}/modules/vendor/zlib`, `${GIT}/modules/lib/modules`, `${GIT}/modules/lib/modules/inner`];
  for (const dir of order) expect(p.pinned).toContain(dir);
  for (const dir of order.slice(1)) expect(p.pinned.indexOf(path.dirname(dir))).toBeLessThan(p.pinned.indexOf(dir));
});

test("a submodule without hooks gets them blocked (an empty read-only mount point), like the project's own", async () => {
  const p = await plan({ ...gitDir(GIT), [`${GIT}/modules`]: 'dir', [`${GIT}/modules/lib`]: 'dir', [`${GIT}/modules/lib/HEAD`]: 'file', [`${GIT}/modules/lib/config`]: 'file' });
  expect(p.blocked).toContain(`${GIT}/modules/lib/hooks`);
});

test("a linked worktree's directory: pinned, its config.worktree and commondir protected", async () => {
  const p = await plan({ ...gitDir(GIT), [`${GIT}/worktrees`]: 'dir', [`${GIT}/worktrees/feature`]: 'dir', [`${GIT}/worktrees/feature/commondir`]: 'file', [`${GIT}/worktrees/feature/HEAD`]: 'file' });
  expect(p.pinned).toEqual(expect.arrayContaining([`${GIT}/worktrees`, `${GIT}/worktrees/feature`]));
  expect(p.readOnly).toContain(`${GIT}/worktrees/feature/commondir`);
  expect(p.blocked).toContain(`${GIT}/worktrees/feature/config.worktree`);
});

test('without modules or worktrees nothing more is mounted', async () => {
  const p = await plan(gitDir(GIT));
  expect(p.pinned).toEqual([GIT]);
  expect(p.readOnly).toEqual([`${GIT}/config`, `${GIT}/hooks`]);
});

test(`more than ${MAX_GIT_MODULES} submodules: .git/modules is read-only whole (fail closed)`, async () => {
  const table: Record<string, PathKind> = { ...gitDir(GIT), [`${GIT}/modules`]: 'dir' };
  for (let i = 0; i <= MAX_GIT_MODULES; i++) Object.assign(table, gitDir(`${GIT}/modules/m${i}`));
  const p = await plan(table);
  expect(p.readOnly).toContain(`${GIT}/modules`);
  expect(p.pinned).toEqual([GIT]);
  expect(p.readOnly.filter((target) => target.startsWith(`${GIT}/modules/`))).toEqual([]);
});

test('a symbolic link as .git/modules, a module directory or a module hooks refuses the command', async () => {
  for (const table of [
    { ...gitDir(GIT), [`${GIT}/modules`]: 'symlink' as PathKind },
    { ...gitDir(GIT), [`${GIT}/modules`]: 'dir' as PathKind, [`${GIT}/modules/lib`]: 'symlink' as PathKind },
    { ...gitDir(GIT), [`${GIT}/modules`]: 'dir' as PathKind, ...gitDir(`${GIT}/modules/lib`), [`${GIT}/modules/lib/hooks`]: 'symlink' as PathKind },
    { ...gitDir(GIT), [`${GIT}/worktrees`]: 'symlink' as PathKind },
  ]) {
    const { inspect, list } = disk(table);
    const result = await planMounts({ writableRoots: [ROOT], homeDir: HOME, denyRead: [] }, inspect, list);
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('is a symbolic link') });
  }
});

test('deny-read entries inside a hidden directory are dropped (their mount point would not exist in its empty tmpfs)', async () => {
  const p = await plan({ [`${HOME}/private`]: 'dir', [`${HOME}/private/key`]: 'file', [`${HOME}/private/sub`]: 'dir', [`${HOME}/.netrc`]: 'file' }, [
    `${HOME}/private/key`,
    `${HOME}/private`,
    `${HOME}/private/sub`,
    `${HOME}/.netrc`,
  ]);
  expect(p.hiddenDirs).toEqual([`${HOME}/private`]);
  expect(p.hiddenFiles).toEqual([`${HOME}/.netrc`]);
});
