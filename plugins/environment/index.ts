/**
 * The per-run environment block (U3, K3): working directory, platform, date, git branch and
 * short status. It goes after the cache breakpoint and is rebuilt for every request; git is
 * started at boot, concurrently with the rest of start-up, and re-read once per run (iteration 1)
 * rather than per request, so the gap between turns holds no `git` process.
 */
import { definePlugin } from '../../types/plugin.js';
import { readGitSummary, type GitSummary } from './git-status.js';

const NAME = 'environment';

/** The user's calendar date (local time zone), not UTC: "today" is the user's today. */
export function localDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function renderEnvironment(cwd: string, now: Date, git: GitSummary | undefined): string {
  const lines = [
    '# Environment',
    `Working directory: ${cwd}`,
    `Platform: ${process.platform} (${process.arch})`,
    `Today's date: ${localDate(now)}`,
  ];
  if (!git) lines.push('Git: not a git repository');
  else if (git.skipped) lines.push(`Git: status not read (${git.skipped})`);
  else {
    lines.push(`Git branch: ${git.branch}`);
    if (git.status.length === 0) lines.push('Git status: clean');
    else {
      lines.push('Git status (short):', ...git.status.map((l) => `  ${l}`));
      if (git.more > 0) lines.push(`  … and ${git.more} more changed paths`);
    }
  }
  return lines.join('\n');
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  apply(kernel) {
    let pending: Promise<GitSummary | undefined> | undefined = readGitSummary(kernel.projectRoot);
    let last: GitSummary | undefined;
    kernel.hooks.buildEnvironment.tapPromise(NAME, async (parts, context) => {
      if (pending || context.iteration === 1) {
        last = await (pending ?? readGitSummary(context.projectRoot));
        pending = undefined;
      }
      return [...parts, renderEnvironment(context.projectRoot, new Date(), last)];
    });
  },
});
