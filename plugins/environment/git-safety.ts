/**
 * Whether `git status` may run in this repository. git reads the repository's own configuration
 * (`.git/config`, `config.worktree`, and what they include), which a downloaded archive, a nested
 * repository or an earlier tool call can fill with settings that make a plain `git status` run
 * commands: `core.fsmonitor`, clean/smudge/process `filter.*` drivers (run to compare
 * racily-modified files), and the like. fsmonitor and hooks are switched off on the command
 * line; for the rest git itself is asked what its repository-level configuration holds
 * (`git config --show-scope --includes` with `--get-regexp` of the risky keys, or `--list`: it
 * only reads, finds the repository the way status will — from a subdirectory, through a `.git`
 * file, with worktree config — and is bounded by a timeout), and status is skipped when any of it
 * could run a program. git-status.ts runs the check and status in one shell.
 */
import { execFile } from 'node:child_process';
import { hostGitEnv } from '../../types/host-path.js';

/** Flags that keep `git status` from running repository-configured programs it does not need. */
export const SAFE_GIT_FLAGS = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '--no-optional-locks'] as const;

const GIT_TIMEOUT_MS = 3_000;

/**
 * Keys (lower-cased, as git prints them) whose value is a program or pulls in more configuration,
 * or that make a status fetch (a partial clone's promisor remote runs its `uploadpack`; the
 * environment refuses every transport as well, hostGitEnv). Git LFS's own program keys count too:
 * the user's global `filter.lfs.process` (from `git lfs install`) runs, at a status that re-hashes
 * an LFS file, every `lfs.extension.<name>.clean` the repository's configuration names.
 * One source for both matchers: the JavaScript one here and git's own (`--get-regexp`, a POSIX
 * extended regular expression, which this pattern also is).
 */
export const RISKY_KEY_PATTERN =
  '^(filter\\..+\\.(clean|smudge|process)|core\\.(fsmonitor|hookspath|pager|sshcommand|askpass|gitproxy)|diff\\..+\\.(textconv|command)|extensions\\.partialclone|remote\\..+\\.(promisor|uploadpack|vcs)|lfs\\.(extension\\..+\\.(clean|smudge)|customtransfer\\..+\\.(path|args)))$';
const RISKY_KEY = new RegExp(RISKY_KEY_PATTERN);

/** Scopes the repository controls; `global`/`system` are the user's and `command` is ours. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

/** undefined when status is safe to run (or there is no repository); otherwise why not. */
export function gitStatusRisk(cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFE_GIT_FLAGS, 'config', '--list', '--show-scope', '--includes', '-z'],
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, env: hostGitEnv(cwd) },
      (error, stdout) => {
        // Outside a repository git still lists the user's own scopes and exits 0; a failure here
        // (timeout, unreadable config) means status cannot be trusted to be harmless either.
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(undefined); // no git: status fails on its own
        if (error) return resolve(`git could not list the repository's configuration (${error.killed ? 'timed out' : error.message.split('\n')[0]})`);
        resolve(riskIn(stdout));
      },
    );
  });
}

/** `-z` output with `--show-scope`: `scope NUL key LF value NUL`, repeated. */
export function riskIn(listing: string): string | undefined {
  const fields = listing.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const risk = riskOf(fields[i] ?? '', (fields[i + 1] ?? '').split('\n')[0] ?? '');
    if (risk) return risk;
  }
  return undefined;
}

/** `--show-scope --name-only` output: `scope TAB key`, one per line. */
export function riskInNames(listing: string): string | undefined {
  for (const line of listing.split('\n')) {
    const tab = line.indexOf('\t');
    const risk = tab > 0 ? riskOf(line.slice(0, tab), line.slice(tab + 1)) : undefined;
    if (risk) return risk;
  }
  return undefined;
}

function riskOf(scope: string, rawKey: string): string | undefined {
  const key = rawKey.toLowerCase();
  return REPOSITORY_SCOPES.has(scope) && RISKY_KEY.test(key) ? `the repository's ${scope} config sets ${key}, which would run commands` : undefined;
}
