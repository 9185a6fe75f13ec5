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
import { bash, gitWorld, opaqueBash, sandboxActive, spawnModel, waitFor } from './sandbox-cli.js';

const tally = securityTally('stop-signals');
afterAll(() => {
  tally.save();
  removeTempDirs();
});

const SIGNALS = ['SIGHUP', 'SIGTERM', 'SIGINT', 'SIGQUIT'] as const;
/** Stops sent in quick succession (Ctrl+C twice within a second is ordinary). */
const REPEATED = [['SIGINT', 'SIGINT'], ['SIGTERM', 'SIGTERM'], ['SIGHUP', 'SIGHUP'], ['SIGINT', 'SIGQUIT']] as const;
const ID = '-c user.email=m@example.com -c user.name=m';

let active = true;
beforeAll(async () => {
  const probe = await sandboxActive(gitWorld('probe').home);
  active = probe.active;
  if (!active) tally.skip(SIGNALS.length + REPEATED.length + 1, `stop signals during a sandboxed command: ${probe.reason}`);
});

/** A nested repository whose config runs a program at the next `git status` there, then a long wait. */
const plantFor = (canary: string): string =>
  `git init -q sub && git -C sub ${ID} commit -q --allow-empty -m x && printf '[core]\\n\\tfsmonitor = "touch ${canary}; false"\\n' >> sub/.git/config && git add sub && touch planted && sleep 30`;

/** After the CLI ended: the user's git status at the root and in `sub`; true when the planted program ran. */
function escaped(w: ReturnType<typeof gitWorld>): boolean {
  w.git(w.root, 'status', '--porcelain');
  if (existsSync(path.join(w.root, 'sub'))) w.git(path.join(w.root, 'sub'), 'status', '--porcelain');
  return existsSync(w.canary);
}

const CASES = [...SIGNALS.map((signal) => [signal] as const), ...REPEATED].map((signals) => [signals.join(' then '), signals] as const);

test.each(CASES)('%s while the command runs: the planted fsmonitor is swept, the next git status runs nothing', async (_label, signals) => {
  if (!active) return;
  const w = gitWorld('stopsig');
  // Written so the command's analysis cannot see the protected path (it would ask, and -p denies).
  const cli = await spawnModel(w.root, w.home, [opaqueBash(plantFor(w.canary))]);
  try {
    expect(await waitFor(() => existsSync(path.join(w.root, 'planted')), 20_000)).toBe(true);
    for (const signal of signals) {
      process.kill(cli.pid, signal);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await cli.exited;
    const ran = escaped(w);
    tally.attempt(`${signals.join(' ')} during a sandboxed command that planted fsmonitor`, ran);
    expect(ran).toBe(false);
  } finally {
    await cli.close();
  }
}, 60_000);

test('the output\'s reader goes away (EPIPE) while the command runs: the run stops as for a signal, and the planted fsmonitor is swept', async () => {
  if (!active) return;
  const w = gitWorld('stopsig');
  // Two calls side by side: the planting one, and one whose result is printed while it sleeps.
  const cli = await spawnModel(w.root, w.home, [[opaqueBash(plantFor(w.canary)), bash('sleep 2; echo a')]], { args: ['--output-format', 'stream-json'], stdout: 'pipe' });
  try {
    cli.child.stdout!.resume();
    expect(await waitFor(() => existsSync(path.join(w.root, 'planted')), 20_000)).toBe(true);
    cli.child.stdout!.destroy(); // `| head -1` has read its line and left
    await cli.exited;
    const ran = escaped(w);
    tally.attempt('EPIPE on the output during a sandboxed command that planted fsmonitor', ran);
    expect(ran).toBe(false);
  } finally {
    await cli.close();
  }
}, 60_000);
