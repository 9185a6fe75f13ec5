/**
 * Branch and short status for the environment block, never blocking on locks and never running
 * what the repository's configuration names (git-safety.ts).
 *
 * One process from MewCode: a POSIX shell asks git whether the repository-level configuration
 * sets a key that would run a program and, only when it does not, replaces itself with
 * `git status`. Starting a process stops MewCode's only thread for ≈ 4 ms (fork and exec) on the
 * machines we measure, so two (the check, then status) cost start-up twice that. Where there is
 * no `/bin/sh`, the check and status run as two git processes, in the same order.
 */
import { execFile, type ExecFileException } from 'node:child_process';
import { hostGitEnv } from '../../types/host-path.js';
import { RISKY_KEY_PATTERN, SAFE_GIT_FLAGS, gitStatusRisk, riskInNames } from './git-safety.js';

export const MAX_STATUS_LINES = 20;
const GIT_TIMEOUT_MS = 3_000;
const MAX_OUTPUT = 4 * 1024 * 1024;

export interface GitSummary {
  branch: string;
  status: string[];
  more: number;
  /** Set when status was not read because the repository's config would run commands. */
  skipped?: string;
}

const STATUS_ARGS = ['status', '--porcelain=v1', '--branch', '--ignore-submodules=all'] as const;

/** The first line the shell prints says how the check went; status output (if any) follows. */
const SAFE = 'mewcode-git: safe';
const RISKY = 'mewcode-git: risky';
const CHECK_FAILED = 'mewcode-git: check failed';

/**
 * $1 the risky-key pattern, the rest git's safety flags. `git config --get-regexp` exits 1 when
 * nothing matches and above 1 when it cannot read the configuration; 127 is the shell's "no git".
 * A match in the `local` or `worktree` scope is the repository's; `global`, `system` and
 * `command` (our own flags) are not. The script's variables have names of their own: a shell
 * exports one that came from the environment, and git gets the environment as it was.
 */
const CHECK_THEN_STATUS = `mewcode_pattern=$1; shift
mewcode_names=$(git "$@" config --show-scope --includes --name-only --get-regexp "$mewcode_pattern")
mewcode_code=$?
if [ "$mewcode_code" -eq 127 ]; then exit 127; fi
if [ "$mewcode_code" -gt 1 ]; then echo "${CHECK_FAILED} $mewcode_code"; exit 0; fi
case "
$mewcode_names" in *"
local	"*|*"
worktree	"*) echo "${RISKY}"; printf '%s\\n' "$mewcode_names"; exit 0;; esac
echo "${SAFE}"
exec git "$@" ${STATUS_ARGS.join(' ')}`;

export async function readGitSummary(cwd: string): Promise<GitSummary | undefined> {
  if (process.platform === 'win32') return readInTwoSteps(cwd);
  const answer = await run('/bin/sh', ['-c', CHECK_THEN_STATUS, 'mewcode-git', RISKY_KEY_PATTERN, ...SAFE_GIT_FLAGS], cwd, 2 * GIT_TIMEOUT_MS);
  if (answer.error?.code === 'ENOENT') return readInTwoSteps(cwd); // no /bin/sh
  const newline = answer.stdout.indexOf('\n');
  const first = newline < 0 ? answer.stdout : answer.stdout.slice(0, newline);
  const rest = newline < 0 ? '' : answer.stdout.slice(newline + 1);
  if (first === RISKY) return skipped(riskInNames(rest) ?? "the repository's config sets a key that would run commands");
  if (first.startsWith(CHECK_FAILED)) return skipped(`git could not list the repository's configuration (exit ${first.slice(CHECK_FAILED.length).trim()})`);
  if (first !== SAFE) {
    // No verdict line: git is missing (127), or the check itself was stopped.
    return answer.error?.killed ? skipped("git could not list the repository's configuration (timed out)") : undefined;
  }
  return answer.error ? undefined : summaryOf(rest); // status failed: not a repository, or timed out
}

/** The same check and status as two git processes (no POSIX shell here). Exported for tests. */
export async function readInTwoSteps(cwd: string): Promise<GitSummary | undefined> {
  const risk = await gitStatusRisk(cwd);
  if (risk) return skipped(risk);
  const answer = await run('git', [...SAFE_GIT_FLAGS, ...STATUS_ARGS], cwd, GIT_TIMEOUT_MS);
  return answer.error ? undefined : summaryOf(answer.stdout);
}

interface RunAnswer {
  stdout: string;
  error: ExecFileException | null;
}

function run(file: string, args: readonly string[], cwd: string, timeout: number): Promise<RunAnswer> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout, maxBuffer: MAX_OUTPUT, env: hostGitEnv(cwd) }, (error, stdout) => resolve({ stdout, error }));
  });
}

function skipped(reason: string): GitSummary {
  return { branch: 'unknown', status: [], more: 0, skipped: reason };
}

function summaryOf(stdout: string): GitSummary {
  const lines = stdout.split('\n').filter((l) => l.length > 0);
  const header = lines.shift() ?? '';
  return { branch: parseBranch(header), status: lines.slice(0, MAX_STATUS_LINES), more: Math.max(0, lines.length - MAX_STATUS_LINES) };
}

function parseBranch(header: string): string {
  // "## main...origin/main [ahead 1]" | "## No commits yet on main" | "## HEAD (no branch)"
  const text = header.replace(/^## /, '');
  const noCommits = /^No commits yet on (.+)$/.exec(text);
  if (noCommits) return `${noCommits[1]} (no commits yet)`;
  return text.split('...')[0]?.split(' ')[0] ?? text;
}
