/**
 * The terminal MewCode runs in goes away mid-run (the window closed, ssh dropped): the process
 * still ends with its own exit status. Node 20 aborts or crashes at exit when it restores the
 * modes of a terminal that is gone (bin/gone-terminal.ts); the shell would see 134 or 139.
 *
 * Each case runs the built CLI in a tmux pane under a shell that ignores SIGHUP (as `nohup` does),
 * so the shell outlives the terminal and writes MewCode's exit status to a file; killing the tmux
 * server hangs the terminal up. MewCode itself then gets SIGHUP only where the test sends it.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicEnv, prepareCli, REPO_ROOT, removeTempDirs, scenario, tempDir, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Starts `mewcode args` in a fresh tmux terminal; resolves once the model request has arrived, or the screen shows `shown`. */
async function inClosingTerminal(s: Scenario, args: readonly string[], shown?: string) {
  const socket = `mewcode-gone-${process.pid}-${randomBytes(4).toString('hex')}`;
  const files = tempDir('mewcode-gone-');
  const status = join(files, 'status');
  const pidFile = join(files, 'pid');
  const vars = Object.entries({ TERM: 'xterm-256color', ...anthropicEnv(s.server, s.home) })
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(' ');
  const cli = `${quote(process.execPath)} ${quote(join(REPO_ROOT, 'bin', 'mewcode.js'))} ${args.map(quote).join(' ')}`;
  // The inner shell records its pid and becomes MewCode (exec), so the pid is MewCode's.
  const inner = `echo $$ > ${quote(pidFile)}; cd ${quote(s.cwd)} && exec env -i ${vars} ${cli}`;
  const outer = `trap '' HUP; sh -c ${quote(inner)}; echo $? > ${quote(status)}`;
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '100', '-y', '30', `sh -c ${quote(outer)}`]);
  const ready = (): boolean => (shown === undefined ? s.requests.length > 0 : execFileSync('tmux', ['-L', socket, 'capture-pane', '-p'], { encoding: 'utf8' }).includes(shown));
  const deadline = Date.now() + 30_000;
  while (!ready() && Date.now() < deadline) await sleep(100);
  expect(ready()).toBe(true);
  return {
    pid: Number(readFileSync(pidFile, 'utf8').trim()),
    hangUp: () => execFileSync('tmux', ['-L', socket, 'kill-server']),
    exitStatus: async (): Promise<number> => {
      const until = Date.now() + 30_000;
      while (!existsSync(status) && Date.now() < until) await sleep(100);
      return Number(readFileSync(status, 'utf8').trim());
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.concurrent('-p: the terminal closes, no SIGHUP reaches MewCode: the run ends with its own status (0), not a crash', async () => {
  await scenario([{ text: 'the answer', delayMs: 1_500 }], async (s) => {
    const t = await inClosingTerminal(s, ['-p', 'hi']);
    t.hangUp();
    expect(await t.exitStatus()).toBe(0);
  });
}, 60_000);

test.concurrent('-p: the terminal closes and SIGHUP arrives: the run is cancelled and ends with 1, not a crash', async () => {
  await scenario([{ text: 'never read', delayMs: 20_000 }], async (s) => {
    const t = await inClosingTerminal(s, ['-p', 'hi']);
    t.hangUp();
    process.kill(t.pid, 'SIGHUP');
    expect(await t.exitStatus()).toBe(1);
  });
}, 60_000);

test.concurrent('the interactive UI (raw mode): the terminal closes and SIGHUP arrives: it ends with 129 or 1, not a crash', async () => {
  await scenario([], async (s) => {
    const t = await inClosingTerminal(s, [], 'type a prompt');
    t.hangUp();
    try {
      process.kill(t.pid, 'SIGHUP');
    } catch (error) {
      // It may have ended already, on its input failing as the terminal went away.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
    // Whichever it notices first ends it: the signal (129), or its input failing as the terminal
    // went away (1). Both are its own ends; a crash restoring the terminal's modes is 134 or 139.
    expect([1, 129]).toContain(await t.exitStatus());
  });
}, 60_000);
