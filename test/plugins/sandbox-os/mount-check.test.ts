/** The check a sandboxed command passes before it starts (mount-check.ts): mountinfo read the way bubblewrap leaves it. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { escapeMountPath, expectedMounts, hostMounts, MOUNT_CHECK_FAILED, mountCheckedArgv, mountTable, parseMountInfo, sourceOf } from '../../../plugins/sandbox-os/mount-check.js';
import type { MountPlan } from '../../../plugins/sandbox-os/mount-plan.js';

const INFO = [
  '25 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda1 rw',
  '40 25 254:16 /volumes/work /work rw,relatime - ext4 /dev/vdb rw',
  '41 40 254:16 /volumes/my\\040dir /work/my\\040dir ro,relatime - ext4 /dev/vdb rw',
].join('\n');

const emptyPlan = (over: Partial<MountPlan>): MountPlan => ({ writable: [], pinned: [], readOnly: [], blocked: [], hiddenDirs: [], hiddenFiles: [], ...over });

test('mountinfo: fields unescaped; a path with a space spelled back as mountinfo spells it', () => {
  const mounts = parseMountInfo(INFO);
  expect(mounts[2]).toEqual({ dev: '254:16', root: '/volumes/my dir', mountPoint: '/work/my dir' });
  expect(escapeMountPath('/a b\tc\nd\\e')).toBe('/a\\040b\\011c\\012d\\134e');
});

test("a path's source is its file system and its path within it, from the deepest mount that holds it", () => {
  const mounts = mountTable(parseMountInfo(INFO));
  expect(sourceOf('/etc/passwd', mounts)).toEqual({ dev: '254:0', root: '/etc/passwd' });
  expect(sourceOf('/work/proj/.git', mounts)).toEqual({ dev: '254:16', root: '/volumes/work/proj/.git' });
  expect(sourceOf('/work', mounts)).toEqual({ dev: '254:16', root: '/volumes/work' });
  expect(sourceOf('/work/my dir/x', mounts)).toEqual({ dev: '254:16', root: '/volumes/my dir/x' });
  expect(sourceOf('/workshop', mounts)).toEqual({ dev: '254:0', root: '/workshop' }); // a prefix is not a parent
  expect(sourceOf('/work/proj/../my dir/', mounts)).toEqual({ dev: '254:16', root: '/volumes/my dir' });
});

test('of mounts stacked on one point the top one (listed last) is the source, wherever the stack is listed', () => {
  const stacked = mountTable(parseMountInfo(
    [
      '50 40 254:32 /cache /work/proj/cache rw - ext4 /dev/vdc rw',
      '25 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda1 rw',
      '40 25 254:16 /volumes/work /work rw,relatime - ext4 /dev/vdb rw',
      '51 50 0:99 / /work/proj/cache rw - tmpfs tmpfs rw',
    ].join('\n'),
  ));
  expect(sourceOf('/work/proj/cache/a', stacked)).toEqual({ dev: '0:99', root: '/a' });
  expect(sourceOf('/work/proj/cachex', stacked)).toEqual({ dev: '254:16', root: '/volumes/work/proj/cachex' });
  expect(sourceOf('/', stacked)).toEqual({ dev: '254:0', root: '/' });
  expect(sourceOf('/x', mountTable(parseMountInfo('40 25 254:16 /volumes/work /work rw - ext4 /dev/vdb rw')))).toBeUndefined();
});

test('the expected mounts: every bind with its source (onto itself or from elsewhere), the rest by place', () => {
  const plan = emptyPlan({ writable: ['/work/proj'], pinned: ['/work/proj/.git'], blocked: ['/work/proj/.mcp.json'], hiddenFiles: ['/home/u/.netrc'] });
  const keys = expectedMounts(plan, parseMountInfo(INFO), { emptyDir: '/var/s/empty', binds: [{ source: '/work/my dir/tmp', target: '/tmp' }] });
  expect(keys).toEqual([
    ' 254:16 /volumes/work/proj /work/proj r',
    ' 254:16 /volumes/work/proj/.git /work/proj/.git r',
    ' 254:16 /volumes/my\\040dir/tmp /tmp r',
    ' 254:0 /var/s/empty /work/proj/.mcp.json r',
    ' /home/u/.netrc r',
  ]);
});

const shells = ['/bin/sh', ...['/bin/bash', '/usr/bin/bash'].filter(existsSync).slice(0, 1)];

describe.each(shells)('the check, run by %s against this machine\'s own mountinfo', (shell) => {
  const rootKey = expectedMounts(emptyPlan({ writable: ['/'] }), hostMounts());
  const run = (keys: string[]) => {
    const [file, ...args] = mountCheckedArgv(keys, ['/bin/echo', 'ran'], shell);
    return spawnSync(file!, args, { encoding: 'utf8' });
  };

  test('a BASH_ENV in the environment runs nothing before the check', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mc-mount-check-'));
    const marker = path.join(dir, 'sourced');
    writeFileSync(path.join(dir, 'env.sh'), `touch ${marker}\n`);
    const [file, ...args] = mountCheckedArgv([' /nowhere/mewcode-not-mounted r'], ['/bin/echo', 'ran'], shell);
    const result = spawnSync(file!, args, { encoding: 'utf8', env: { ...process.env, BASH_ENV: path.join(dir, 'env.sh') } });
    expect(result.status).toBe(MOUNT_CHECK_FAILED);
    expect(existsSync(marker)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  test('no ~/.bashrc is read when stdin is a socket (as bash does for a remote shell), and the check still passes', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'mc-mount-check-home-'));
    const marker = path.join(home, 'sourced');
    writeFileSync(path.join(home, '.bashrc'), `touch ${marker}\n. /nonexistent/mewcode-rc\n`);
    const [file, ...args] = mountCheckedArgv(rootKey, ['/bin/cat'], shell);
    // Node's stdio pipes are socket pairs: what made bash take itself for a remote shell.
    const result = spawnSync(file!, args, { encoding: 'utf8', input: 'through', env: { PATH: process.env.PATH, HOME: home } });
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ status: 0, stdout: 'through', stderr: '' });
    expect(existsSync(marker)).toBe(false);
    rmSync(home, { recursive: true, force: true });
  });

  test("the command gets its environment as it was: its locale (set or not) and variables named like the check's own", () => {
    const env = (extra: Record<string, string>) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', all: 'mine', want: 'w', line: 'l', ...extra });
    const [file, ...args] = mountCheckedArgv(rootKey, ['/bin/sh', '-c', 'printf "%s|%s|%s|%s|%s" "${LC_ALL-unset}" "$all" "$want" "$line" "${mewcode_all-none}"'], shell);
    expect(spawnSync(file!, args, { encoding: 'utf8', env: env({}) })).toMatchObject({ status: 0, stdout: 'unset|mine|w|l|none' });
    expect(spawnSync(file!, args, { encoding: 'utf8', env: env({ LC_ALL: 'C.UTF-8' }) })).toMatchObject({ status: 0, stdout: 'C.UTF-8|mine|w|l|none' });
    expect(spawnSync(file!, args, { encoding: 'utf8', env: env({ LC_ALL: '' }) })).toMatchObject({ status: 0, stdout: '|mine|w|l|none' });
  });

  test('every mount found: the command runs with its own arguments', () => {
    expect(rootKey[0]).toMatch(/^ \d+:\d+ \/ \/ r$/);
    expect(run([...rootKey, ...rootKey])).toMatchObject({ status: 0, stdout: 'ran\n', stderr: '' });
  });

  test.each([
    ['the right place from another source (another path of the same file system)', (key: string) => key.replace(' / / r', ' /home / r')],
    ['the right place from another file system', (key: string) => key.replace(/^ \d+:\d+/, ' 9999:9999')],
    ['nothing mounted at the place', () => ' /nowhere/mewcode-not-mounted r'],
  ])('%s: nothing runs, exit 125, the place named', (_label, change) => {
    const result = run([rootKey[0]!, change(rootKey[0]!)]);
    expect(result.status).toBe(MOUNT_CHECK_FAILED);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the sandbox was not set up as planned (no mount ');
  });
});
