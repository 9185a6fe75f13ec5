/** Branch and short status for the environment block; one `git` process, never blocking on locks. */
import { execFile } from 'node:child_process';

export const MAX_STATUS_LINES = 20;
const GIT_TIMEOUT_MS = 3_000;

export interface GitSummary {
  branch: string;
  status: string[];
  more: number;
}

export function readGitSummary(cwd: string): Promise<GitSummary | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['--no-optional-locks', 'status', '--porcelain=v1', '--branch'],
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
