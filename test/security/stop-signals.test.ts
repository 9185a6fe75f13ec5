/**
 * Adversarial, through the built CLI: the process is told to stop while a sandboxed command runs —
 * Ctrl+C (SIGINT), a stop request (SIGTERM) or a closed terminal (SIGHUP) — right after the command
 * planted a git configuration that would run a program at the user's next `git status` on the
 * host. The run is cancelled as for Ctrl+C, so what follows a command still happens: the sandbox's
 * git sweep sets the planted configuration aside, and nothing runs on the host.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { gitWorld, opaqueBash, sandboxActive, spawnModel, waitFor } from './sandbox-cli.js';

const tally = securityTally('stop-signals');
afterAll(() => {
  tally.save();
  removeTempDirs();
});

const SIGNALS = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;
const ID = '-c user.email=m@example.com -c user.name=m';

let active = true;
beforeAll(async () => {
  const probe = await sandboxActive(gitWorld('probe').home);
  active = probe.active;
  if (!active) tally.skip(SIGNALS.length, `stop signals during a sandboxed command: ${probe.reason}`);
});

test.each(SIGNALS)('%s while the command runs: the planted fsmonitor is swept, the next git status runs nothing', async (signal) => {
  if (!active) return;
  const w = gitWorld('stopsig');
  const plant = `git init -q sub && git -C sub ${ID} commit -q --allow-empty -m x && printf '[core]\\n\\tfsmonitor = "touch ${w.canary}; false"\\n' >> sub/.git/config && git add sub && touch planted && sleep 30`;
  // Written so the command's analysis cannot see the protected path (it would ask, and -p denies).
  const cli = await spawnModel(w.root, w.home, [opaqueBash(plant)]);
  try {
    expect(await waitFor(() => existsSync(path.join(w.root, 'planted')), 20_000)).toBe(true);
    process.kill(cli.pid, signal);
    await cli.exited;
    w.git(w.root, 'status', '--porcelain');
    if (existsSync(path.join(w.root, 'sub'))) w.git(path.join(w.root, 'sub'), 'status', '--porcelain');
    const escaped = existsSync(w.canary);
    tally.attempt(`${signal} during a sandboxed command that planted fsmonitor`, escaped);
    expect(escaped).toBe(false);
  } finally {
    await cli.close();
  }
}, 60_000);
