/**
 * The `git` calls that fetch marketplaces and plugins: the only network client used for them.
 * Never interactive (a credential prompt would hang the command), the `ext::` transport (which
 * runs a command) refused, and every URL passed after `--` so a catalogue cannot inject options.
 * `git` is found through PATH's absolute entries only: these run wherever MewCode was started,
 * often a repository, which could otherwise plant its own `git` in `node_modules/.bin`.
 */
import { execFile } from 'node:child_process';
import { hostProgramEnv } from '../../types/host-path.js';

const TIMEOUT_MS = 5 * 60_000;
const SAFE = ['-c', 'protocol.ext.allow=never'];

export class GitError extends Error {}

export function git(args: readonly string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...SAFE, ...args],
      { ...(cwd ? { cwd } : {}), timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: hostProgramEnv({ GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' }) },
      (error, stdout, stderr) => {
        if (error) {
          const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
          const detail = String(stderr).trim().split('\n').slice(-4).join('\n') || error.message;
          reject(new GitError(missing ? 'git is not installed (it is needed for git marketplaces and plugins)' : `git ${args.filter((a) => a !== '--').join(' ')} failed: ${detail}`));
        } else resolve(String(stdout));
      },
    );
  });
}

export async function cloneRepository(url: string, into: string, pin: { ref?: string; sha?: string } = {}): Promise<string> {
  await git(['clone', '--quiet', ...(pin.ref && !pin.sha ? ['--branch', pin.ref] : []), '--', url, into]);
  if (pin.sha) await git(['checkout', '--quiet', '--detach', pin.sha, '--'], into);
  return headCommit(into);
}

export async function headCommit(dir: string): Promise<string> {
  return (await git(['rev-parse', 'HEAD'], dir)).trim();
}

/** Brings a clone to its upstream's newest commit (the clone is MewCode's own: local changes are dropped). */
export async function pullRepository(dir: string): Promise<string> {
  await git(['fetch', '--quiet', 'origin'], dir);
  await git(['reset', '--quiet', '--hard', '@{upstream}'], dir);
  return headCommit(dir);
}
