/**
 * A committed repository old enough for the sandbox to keep what it read of its refs, and a `git`
 * on PATH that logs every call before running the real one: what the sandbox starts is counted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FINE_TICK_MS, TICK_MS, onFineClockFileSystem } from '../../../plugins/sandbox-os/file-clock.js';

export interface LoggedGit {
  project: string;
  /** Runs the real git in the project (not logged). */
  git(...args: string[]): string;
  /** How many logged git calls name `subcommand` since the last reset(). */
  count(subcommand: string): number;
  reset(): void;
  /** Puts the logging git first on PATH until the returned function is called. */
  onPath(): () => void;
  remove(): Promise<void>;
}

/** Waits until times written in `dir` just now are a tick of its file system's clock old (file-clock.ts), and a little more. */
export function waitPastTick(dir: string): Promise<void> {
  const tick = onFineClockFileSystem(dir) ? FINE_TICK_MS : TICK_MS;
  return new Promise((resolve) => setTimeout(resolve, tick + 200));
}

export async function loggedGitRepo(): Promise<LoggedGit> {
  const project = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-logged-git-')));
  const bin = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-logged-git-bin-')));
  const calls = path.join(bin, 'calls.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
  const git = (...args: string[]): string => execFileSync(realGit, ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: project, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(project, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'a');
  await waitPastTick(project); // what was read is kept only for refs older than a tick
  return {
    project,
    git,
    count: (subcommand) => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter((line) => line.includes(subcommand)).length : 0),
    reset: () => rmSync(calls, { force: true }),
    onPath: () => {
      const saved = process.env.PATH;
      process.env.PATH = `${bin}:${saved}`;
      return () => {
        process.env.PATH = saved;
      };
    },
    remove: async () => {
      await rm(project, { recursive: true, force: true });
      await rm(bin, { recursive: true, force: true });
    },
  };
}
