/**
 * Through the built CLI: a session's lock names the process holding it. A holder killed while its
 * parent never reaps it stays a zombie that still answers `kill -0`; a holder's pid may be taken by
 * an unrelated process later. Neither may keep the session locked (`--continue` would say there is
 * nothing to continue); a live holder still does.
 */
import { afterAll, afterEach, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { REPO_ROOT, removeTempDirs, scenario, singleJsonObject, type Scenario } from '../cli/helpers.js';
import { securityTally } from './attempts.js';

const tally = securityTally('session-lock-holders');
afterAll(() => tally.save());
afterEach(() => removeTempDirs());

const onLinux = existsSync('/proc/self/stat');

function lockOf(cwd: string): { dir: string; file: string } | undefined {
  const root = path.join(cwd, '.mewcode', 'sessions');
  if (!existsSync(root)) return undefined;
  for (const id of readdirSync(root)) {
    const file = path.join(root, id, 'lock');
    if (existsSync(file)) return { dir: path.join(root, id), file };
  }
  return undefined;
}

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/**
 * Starts MewCode as the background child of a shell that then execs into `sleep`: the holder's
 * parent is a process that never reaps. Resolves once the holder holds its session's lock and its
 * first request has arrived (the model answers only much later).
 */
async function startUnreapedHolder(s: Scenario): Promise<{ holder: number; reaper: () => void }> {
  const bin = path.join(REPO_ROOT, 'bin', 'mewcode.js');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(s.env)) if (value !== undefined) env[key] = value;
  const shell = spawn('sh', ['-c', `"$0" "$1" -p 'remember the word kiwi' </dev/null >/dev/null 2>&1 & exec sleep 60`, process.execPath, bin], { cwd: s.cwd, env, stdio: 'ignore' });
  await until('the first request', () => s.requests.length >= 1);
  const lock = await until('the session lock', () => lockOf(s.cwd));
  const holder = Number.parseInt(readFileSync(lock.file, 'utf8'), 10);
  return { holder, reaper: () => shell.kill('SIGKILL') };
}

test('a holder killed and left a zombie (its parent never reaps it) does not keep the session locked', async () => {
  if (!onLinux) return void tally.skip(1, 'zombies are observed through /proc (Linux)');
  await scenario([{ text: 'Noted: kiwi.', delayMs: 30_000 }, { text: 'The word was kiwi.' }], async (s) => {
    const { holder, reaper } = await startUnreapedHolder(s);
    try {
      process.kill(holder, 'SIGKILL');
      await until('the zombie', () => processState(holder) === 'Z');
      const r = await s.run(['--continue', '-p', 'what was the word?', '--output-format', 'json']);
      const locked = r.code !== 0;
      tally.attempt('zombie holder keeps the session locked', locked);
      expect(r.stderr).not.toContain('no saved session');
      expect(r.code).toBe(0);
      expect(JSON.stringify(s.requests.at(-1)!.body.messages)).toContain('remember the word kiwi');
    } finally {
      reaper();
    }
  });
}, 40_000);

test('a lock whose pid now belongs to another process (started later than the holder recorded) is stale', async () => {
  if (!onLinux) return void tally.skip(1, 'process start times are read from /proc (Linux)');
  await scenario([{ text: 'Noted: kiwi.' }, { text: 'The word was kiwi.' }], async (s) => {
    const first = await s.run(['-p', 'remember the word kiwi', '--output-format', 'json']);
    const id = singleJsonObject(first.stdout).session_id as string;
    // The holder died; its pid went to an unrelated process (here: a sleep started now).
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await until('the stranger', () => processState(stranger.pid!) !== undefined);
      const lockFile = path.join(s.cwd, '.mewcode', 'sessions', id, 'lock');
      // What the holder wrote: its pid, and its start time (clock ticks after boot), long before the stranger's.
      writeFileSync(lockFile, `${stranger.pid}\n1\n`);
      const r = await s.run(['--continue', '-p', 'what was the word?', '--output-format', 'json']);
      tally.attempt('reused pid keeps the session locked', r.code !== 0);
      expect(r.stderr).not.toContain('no saved session');
      expect(r.code).toBe(0);
      expect(singleJsonObject(r.stdout).session_id).toBe(id);
    } finally {
      stranger.kill('SIGKILL');
    }
  });
});

test('control: a live holder keeps its session (--continue names the holder instead of taking it)', async () => {
  await scenario([{ text: 'Noted: kiwi.', delayMs: 30_000 }], async (s) => {
    const { holder, reaper } = await startUnreapedHolder(s);
    try {
      const r = await s.run(['--continue', '-p', 'what was the word?']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is open in another MewCode process \(pid \d+\)/);
    } finally {
      process.kill(holder, 'SIGKILL');
      reaper();
    }
  });
}, 40_000);
