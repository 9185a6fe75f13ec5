/**
 * The mount plan when a writable root holds the home (the home read-only but its non-dot
 * entries), for what the git configuration names (hooks directory, included files), and for the
 * git files protected only while present (commondir, alternates). Pure: run everywhere.
 */
import path from 'node:path';
import { bwrapArgs } from '../../../plugins/sandbox-os/bwrap-args.js';
import { planMounts, type MountPlan, type PathKind } from '../../../plugins/sandbox-os/mount-plan.js';
import { seatbeltProfile } from '../../../plugins/sandbox-os/seatbelt.js';

const HOME = '/home/u';

async function plan(root: string, table: Record<string, PathKind>, extra: { named?: string[]; links?: Record<string, string> } = {}): Promise<MountPlan> {
  const result = await planMounts(
    { writableRoots: [root], homeDir: HOME, denyRead: [], gitNamedPaths: () => extra.named ?? [], realPath: async (target) => extra.links?.[target] ?? target },
    async (target) => table[target] ?? 'missing',
    async (dir) => Object.keys(table).filter((p) => path.dirname(p) === dir).map((p) => path.basename(p)),
  );
  if (!result.ok) throw new Error(result.message);
  return result.plan;
}

const HOME_TABLE: Record<string, PathKind> = {
  [HOME]: 'dir',
  [`${HOME}/.bashrc`]: 'file',
  [`${HOME}/.config`]: 'dir',
  [`${HOME}/.vimrc`]: 'symlink',
  [`${HOME}/bin`]: 'dir',
  [`${HOME}/work`]: 'dir',
  [`${HOME}/notes.txt`]: 'file',
  [`${HOME}/Music`]: 'symlink',
  [`${HOME}/dotfiles`]: 'dir',
};

test('root = home: the home is read-only, its non-dot files and folders writable again, links and dotfiles not', async () => {
  const p = await plan(HOME, HOME_TABLE, { links: { [`${HOME}/.vimrc`]: `${HOME}/dotfiles/vimrc` } });
  expect(p.homeGuard).toEqual({ home: HOME, writableEntries: [`${HOME}/work`, `${HOME}/notes.txt`, `${HOME}/dotfiles`] });
  // A dotfile link's target, where it is writable, is read-only.
  expect(p.readOnly).toContain(`${HOME}/dotfiles/vimrc`);
  // Nothing can be created in the read-only home: no mount point is made there.
  expect(p.blocked.filter((b) => path.dirname(b) === HOME)).toEqual([]);
});

test("whatever is read-only below a writable root has the folders on its way pinned, parents first (a dotfile link's target deep in the home)", async () => {
  const target = `${HOME}/dotfiles/vim/vimrc`;
  const p = await plan(HOME, { ...HOME_TABLE, [`${HOME}/dotfiles/vim`]: 'dir', [target]: 'file', [`${HOME}/.git`]: 'dir', [`${HOME}/.git/modules`]: 'dir', [`${HOME}/.git/modules/group`]: 'dir', [`${HOME}/.git/modules/group/lib`]: 'dir', [`${HOME}/.git/modules/group/lib/config`]: 'file' }, { links: { [`${HOME}/.vimrc`]: target } });
  expect(p.readOnly).toContain(target);
  expect(p.pinned).toEqual(expect.arrayContaining([`${HOME}/dotfiles`, `${HOME}/dotfiles/vim`]));
  const depth = (dir: string): number => dir.split('/').length;
  expect(p.pinned.map(depth)).toEqual([...p.pinned.map(depth)].sort((a, b) => a - b));
});

test('root above the home (/home): the same guard', async () => {
  const p = await plan('/home', { '/home': 'dir', ...HOME_TABLE });
  expect(p.homeGuard?.home).toBe(HOME);
});

test('a project elsewhere: no guard', async () => {
  const p = await plan('/work/proj', { '/work/proj': 'dir', ...HOME_TABLE });
  expect(p.homeGuard).toBeUndefined();
});

test('bubblewrap: the home read-only after the writable root and pins, its entries writable again, protection after', async () => {
  const p = await plan(HOME, { ...HOME_TABLE, [`${HOME}/.git`]: 'dir', [`${HOME}/.git/config`]: 'file' });
  const args = bwrapArgs({ plan: p, privateTmp: '/tmp/p', emptyDir: '/tmp/e', network: false, cwd: HOME, argv: ['true'] });
  const at = (...seq: string[]): number => args.findIndex((_, i) => seq.every((part, j) => args[i + j] === part));
  const guard = at('--ro-bind', HOME, HOME);
  expect(at('--bind', HOME, HOME)).toBeLessThan(guard);
  expect(at('--bind', `${HOME}/.git`, `${HOME}/.git`)).toBeLessThan(guard);
  expect(guard).toBeLessThan(at('--bind', `${HOME}/work`, `${HOME}/work`));
  expect(at('--bind', `${HOME}/work`, `${HOME}/work`)).toBeLessThan(at('--ro-bind', `${HOME}/.git/config`, `${HOME}/.git/config`));
  expect(seatbeltProfile({ plan: p, privateTmp: '/tmp/p', network: false, argv: ['true'] })).toContain(`(deny file-write* (subpath "${HOME}"))`);
});

test('what the git configuration names inside the project is protected; outside it, or the root itself, is not', async () => {
  const root = '/work/proj';
  const p = await plan(root, { [root]: 'dir', [`${root}/.git`]: 'dir', [`${root}/.husky`]: 'dir', [`${root}/team.gitconfig`]: 'file' }, { named: [`${root}/.husky`, `${root}/team.gitconfig`, `${root}/missing.gitconfig`, '/etc/gitconfig.d/x', root] });
  expect(p.readOnly).toEqual(expect.arrayContaining([`${root}/.husky`, `${root}/team.gitconfig`]));
  expect(p.blocked).toContain(`${root}/missing.gitconfig`);
  expect([...p.readOnly, ...p.blocked]).not.toContain('/etc/gitconfig.d/x');
  expect(p.readOnly).not.toContain(root);
});

test('what the git configuration names below a subfolder: the folders on its way pinned (a folder holding a mount point could be renamed away); a missing one blocked at its first missing folder', async () => {
  const root = '/work/proj';
  const table: Record<string, PathKind> = { [root]: 'dir', [`${root}/.git`]: 'dir', [`${root}/tools`]: 'dir', [`${root}/tools/git`]: 'dir', [`${root}/tools/git/team.gitconfig`]: 'file', [`${root}/tools/hooks`]: 'dir', [`${root}/vendor`]: 'dir' };
  const p = await plan(root, table, { named: [`${root}/tools/git/team.gitconfig`, `${root}/tools/hooks`, `${root}/cfg/deep/team.gitconfig`, `${root}/vendor/new/x.sh`] });
  expect(p.readOnly).toEqual(expect.arrayContaining([`${root}/tools/git/team.gitconfig`, `${root}/tools/hooks`]));
  expect(p.pinned).toEqual(expect.arrayContaining([`${root}/tools`, `${root}/tools/git`, `${root}/vendor`]));
  expect(p.blocked).toEqual(expect.arrayContaining([`${root}/cfg`, `${root}/vendor/new`]));
  expect(p.blocked).not.toContain(`${root}/cfg/deep/team.gitconfig`);
  expect(p.pinned).not.toContain(root);
  // Through a link on the way (lstat follows it: only the last name is not followed): where git reads is protected, its way pinned.
  const linked = await plan(root, { ...table, [`${root}/shared`]: 'symlink', [`${root}/shared/t.gitconfig`]: 'file', [`${root}/vendor/shared`]: 'dir', [`${root}/vendor/shared/t.gitconfig`]: 'file' }, { named: [`${root}/shared/t.gitconfig`], links: { [`${root}/shared/t.gitconfig`]: `${root}/vendor/shared/t.gitconfig` } });
  expect(linked.readOnly).toContain(`${root}/vendor/shared/t.gitconfig`);
  // The link itself can be replaced by a folder holding a planted file: checked after the command.
  expect(linked.watched).toContainEqual({ path: `${root}/shared`, missing: false, configured: true });
  expect(linked.pinned).toEqual(expect.arrayContaining([`${root}/vendor`, `${root}/vendor/shared`]));
});

test("a .git file naming a git directory inside the project: that directory protected as .git is, its way pinned, what its config names too", async () => {
  const root = '/work/proj';
  const gd = `${root}/meta/.gd`;
  const result = await planMounts(
    { writableRoots: [root], homeDir: HOME, denyRead: [], gitNamedPaths: (gitDir) => (gitDir === gd ? [`${gd}/inc.cfg`] : []), realPath: async (target) => target, gitFileTarget: async (file) => (file === `${root}/.git` ? gd : undefined) },
    async (target) => ({ [root]: 'dir', [`${root}/.git`]: 'file', [`${root}/meta`]: 'dir', [gd]: 'dir', [`${gd}/config`]: 'file', [`${gd}/hooks`]: 'dir' } as Record<string, PathKind>)[target] ?? 'missing',
    async () => [],
  );
  if (!result.ok) throw new Error(result.message);
  const p = result.plan;
  expect(p.readOnly).toEqual(expect.arrayContaining([`${root}/.git`, `${gd}/config`, `${gd}/hooks`]));
  expect(p.pinned).toEqual(expect.arrayContaining([`${root}/meta`, gd]));
  expect(p.blocked).toContain(`${gd}/inc.cfg`);
});

test('commondir and objects/info/alternates: read-only when present, never blocked (git dies on a commondir directory)', async () => {
  const root = '/work/proj';
  const present = await plan(root, { [root]: 'dir', [`${root}/.git`]: 'dir', [`${root}/.git/commondir`]: 'file', [`${root}/.git/objects/info`]: 'dir', [`${root}/.git/objects/info/alternates`]: 'file', [`${root}/.git/lazygit.yml`]: 'file' });
  expect(present.readOnly).toEqual(expect.arrayContaining([`${root}/.git/commondir`, `${root}/.git/objects/info/alternates`, `${root}/.git/lazygit.yml`]));
  const missing = await plan(root, { [root]: 'dir', [`${root}/.git`]: 'dir', [`${root}/.git/objects/info`]: 'dir' });
  expect(missing.blocked.filter((b) => /commondir|alternates|lazygit/.test(b))).toEqual([]);
});

test("a root whose repository's git directory lies outside it (a linked worktree, a submodule's checkout) or above it (a subfolder of a repository): what that configuration names inside the root is protected, from that repository's work tree", async () => {
  const root = '/work/wt';
  const seen: [string, string][] = [];
  const run = async (table: Record<string, PathKind>, input: Partial<Parameters<typeof planMounts>[0]>): Promise<MountPlan> => {
    const result = await planMounts(
      { writableRoots: [root], homeDir: HOME, denyRead: [], gitNamedPaths: (gitDir, workTree) => (seen.push([gitDir, workTree]), [`${root}/.githooks`]), ...input },
      async (target) => table[target] ?? 'missing',
      async () => [],
    );
    if (!result.ok) throw new Error(result.message);
    return result.plan;
  };
  const worktree = await run({ [root]: 'dir', [`${root}/.git`]: 'file', [`${root}/.githooks`]: 'dir' }, { gitFileTarget: async () => '/work/main/.git/worktrees/wt' });
  expect(worktree.readOnly).toEqual(expect.arrayContaining([`${root}/.git`, `${root}/.githooks`]));
  expect(seen).toContainEqual(['/work/main/.git/worktrees/wt', root]);
  const subfolder = await run({ [root]: 'dir' }, { enclosingRepository: async () => ({ gitDir: '/work/.git', workTree: '/work' }) });
  expect(subfolder.blocked).toEqual(expect.arrayContaining([`${root}/.git`, `${root}/.githooks`]));
  expect(seen).toContainEqual(['/work/.git', '/work']);
});
