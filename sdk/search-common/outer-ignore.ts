/**
 * The ignore rules that reach the project from its repository, outside the project's own tree:
 * what git (and ripgrep) apply to a package of a monorepo opened on its own.
 *
 * - The repository is the nearest directory, the project root or one of its parents, holding a
 *   `.git` (a directory, or a file as in worktrees and submodules): the project's own when it
 *   has one, and then nothing above it counts.
 * - Its `.git/info/exclude`, then the `.gitignore` of every directory from its top down to the
 *   project root's parent, shallowest first (lowest precedence first), each rewritten relative to
 *   the project root (ignore-rebase.ts). Only `.gitignore`: the `.ignore` and `.rgignore` files of
 *   parents are not read, nor anything above the repository's top, nor `core.excludesFile`.
 * - A home directory kept in git (dotfiles with a `*` rule) must not hide the projects under it:
 *   when that repository is the home directory or contains it, no rule from above the project is
 *   read. (Plain `rg` hides such a project entirely.) Without a repository around the project,
 *   no parent's `.gitignore` is read either (git and ripgrep do not read them without one).
 *
 * These rules rank below every ignore file inside the project and hold in the whole project,
 * nested repositories included: ripgrep can only be given them as one `--ignore-file`, which
 * applies everywhere, and the walker does the same so that both engines agree.
 */
import { lstatSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readFileExact } from './exact-open.js';
import { isPathStrictlyWithin } from '../../types/path-within.js';
import { readGitIgnoreFile } from '../../types/small-file.js';
import { rebaseFromAncestor } from './ignore-rebase.js';
import { commonDirOf, gitDirOfWorkTree } from '../git-config-paths.js';

/** The outer rules as lines relative to `root` (a real path), lowest precedence first. */
export function outerIgnoreLines(root: string, homeDir: string = os.homedir()): string[] {
  const top = repositoryTop(root, homeDir);
  if (top === undefined) return [];
  const below = path.relative(top, root).split(path.sep).filter((part) => part !== '');
  const lines: string[] = [];
  const exclude = excludeText(top);
  if (exclude !== undefined) lines.push(...rebaseFromAncestor(exclude, below));
  for (let depth = 0; depth < below.length; depth++) {
    const file = path.join(top, ...below.slice(0, depth), '.gitignore');
    let text: string;
    try {
      text = readFileExact(file, file);
    } catch {
      continue; // absent, a link, or not a plain file
    }
    lines.push(...rebaseFromAncestor(text, below.slice(depth)));
  }
  return lines;
}

/**
 * The top of the repository whose rules reach `root`: `root` itself when it holds a `.git`, else
 * the nearest parent that does, unless that parent is the home directory or above it.
 */
function repositoryTop(root: string, homeDir: string): string | undefined {
  if (existsNoFollow(path.join(root, '.git'))) return root;
  const home = realOr(homeDir);
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    // At the home directory or above it, any repository found holds the home directory.
    if (dir === home || isPathStrictlyWithin(dir, home)) return undefined;
    if (existsNoFollow(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function realOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Whether anything (a link included, not followed) is at `file`. */
export function existsNoFollow(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The text of `.git/info/exclude` of the repository whose top is `top`, also through a `.git` file (worktrees, submodules). */
export function excludeText(top: string): string | undefined {
  const own = gitDirOfWorkTree(top);
  if (own === undefined) return undefined;
  // A linked worktree's exclude is its common directory's.
  const gitDir = commonDirOf(own);
  try {
    // `.git/info/exclude` may legitimately live elsewhere (a worktree's gitdir): read through
    // links, but never a FIFO, a device or a huge file (readGitIgnoreFile: read as ripgrep reads an ignore file).
    return readGitIgnoreFile(path.join(gitDir, 'info', 'exclude'));
  } catch {
    return undefined;
  }
}
