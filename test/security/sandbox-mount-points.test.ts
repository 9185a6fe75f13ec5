/**
 * The sandbox's own robustness, through the built CLI:
 * - concurrent sandboxed calls (a project's parallel PreToolUse hooks, parallel read-only bash)
 *   share the temporary mount points made for missing protected paths: none may fail because
 *   another call removed one under it (a failed blocking hook would let the hooked call run);
 * - a MewCode killed with SIGKILL while a sandboxed command runs leaves no empty `.mcp.json`,
 *   `.claude`, `.mewcode.yaml` … directories in the project.
 * The default suite runs a small round; `npm run stress:sandbox` runs MEWCODE_STRESS_ROUNDS more.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, tempDir } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { bash, runModel, sandboxActive, spawnModel, waitFor } from './sandbox-cli.js';
import { HOST_MOUNTED_NAMES } from '../../sdk/host-tool-files.js';

const tally = securityTally('sandbox-mount-points');
afterAll(() => {
  tally.save();
  removeTempDirs();
});

const ROUNDS = Number(process.env.MEWCODE_STRESS_ROUNDS ?? 3);
/** Rounds per CLI run (each run is bounded in time); the stress run makes several. */
const ROUNDS_PER_RUN = 3;
const RUNS = Math.ceil(ROUNDS / ROUNDS_PER_RUN);
const PARALLEL_CALLS = 4;
const HOOKS = 8;
/** The protected names a fresh project lacks: each gets a temporary mount point per call. */
const MOUNT_POINT_NAMES = ['.mcp.json', '.claude', '.mewcode.yaml', '.mewcode.yml', '.mewcode.json', '.git/config.worktree', ...HOST_MOUNTED_NAMES];

function project(): { root: string; home: string } {
  const base = tempDir('mc-mountpoints-');
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  execFileSync('git', ['init', '-q'], { cwd: root });
  writeFileSync(path.join(root, 'README.md'), 'hello\n');
  return { root, home };
}

const leftovers = (root: string): string[] => MOUNT_POINT_NAMES.filter((name) => existsSync(path.join(root, name)));

let active = true;
beforeAll(async () => {
  const probe = await sandboxActive(project().home);
  active = probe.active;
  if (!active) tally.skip(3, `sandbox mount points: ${probe.reason}`);
});

test(`${HOOKS} parallel project PreToolUse hooks, one of them blocking, over ${RUNS * ROUNDS_PER_RUN}×${PARALLEL_CALLS} bash calls: every call is blocked`, async () => {
  if (!active) return;
  const { root, home } = project();
  // Seven that allow, one policy hook that blocks every command: all sandboxed (a project's hooks).
  const hooks = [...Array.from({ length: HOOKS - 1 }, () => ({ type: 'command', command: 'cat >/dev/null; exit 0' })), { type: 'command', command: 'cat >/dev/null; echo "policy: no commands" >&2; exit 2' }];
  mkdirSync(path.join(root, '.mewcode'));
  writeFileSync(path.join(root, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } }));
  const results: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    const calls = Array.from({ length: ROUNDS_PER_RUN }, (_, round) => Array.from({ length: PARALLEL_CALLS }, (_, i) => bash(`echo ran-${r}-${round}-${i} >> ran.log`)));
    const run = await runModel(root, home, calls, ['--trust-project']);
    expect(run.result.code).toBe(0);
    results.push(...run.toolResults);
  }
  const ran = existsSync(path.join(root, 'ran.log'));
  tally.attempt('a blocked call runs because a parallel hook failed on a mount point', ran);
  expect({ ran, results: results.filter((r) => !r.includes('policy: no commands')) }).toEqual({ ran: false, results: [] });
  expect(results).toHaveLength(RUNS * ROUNDS_PER_RUN * PARALLEL_CALLS);
  expect(leftovers(root)).toEqual([]);
}, 60_000 * RUNS);

test(`parallel read-only bash (${RUNS * ROUNDS_PER_RUN}×6 calls): none fails`, async () => {
  if (!active) return;
  const { root, home } = project();
  const results: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    const calls = Array.from({ length: ROUNDS_PER_RUN }, () => Array.from({ length: 6 }, () => bash('cat README.md')));
    const run = await runModel(root, home, calls, ['--allowedTools', 'Bash']);
    expect(run.result.code).toBe(0);
    results.push(...run.toolResults);
  }
  const failed = results.filter((r) => r !== 'exit_code: 0\nhello');
  tally.attempt('a parallel read-only command fails on a mount point', failed.length > 0);
  expect(failed).toEqual([]);
  expect(results).toHaveLength(RUNS * ROUNDS_PER_RUN * 6);
  expect(leftovers(root)).toEqual([]);
}, 60_000 * RUNS);

test('kill -9 of MewCode while a sandboxed command runs leaves no mount point in the project', async () => {
  if (!active) return;
  const { root, home } = project();
  const cli = await spawnModel(root, home, [bash('sleep 30')]);
  try {
    // The command is running once its mount points exist.
    expect(await waitFor(() => existsSync(path.join(root, '.mcp.json')), 15_000)).toBe(true);
    process.kill(cli.pid, 'SIGKILL');
    await cli.exited;
    const clean = await waitFor(() => leftovers(root).length === 0, 5_000);
    tally.attempt('kill -9 leaves empty protected-name directories in the project', !clean);
    expect(leftovers(root)).toEqual([]);
    // Nothing else of MewCode's is left in the project but its own .mewcode directory.
    expect(readdirSync(root).sort()).toEqual(['.git', '.mewcode', 'README.md']);
  } finally {
    await cli.close();
  }
}, 40_000);
