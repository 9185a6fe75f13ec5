/** Branch and short status for the environment block; one `git` process, never blocking on locks. */
import { execFile } from 'node:child_process';
import { SAFE_GIT_FLAGS, gitStatusRisk } from './git-safety.js';

export const MAX_STATUS_LINES = 20;
const GIT_TIMEOUT_MS = 3_000;

export interface GitSummary {
  branch: string;
  status: string[];
  more: number;
  /** Set when status was not read because the repository's config would run commands. */
  skipped?: string;
}

export async function readGitSummary(cwd: string): Promise<GitSummary | undefined> {
  const risk = await gitStatusRisk(cwd);
  if (risk) return { branch: 'unknown', status: [], more: 0, skipped: risk };
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFE_GIT_FLAGS, 'status', '--porcelain=v1', '--branch', '--ignore-submodules=all'],
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout) => {
        if (error) return resolve(undefined);
        const lines = stdout.split('\n').filter((l) => l.length > 0);
        const header = lines.shift() ?? '';
        resolve({ branch: parseBranch(header), status: lines.slice(0, MAX_STATUS_LINES), more: Math.max(0, lines.length - MAX_STATUS_LINES) });
      },
    );
  });
}

function parseBranch(header: string): string {
  // "## main...origin/main [ahead 1]" | "## No commits yet on main" | "## HEAD (no branch)"
  const text = header.replace(/^## /, '');
  const noCommits = /^No commits yet on (.+)$/.exec(text);
  if (noCommits) return `${noCommits[1]} (no commits yet)`;
  return text.split('...')[0]?.split(' ')[0] ?? text;
}
