/**
 * Adversarial, through the built CLI: MewCode dies by kill -9 (as by the OOM killer or a crash)
 * while a sandboxed command runs, right after the command planted a nested repository whose
 * `core.fsmonitor` would run a program at the user's next `git status` on the host. The git sweep
 * that follows every command never ran in the dead process; it must still happen:
 * - the watchdog that outlives MewCode sweeps within seconds, before the user's next git command,
 *   and the next MewCode start says what was set aside;
 * - with the watchdog killed too (a whole process group or cgroup killed, a power cut), the next
 *   MewCode start sweeps and says it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { gitWorld, opaqueBash, runModel, sandboxActive, spawnModel, waitFor } from './sandbox-cli.js';

const tally = securityTally('sweep-after-kill');
afterAll(() => {
  tally.save();
  removeTempDirs();
});

const ID = '-c user.email=m@example.com -c user.name=m';

let active = true;
beforeAll(async () => {
  const probe = await sandboxActive(gitWorld('probe').home);
  active = probe.active;
  if (!active) tally.skip(2, `kill -9 during a sandboxed command: ${probe.reason}`);
});

/** The pids of the sandbox watchdogs MewCode process `parent` started (`/bin/sh -c … mewcode-sandbox-cleanup …`). */
function watchdogsOf(parent: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (Number(ppid) === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes('mewcode-sandbox-cleanup')) found.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Starts MewCode on a command that plants the fsmonitor and sleeps; resolves once it is planted. */
async function plantAndWait(w: ReturnType<typeof gitWorld>): Promise<Awaited<ReturnType<typeof spawnModel>>> {
  const plant = `git init -q sub && git -C sub ${ID} commit -q --allow-empty -m x && printf '[core]\\n\\tfsmonitor = "touch ${w.canary}; false"\\n' >> sub/.git/config && git add sub && touch planted && sleep 30`;
  // Written so the command's analysis cannot see the protected path (it would ask, and -p denies).
  const cli = await spawnModel(w.root, w.home, [opaqueBash(plant)]);
  expect(await waitFor(() => existsSync(path.join(w.root, 'planted')), 20_000)).toBe(true);
  return cli;
}

/** The user's ordinary git commands on the host, at the project and in the nested repository. */
function userRunsGit(w: ReturnType<typeof gitWorld>): boolean {
  w.git(w.root, 'status', '--porcelain');
  if (existsSync(path.join(w.root, 'sub'))) w.git(path.join(w.root, 'sub'), 'status', '--porcelain');
  return existsSync(w.canary);
}

const QUARANTINED = path.join('sub', '.git', 'config.quarantined-by-mewcode');

test('kill -9 of MewCode during the command: its watchdog sweeps before the next git status, the next start says so', async () => {
  if (!active) return;
  const w = gitWorld('kill9');
  const cli = await plantAndWait(w);
  try {
    process.kill(cli.pid, 'SIGKILL');
    await cli.exited;
    // The watchdog's passes over the mount points take about 3 s, then the sweep (a node process).
    await waitFor(() => existsSync(path.join(w.root, QUARANTINED)), 20_000);
    const escaped = userRunsGit(w);
    tally.attempt('kill -9 during a sandboxed command that planted fsmonitor (watchdog alive)', escaped);
    expect(escaped).toBe(false);
    expect(existsSync(path.join(w.root, QUARANTINED))).toBe(true);
  } finally {
    await cli.close();
  }
  const next = await runModel(w.root, w.home, []);
  expect(next.result.stderr).toContain('MewCode ended during a sandboxed command');
  expect(next.result.stderr).toContain(`core.fsmonitor) at ${path.join(w.root, 'sub', '.git', 'config')}`);
  expect(readdirSync(path.join(w.home, '.mewcode', 'sandbox-commands'))).toEqual([]);
}, 90_000);

test('kill -9 of MewCode and of its watchdog: the next start in the project sweeps and says so; git status runs nothing', async () => {
  if (!active) return;
  const w = gitWorld('kill9all');
  const cli = await plantAndWait(w);
  try {
    const watchdogs = watchdogsOf(cli.pid);
    expect(watchdogs.length).toBeGreaterThan(0);
    for (const pid of watchdogs) process.kill(pid, 'SIGKILL');
    process.kill(cli.pid, 'SIGKILL');
    await cli.exited;
  } finally {
    await cli.close();
  }
  // Nothing swept it: the planted configuration is still in place.
  expect(readFileSync(path.join(w.root, 'sub', '.git', 'config'), 'utf8')).toContain('fsmonitor');
  const next = await runModel(w.root, w.home, []);
  expect(next.result.code).toBe(0);
  expect(next.result.stdout).toContain('done');
  expect(next.result.stderr).toContain('MewCode ended during a sandboxed command');
  expect(next.result.stderr).toContain(`core.fsmonitor) at ${path.join(w.root, 'sub', '.git', 'config')}`);
  const escaped = userRunsGit(w);
  tally.attempt('kill -9 of MewCode and its watchdog during a sandboxed command that planted fsmonitor, then a new start', escaped);
  expect(escaped).toBe(false);
  expect(existsSync(path.join(w.root, QUARANTINED))).toBe(true);
  expect(readdirSync(path.join(w.home, '.mewcode', 'sandbox-commands'))).toEqual([]);
}, 90_000);
