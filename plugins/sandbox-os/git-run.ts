/**
 * The host's git, run by the git sweep on a repository a sandboxed command could write (to list an
 * index it cannot read itself, or to clear what it found there): with no hook, no fsmonitor, no
 * pager, no optional lock, no transport and no prompt (hostGitEnv: PATH without the project's own
 * entries), the git directory and work tree named explicitly (no discovery, nothing from the
 * environment pointing elsewhere), and a time limit. What the repository's own configuration names
 * is not run: the project's `.git/config` is read-only to commands, and a nested one a command
 * wrote is judged by the sweep before git is run there.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { hostGitEnv } from '../../types/host-path.js';
import { isText } from './byte-names.js';

/** Flags that keep the git run here from running anything the repository names. */
export const SAFE_GIT_FLAGS = ['--no-pager', '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '--no-optional-locks'];
export const GIT_TIMEOUT_MS = 10_000;

export type GitRun = { ok: true } | { ok: false; why: string };

/**
 * Runs `git <args>` on `gitDir` (its own index) with `workTree` as work tree and cwd, writing
 * `input` to its standard input and handing its output to `onData` as it comes.
 */
export function runHostGit(gitDir: string, workTree: string, args: readonly string[], options: { input?: Buffer; onData?: (chunk: Buffer) => void } = {}): Promise<GitRun> {
  // A process's arguments and variables are passed on as UTF-8: a path that is not cannot be named to git.
  if (!isText(gitDir) || !isText(workTree)) return Promise.resolve({ ok: false, why: 'git cannot be pointed at a path that is not UTF-8' });
  const env: NodeJS.ProcessEnv = { ...hostGitEnv(workTree), GIT_INDEX_FILE: path.join(gitDir, 'index'), GIT_OPTIONAL_LOCKS: '0' };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT']) delete env[name];
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: GitRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn('git', [...SAFE_GIT_FLAGS, '--git-dir', gitDir, '--work-tree', workTree, ...args], { cwd: workTree, env, stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ ok: false, why: `no answer in ${GIT_TIMEOUT_MS / 1000} s` });
    }, GIT_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => options.onData?.(chunk));
    if (options.input && child.stdin) {
      child.stdin.on('error', () => undefined); // git exiting early closes the pipe: its exit code says why
      child.stdin.end(options.input);
    }
    child.on('error', (error) => done({ ok: false, why: (error as NodeJS.ErrnoException).code ?? error.message }));
    child.on('close', (code, signal) => done(code === 0 ? { ok: true } : { ok: false, why: code !== null ? `it exited with ${code}` : `it was ended by ${signal}` }));
  });
}

/** The output of `git <args>` run as runHostGit runs it, or why there is none. */
export async function gitOutput(gitDir: string, workTree: string, args: readonly string[], input?: Buffer): Promise<Buffer | { why: string }> {
  const chunks: Buffer[] = [];
  const run = await runHostGit(gitDir, workTree, args, { ...(input ? { input } : {}), onData: (chunk) => chunks.push(chunk) });
  return run.ok ? Buffer.concat(chunks) : { why: run.why };
}
