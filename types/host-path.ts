/**
 * PATH for the programs MewCode itself starts on the host in the project (git for the environment
 * block and the trust check, ripgrep for the search tools, the user's hooks): only its absolute
 * entries outside the project. A relative entry (`node_modules/.bin`, `bin`, or an empty one,
 * which means the current directory) would find those programs in the project, where a repository
 * can plant its own `git` or `rg`; so would an absolute one inside it (direnv's `PATH_add
 * node_modules/.bin`, `$PWD/node_modules/.bin` in a shell's rc file).
 */
import { realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPathWithin } from './path-within.js';

/**
 * `projects`: directories no entry may lie in (default: the one MewCode was started in). The git
 * work tree around each counts too (started in `repo/src`, direnv's entry is `repo/node_modules/.bin`),
 * unless it holds the home directory (a dotfiles repository would take `~/.local/bin` with it).
 */
export function absolutePathEntries(envPath: string | undefined = process.env.PATH, projects: readonly string[] = [process.cwd()]): string {
  const roots = projects.map(real);
  for (const root of [...roots]) {
    const tree = enclosingWorkTree(root);
    if (tree !== undefined && !roots.includes(tree)) roots.push(tree);
  }
  return (envPath ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && path.isAbsolute(dir) && !roots.some((root) => isPathWithin(root, real(dir))))
    .join(path.delimiter);
}

/** The real path (a link-spelled entry is judged where it leads), or the path as given. */
function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * The git work tree around `dir`: the nearest directory at or above it holding a `.git`
 * directory, passing over `.git` files (a submodule sits inside its superproject, whose tree
 * counts too), unless the home directory lies in it.
 */
function enclosingWorkTree(dir: string): string | undefined {
  const home = real(os.homedir());
  let found: string | undefined;
  for (let current = dir; ; current = path.dirname(current)) {
    if (isPathWithin(current, home)) return found;
    const dotGit = statSync(path.join(current, '.git'), { throwIfNoEntry: false });
    if (dotGit) found = current;
    if (dotGit?.isDirectory() || path.dirname(current) === current) return found;
  }
}

/** `process.env` with PATH reduced to its absolute entries outside `projects` (see absolutePathEntries). */
export function hostProgramEnv(extra: NodeJS.ProcessEnv = {}, projects?: readonly string[]): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, PATH: absolutePathEntries(process.env.PATH, projects) };
}

/**
 * The environment of a git MewCode runs on the host to read a repository (status, config, the
 * index): PATH's absolute entries, no prompt, and no transport at all. A repository can make a
 * plain `git status` fetch: a partial clone's missing object is fetched from its promisor remote,
 * and for a local-path remote git runs `remote.<name>.uploadpack` through the shell (an http one
 * makes the host send a request). `GIT_ALLOW_PROTOCOL`, unlike `protocol.allow`, cannot be
 * loosened by the repository's own config; `GIT_NO_LAZY_FETCH` (git ≥ 2.44) says the same twice.
 */
export function hostGitEnv(project: string): NodeJS.ProcessEnv {
  return hostProgramEnv({ GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: 'none', GIT_NO_LAZY_FETCH: '1' }, [project, process.cwd()]);
}

/**
 * The environment of MewCode's own helper shells (the sandbox's watchdog, the process reaper):
 * system programs only (`cat`, `sleep`, `rmdir`, `kill`), never the user's PATH, and nothing else
 * they would not need. They run on the host for the whole session; the user's PATH may lead into
 * the project.
 */
export const SYSTEM_PROGRAMS_ENV: Readonly<NodeJS.ProcessEnv> = Object.freeze({ PATH: '/usr/bin:/bin', LC_ALL: 'C' });
