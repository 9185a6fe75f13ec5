/** The pure parts of the OS sandbox: the mount plan, bubblewrap's arguments, the Seatbelt profile. Run everywhere. */
import path from 'node:path';
import { bwrapArgs } from '../../../plugins/sandbox-os/bwrap-args.js';
import { planMounts, type Inspect, type MountPlan, type PathKind } from '../../../plugins/sandbox-os/mount-plan.js';
import { CREDENTIAL_PATHS as DEFAULT_DENY_READ, credentialPaths as defaultDenyRead } from '../../../plugins/sandbox-os/credential-paths.js';
import { seatbeltProfile } from '../../../plugins/sandbox-os/seatbelt.js';
import { rebuiltFolders, type FolderEntry, type ListEntries } from '../../../plugins/sandbox-os/rebuilt-folders.js';
import { HOST_MOUNTED_NAMES } from '../../../sdk/host-tool-files.js';

const ROOT = '/work/proj';
const HOME = '/home/u';

/** An inspector over a fixed table; everything else is missing. */
function disk(table: Record<string, PathKind>): Inspect {
  return async (target) => table[target] ?? 'missing';
}

async function plan(table: Record<string, PathKind>, extra: Partial<{ writableRoots: string[]; denyRead: string[] }> = {}): Promise<MountPlan> {
  const result = await planMounts({ writableRoots: extra.writableRoots ?? [ROOT], homeDir: HOME, denyRead: extra.denyRead ?? defaultDenyRead(HOME) }, disk(table));
  if (!result.ok) throw new Error(result.message);
  return result.plan;
}

const invocation = (p: MountPlan, network = false) => ({ plan: p, privateTmp: '/tmp/mewcode-sandbox-x/tmp', emptyDir: '/tmp/mewcode-sandbox-x/empty', network, cwd: `${ROOT}/src`, argv: ['/bin/bash', '-c', 'echo hi'] });

/** The position of `--flag a b` in args (or -1). */
function indexOf(args: string[], ...sequence: string[]): number {
  for (let i = 0; i + sequence.length <= args.length; i++) if (sequence.every((part, j) => args[i + j] === part)) return i;
  return -1;
}

describe('mount plan', () => {
  test('an existing .git is pinned and its config and hooks are read-only; missing protected names are blocked', async () => {
    const p = await plan({ [`${ROOT}/.git`]: 'dir', [`${ROOT}/.git/config`]: 'file', [`${ROOT}/.git/hooks`]: 'dir', [`${ROOT}/.mewcode`]: 'dir' });
    expect(p.writable).toEqual([ROOT]);
    expect(p.pinned).toEqual([`${ROOT}/.git`]);
    expect(p.readOnly).toEqual([`${ROOT}/.git/config`, `${ROOT}/.git/hooks`, `${ROOT}/.mewcode`]);
    // config.worktree: git reads it once extensions.worktreeConfig is on (sparse-checkout sets it).
    expect(p.blocked).toEqual([`${ROOT}/.git/config.worktree`, `${ROOT}/.mewcode.yaml`, `${ROOT}/.mewcode.yml`, `${ROOT}/.mewcode.json`, `${ROOT}/.claude`, `${ROOT}/.mcp.json`, ...HOST_MOUNTED_NAMES.map((name) => `${ROOT}/${name}`)]);
    // Other tools' settings at the root: the editors', a dev container's, other agents'.
    for (const name of ['.vscode', '.idea', '.devcontainer.json', '.lfsconfig', '.agents', '.opencode', '.gemini', '.cursor', '.crush.json', '.aider.conf.yml', '.run']) expect(p.blocked).toContain(`${ROOT}/${name}`);
  });

  test("other tools' settings a command may glob or read (opencode.json, *.code-workspace, .pnpmfile.cjs): read-only when present, never blocked while missing", async () => {
    const names = ['opencode.json', 'Crush.json', 'app.code-workspace', '.pnpmfile.cjs', 'package.json', 'linked.code-workspace'];
    const table: Record<string, PathKind> = { [`${ROOT}/opencode.json`]: 'file', [`${ROOT}/Crush.json`]: 'file', [`${ROOT}/app.code-workspace`]: 'file', [`${ROOT}/.pnpmfile.cjs`]: 'file', [`${ROOT}/package.json`]: 'file', [`${ROOT}/linked.code-workspace`]: 'symlink' };
    const result = await planMounts({ writableRoots: [ROOT], homeDir: HOME, denyRead: [] }, disk(table), async (dir) => (dir === ROOT ? names : []));
    if (!result.ok) throw new Error(result.message);
    expect(result.plan.readOnly).toEqual(expect.arrayContaining([`${ROOT}/opencode.json`, `${ROOT}/Crush.json`, `${ROOT}/app.code-workspace`, `${ROOT}/.pnpmfile.cjs`]));
    expect(result.plan.readOnly).not.toContain(`${ROOT}/package.json`);
    expect(result.plan.readOnly).not.toContain(`${ROOT}/linked.code-workspace`); // a link: judged by the sweep after the command
    const fresh = await plan({});
    for (const name of ['opencode.json', 'opencode.jsonc', 'crush.json', '.pnpmfile.cjs']) expect([...fresh.blocked, ...fresh.readOnly]).not.toContain(`${ROOT}/${name}`);
  });

  test('without .git, .git itself is blocked (a sandboxed `git init` could plant a config that runs on the host)', async () => {
    const p = await plan({});
    expect(p.pinned).toEqual([]);
    expect(p.blocked).toContain(`${ROOT}/.git`);
    expect(p.blocked).not.toContain(`${ROOT}/.git/config`);
  });

  test('a .git file (worktree) is read-only, not pinned', async () => {
    const p = await plan({ [`${ROOT}/.git`]: 'file' });
    expect(p.readOnly).toContain(`${ROOT}/.git`);
    expect(p.pinned).toEqual([]);
  });

  test('a protected path that is a symbolic link refuses the command, naming the path and what to do', async () => {
    for (const name of ['.git', '.claude', '.mcp.json', '.mewcode']) {
      const result = await planMounts({ writableRoots: [ROOT], homeDir: HOME, denyRead: [] }, disk({ [`${ROOT}/${name}`]: 'symlink' }));
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.message).toContain(`${ROOT}/${name} is a symbolic link`);
        expect(result.message).toContain('sandbox: false');
      }
    }
    const hooks = await planMounts({ writableRoots: [ROOT], homeDir: HOME, denyRead: [] }, disk({ [`${ROOT}/.git`]: 'dir', [`${ROOT}/.git/hooks`]: 'symlink' }));
    expect(hooks.ok).toBe(false);
  });

  test('every writable root gets the same protection (additional directories are often other repositories)', async () => {
    const p = await plan({ '/other/.git': 'dir', '/other/.git/config': 'file', '/other/.git/hooks': 'dir' }, { writableRoots: [ROOT, '/other'] });
    expect(p.pinned).toEqual(['/other/.git']);
    expect(p.readOnly).toEqual(['/other/.git/config', '/other/.git/hooks']);
    expect(p.blocked).toContain(`${ROOT}/.mcp.json`);
    expect(p.blocked).toContain('/other/.mcp.json');
  });

  test("the user's ~/.mewcode is protected when the home directory is inside a writable root", async () => {
    const p = await plan({ [`${HOME}/.mewcode`]: 'dir' }, { writableRoots: ['/home'] });
    expect(p.readOnly).toContain(`${HOME}/.mewcode`);
    const outside = await plan({ [`${HOME}/.mewcode`]: 'dir' });
    expect(outside.readOnly).not.toContain(`${HOME}/.mewcode`);
    expect(outside.blocked).not.toContain(`${HOME}/.mewcode`);
  });

  test('deny-read: existing directories become hidden dirs, files hidden files, missing ones nothing', async () => {
    const p = await plan({ [`${HOME}/.ssh`]: 'dir', [`${HOME}/.netrc`]: 'file', [`${HOME}/.docker`]: 'dir', [`${HOME}/.npmrc`]: 'other' });
    expect(p.hiddenDirs).toEqual([`${HOME}/.ssh`, `${HOME}/.docker`]);
    expect(p.hiddenFiles).toEqual([`${HOME}/.netrc`, `${HOME}/.npmrc`]);
  });

  test("the home's folders holding hidden entries are rebuilt: every other entry bound back (a link made again), none inside a writable root or below /tmp, within the budget", async () => {
    const listing: Record<string, FolderEntry[]> = {
      [HOME]: [
        { name: '.netrc', kind: 'file' },
        { name: '.ssh', kind: 'dir' },
        { name: '.bashrc', kind: 'file' },
        { name: 'work', kind: 'dir' },
        { name: 'n', kind: 'symlink', link: '.netrc' },
        { name: 'gone', kind: 'missing' },
        { name: 'agent.sock', kind: 'other' },
      ],
      [`${HOME}/.config/git`]: [{ name: 'credentials', kind: 'file' }, { name: 'config', kind: 'file' }],
      [`${HOME}/work/proj`]: [{ name: '.env', kind: 'file' }],
    };
    const listEntries: ListEntries = async (dir) => listing[dir];
    const table: Record<string, PathKind> = { [`${HOME}/.netrc`]: 'file', [`${HOME}/.ssh`]: 'dir', [`${HOME}/.config/git/credentials`]: 'file', [`${HOME}/work/proj/.env`]: 'file', '/tmp/h/.netrc': 'file', '/etc/secret': 'file' };
    const denyRead = [`${HOME}/.netrc`, `${HOME}/.ssh`, `${HOME}/.config/git/credentials`, `${HOME}/work/proj/.env`, '/tmp/h/.netrc', '/etc/secret'];
    const result = await planMounts({ writableRoots: [`${HOME}/work/proj`], homeDir: HOME, denyRead, listEntries }, disk(table));
    if (!result.ok) throw new Error(result.message);
    expect(result.plan.rebuilt).toEqual([
      { dir: HOME, entries: [{ name: '.bashrc' }, { name: 'work' }, { name: 'n', link: '.netrc' }, { name: 'agent.sock' }] },
      { dir: `${HOME}/.config/git`, entries: [{ name: 'config' }] },
    ]);
    // What is hidden in them is hidden as before, now on names inside the rebuilt folder.
    expect(result.plan.hiddenFiles).toContain(`${HOME}/.netrc`);
    const args = bwrapArgs(invocation(result.plan));
    const home = indexOf(args, '--tmpfs', HOME, '--ro-bind-try', `${HOME}/.bashrc`, `${HOME}/.bashrc`, '--ro-bind-try', `${HOME}/work`, `${HOME}/work`, '--symlink', '.netrc', `${HOME}/n`);
    const project = indexOf(args, '--bind', `${HOME}/work/proj`, `${HOME}/work/proj`);
    const netrc = indexOf(args, '--ro-bind', '/dev/null', `${HOME}/.netrc`);
    const readOnly = indexOf(args, '--remount-ro', HOME);
    for (const position of [home, project, netrc, readOnly]) expect(position).toBeGreaterThanOrEqual(0);
    expect(home).toBeLessThan(project); // the project inside the home is bound read-write over its entry
    expect(project).toBeLessThan(netrc);
    expect(netrc).toBeLessThan(readOnly);
    expect(readOnly).toBeLessThan(indexOf(args, '--chdir'));
    // Over budget (.ssh, .bashrc, work, n and agent.sock to bind back): the folder keeps its per-file mounts.
    expect(await rebuiltFolders({ files: [`${HOME}/.netrc`], dirs: [] }, [], HOME, listEntries, 5)).toEqual([{ dir: HOME, entries: expect.any(Array) }]);
    expect(await rebuiltFolders({ files: [`${HOME}/.netrc`], dirs: [] }, [], HOME, listEntries, 4)).toEqual([]);
    // A home of `/` (a container user with no home): `/` holds the sandbox's own /tmp, /proc, /run and is never rebuilt.
    expect(await rebuiltFolders({ files: ['/.env'], dirs: [] }, [], '/', async () => [{ name: 'tmp', kind: 'dir' }, { name: 'proc', kind: 'dir' }])).toEqual([]);
    // A folder holding only hidden folders is not rebuilt, nor one that cannot be listed.
    expect(await rebuiltFolders({ files: [], dirs: [`${HOME}/.ssh`] }, [], HOME, listEntries)).toEqual([]);
    expect(await rebuiltFolders({ files: [`${HOME}/x/.netrc`], dirs: [] }, [], HOME, listEntries)).toEqual([]);
  });

  test('the default deny-read list covers the usual credentials and MewCode trust store, under the given home', () => {
    const list = defaultDenyRead(HOME);
    for (const name of ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.kube', '.docker', '.netrc', '.npmrc', '.mewcode/trust.json']) {
      expect(list).toContain(path.join(HOME, name));
    }
    expect(list).toHaveLength(DEFAULT_DENY_READ.length);
  });
});

describe('bubblewrap arguments', () => {

  test('isolation flags, a read-only root, then the writable binds, then protection, then deny-read, then the command', async () => {
    const p = await plan({ [`${ROOT}/.git`]: 'dir', [`${ROOT}/.git/config`]: 'file', [`${ROOT}/.git/hooks`]: 'dir', [`${HOME}/.ssh`]: 'dir', [`${HOME}/.netrc`]: 'file' });
    const args = bwrapArgs(invocation(p));
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-net', '--unshare-ipc']) expect(args).toContain(flag);
    expect(indexOf(args, '--cap-drop', 'ALL')).toBeGreaterThanOrEqual(0);
    expect(indexOf(args, '--ro-bind-try', '/proc/sys', '/proc/sys')).toBeGreaterThan(indexOf(args, '--proc', '/proc'));
    const root = indexOf(args, '--ro-bind', '/', '/');
    const proc = indexOf(args, '--proc', '/proc');
    const run = indexOf(args, '--tmpfs', '/run');
    const tmp = indexOf(args, '--bind', '/tmp/mewcode-sandbox-x/tmp', '/tmp');
    const project = indexOf(args, '--bind', ROOT, ROOT);
    const pin = indexOf(args, '--bind', `${ROOT}/.git`, `${ROOT}/.git`);
    const config = indexOf(args, '--ro-bind', `${ROOT}/.git/config`, `${ROOT}/.git/config`);
    const blocked = indexOf(args, '--ro-bind', '/tmp/mewcode-sandbox-x/empty', `${ROOT}/.mcp.json`);
    const ssh = indexOf(args, '--tmpfs', `${HOME}/.ssh`, '--remount-ro', `${HOME}/.ssh`);
    const netrc = indexOf(args, '--ro-bind', '/dev/null', `${HOME}/.netrc`);
    const chdir = indexOf(args, '--chdir', `${ROOT}/src`, '--', '/bin/bash', '-c', 'echo hi');
    for (const position of [root, proc, run, tmp, project, pin, config, blocked, ssh, netrc, chdir]) expect(position).toBeGreaterThanOrEqual(0);
    expect(root).toBeLessThan(tmp);
    expect(tmp).toBeLessThan(project); // a project under /tmp stays visible
    expect(project).toBeLessThan(pin);
    expect(pin).toBeLessThan(config);
    expect(config).toBeLessThan(blocked);
    expect(blocked).toBeLessThan(ssh);
    expect(ssh).toBeLessThan(netrc);
    expect(chdir).toBe(args.length - 6);
  });

  test('network: no --unshare-net, and name resolution under /run stays reachable', async () => {
    const args = bwrapArgs(invocation(await plan({}), true));
    expect(args).not.toContain('--unshare-net');
    expect(indexOf(args, '--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve')).toBeGreaterThan(indexOf(args, '--tmpfs', '/run'));
  });

  test('the command is passed after --, unchanged, whatever it contains', async () => {
    const argv = ['/bin/bash', '-c', "--bind / / ; echo '$(x)' \"--\""];
    const args = bwrapArgs({ ...invocation(await plan({})), argv });
    expect(args.slice(args.indexOf('--') + 1)).toEqual(argv);
  });
});

describe('Seatbelt profile (macOS; untested on this machine beyond its text)', () => {
  test('writes denied except the writable roots and the private temp dir; protected paths denied again; deny-read and network denied', async () => {
    const p = await plan({ [`${ROOT}/.git`]: 'dir', [`${ROOT}/.git/config`]: 'file', [`${ROOT}/.git/hooks`]: 'dir', [`${HOME}/.ssh`]: 'dir' });
    const profile = seatbeltProfile({ plan: p, privateTmp: '/private/tmp/x', network: false, argv: ['/bin/bash'] });
    const lines = profile.split('\n');
    expect(lines.slice(0, 3)).toEqual(['(version 1)', '(allow default)', '(deny file-write*)']);
    expect(profile).toContain(`(subpath "${ROOT}")`);
    expect(profile).toContain('(subpath "/private/tmp/x")');
    const allow = lines.findIndex((l) => l.startsWith('(allow file-write*'));
    const denyProtected = lines.findIndex((l) => l.includes(`(literal "${ROOT}/.git/config")`));
    expect(denyProtected).toBeGreaterThan(allow);
    expect(profile).toContain(`(deny file-read* (subpath "${HOME}/.ssh"))`);
    expect(lines.slice(-2)).toEqual(['(deny network*)', '(deny network-outbound (remote unix-socket))']);
    // With the network on, only unix-socket connections stay refused (the seccomp filter's counterpart).
    expect(seatbeltProfile({ plan: p, privateTmp: '/t', network: true, argv: [] }).split('\n').filter((line) => line.includes('network'))).toEqual(['(deny network-outbound (remote unix-socket))']);
  });

  test('quotes and backslashes in paths cannot end the string literal', async () => {
    const p = await plan({}, { writableRoots: ['/w/a"b\\c'] });
    const profile = seatbeltProfile({ plan: p, privateTmp: '/t', network: false, argv: [] });
    expect(profile).toContain('(subpath "/w/a\\"b\\\\c")');
  });
});
