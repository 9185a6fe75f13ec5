/**
 * Whether `git status` may run in this repository. git reads the repository's own `.git/config`,
 * which a downloaded archive, a nested repository or an earlier tool call can fill with settings
 * that make a plain `git status` run commands: `core.fsmonitor`, clean/smudge `filter.*` drivers
 * (run to compare racily-modified files), and `include`/`includeIf` of further files. fsmonitor
 * and hooks are switched off on the command line; for the rest the local config files are read
 * (no process, a few hundred bytes) and status is skipped when they name any of them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Flags that keep `git status` from running repository-configured programs it does not need. */
export const SAFE_GIT_FLAGS = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '--no-optional-locks'] as const;

/** Section headers and keys in a repository config that can make `git status` execute something. */
const RISKY = /^\s*\[\s*(filter|include|includeif)\b|^\s*(fsmonitor|hookspath|sshcommand|pager|askpass|gitproxy)\s*=/im;

/** undefined when status is safe to run; otherwise why not. */
export async function gitStatusRisk(projectRoot: string): Promise<string | undefined> {
  const gitDir = await findGitDir(projectRoot);
  if (!gitDir) return undefined; // not a repository (or git finds it higher up: its config is the user's tree)
  const files = [path.join(gitDir, 'config')];
  const common = await readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  if (common) files.push(path.join(path.resolve(gitDir, common.trim()), 'config'));
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return `${file} cannot be read`;
    }
    const hit = RISKY.exec(text);
    if (hit) return `${path.relative(projectRoot, file) || file} sets ${(hit[1] ?? hit[2] ?? '').toLowerCase()}, which would run commands`;
  }
  return undefined;
}

/** `.git` as a directory, or a `gitdir:` file (worktrees, submodules). */
async function findGitDir(projectRoot: string): Promise<string | undefined> {
  const dotGit = path.join(projectRoot, '.git');
  const pointer = await readFile(dotGit, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'EISDIR' ? '' : undefined));
  if (pointer === undefined) return undefined;
  if (pointer === '') return dotGit;
  const target = /^gitdir:\s*(.+)$/m.exec(pointer)?.[1]?.trim();
  return target ? path.resolve(projectRoot, target) : undefined;
}
