/**
 * Files and directories a repository's git configuration makes git read or run from: the files
 * it includes (`include.path`, `includeIf.*.path`, followed), the hooks directory
 * (`core.hooksPath`) and an fsmonitor program given as a path (`core.fsmonitor`). When one of
 * them lies inside the project, writing it is as good as writing `.git/config` or `.git/hooks`
 * (husky's `core.hooksPath = .husky/_` and the hooks above it, a team's `include.path =
 * ../team.gitconfig`), so the sandbox and the rules layer protect them like those. Shared by
 * sandbox-os and permission-rules.
 *
 * The configuration files read are the user's and the repository's own (`~/.gitconfig`,
 * `$XDG_CONFIG_HOME/git/config`, `<gitdir>/config`, `<gitdir>/config.worktree`), read as git
 * reads them (git-config-syntax.ts). A file git refuses is read up to the line it refuses, as git
 * does before it stops: git runs nothing of such a configuration.
 *
 * The hooks installed in the effective hooks directory add what they read and run
 * (git-hook-inputs.ts: a hook manager's configuration, a program a stub names by path): those are
 * `hookInputs`, kept apart because a missing one must not get a mount point (lefthook fails on a
 * `lefthook-local.yml` that is a directory), so the sandbox checks after a command that none was made.
 */
import { statSync } from 'node:fs';
import { readGitFile } from '../types/small-file.js';
import path from 'node:path';
import { readGitConfig } from './git-config-syntax.js';
import { gitHookInputs, type HookInputs } from './git-hook-inputs.js';

export { parseGitConfig } from './git-config-syntax.js';

/** How deep includes are followed (git stops at 10). */
const MAX_INCLUDE_DEPTH = 10;

function expandTilde(value: string, homeDir: string): string {
  return value === '~' || value.startsWith('~/') ? path.join(homeDir, value.slice(1)) : value;
}

function readText(file: string): string | undefined {
  try {
    return readGitFile(file);
  } catch {
    return undefined;
  }
}

export interface GitNamedPathsInput {
  /** The repository's git directory (`<root>/.git`). */
  gitDir: string;
  /** Its working tree (the project root): relative hooks paths and fsmonitor programs are taken from there. */
  workTree: string;
  homeDir: string;
  /** XDG_CONFIG_HOME, when set. */
  xdgConfigHome?: string;
}

export interface GitNamedParts {
  /** What the configuration names: protected like `.git/config`, blocked while missing. */
  named: string[];
  /** What the installed hooks read or run (git-hook-inputs.ts): protected when present, watched while missing. */
  hookInputs: HookInputs;
  /** The hooks directories read (for the cache). */
  hooksDirs: string[];
}

/**
 * The absolute paths the configuration of `gitDir` names (included files, the hooks directory, an
 * fsmonitor program), each resolved as git resolves it, and what the hooks installed there read
 * or run. Unreadable files are skipped.
 */
export function gitNamedPaths(input: GitNamedPathsInput): string[] {
  const parts = gitNamedParts(input);
  return [...new Set([...parts.named, ...parts.hookInputs.paths])];
}

export function gitNamedParts(input: GitNamedPathsInput): GitNamedParts {
  const found = new Set<string>();
  const hooksDirs: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, depth: number): void => {
    if (depth > MAX_INCLUDE_DEPTH || seen.has(file)) return;
    seen.add(file);
    const text = readText(file);
    if (text === undefined) return;
    for (const { key, value } of readGitConfig(text).entries) {
      // A key without `=` names nothing: git takes it as "true" (fsmonitor) or refuses it (a path).
      if (value === null || value === '') continue;
      if (key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))) {
        // Relative includes are relative to the including file.
        const included = path.resolve(path.dirname(file), expandTilde(value, input.homeDir));
        found.add(included);
        visit(included, depth + 1);
      } else if (key === 'core.hookspath') {
        const hooks = path.resolve(input.workTree, expandTilde(value, input.homeDir));
        found.add(hooks);
        hooksDirs.push(hooks);
        // husky (v9) points git at `.husky/_`, whose stubs run the hook of the same name one level
        // up (`.husky/pre-commit`): those files are the hooks, so the folder above counts too.
        if (path.basename(hooks) === '_') found.add(path.dirname(hooks));
      } else if (key === 'core.fsmonitor' && !/^(?:true|false|yes|no|on|off|1|0)$/i.test(value)) {
        // A program: its first word, when it is a path (a bare name is looked up on PATH).
        const program = expandTilde(value.split(/\s+/)[0]!, input.homeDir);
        if (program.includes('/')) found.add(path.resolve(input.workTree, program));
      }
    }
  };
  const xdg = input.xdgConfigHome && path.isAbsolute(input.xdgConfigHome) ? input.xdgConfigHome : path.join(input.homeDir, '.config');
  for (const file of [path.join(input.homeDir, '.gitconfig'), path.join(xdg, 'git', 'config'), path.join(input.gitDir, 'config'), path.join(input.gitDir, 'config.worktree')]) visit(file, 0);
  // Without core.hooksPath git runs `<gitdir>/hooks`; with it, only that directory (any of the
  // values found: which one wins depends on files git reads that are not read here).
  if (hooksDirs.length === 0) hooksDirs.push(path.join(input.gitDir, 'hooks'));
  return { named: [...found], hookInputs: gitHookInputs(hooksDirs, input.workTree, commonDirOf(input.gitDir)), hooksDirs };
}

/** Where `commondir` points (a linked worktree's or a `.git` directory's), else the git directory itself. */
function commonDirOf(gitDir: string): string {
  try {
    const pointer = readGitFile(path.join(gitDir, 'commondir')).split('\n')[0]?.trim();
    return pointer ? path.resolve(gitDir, pointer) : gitDir;
  } catch {
    return gitDir;
  }
}

const cache = new Map<string, { stamp: string; parts: GitNamedParts }>();

/** gitNamedPaths, cached: see gitNamedPartsCached. */
export function gitNamedPathsCached(input: GitNamedPathsInput): string[] {
  const parts = gitNamedPartsCached(input);
  return [...new Set([...parts.named, ...parts.hookInputs.paths])];
}

/**
 * gitNamedParts, cached until one of the configuration files read changes (by size and mtime),
 * or a hooks directory, a hook file read or the work tree's top folder (where a manager's
 * configuration is made) does.
 */
export function gitNamedPartsCached(input: GitNamedPathsInput): GitNamedParts {
  const key = `${input.gitDir}\u0000${input.workTree}\u0000${input.homeDir}\u0000${input.xdgConfigHome ?? ''}`;
  const xdg = input.xdgConfigHome && path.isAbsolute(input.xdgConfigHome) ? input.xdgConfigHome : path.join(input.homeDir, '.config');
  const configs = [path.join(input.homeDir, '.gitconfig'), path.join(xdg, 'git', 'config'), path.join(input.gitDir, 'config'), path.join(input.gitDir, 'config.worktree')];
  const stampOf = (files: readonly string[]): string => files
    .map((file) => {
      try {
        const info = statSync(file);
        return `${info.size}:${info.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
  const configStamp = stampOf(configs);
  const hit = cache.get(key);
  const fullStamp = (parts: GitNamedParts): string => `${configStamp}#${stampOf([input.workTree, ...parts.hooksDirs, ...parts.hooksDirs.map((dir) => path.dirname(dir)), ...parts.hookInputs.read])}`;
  if (hit && hit.stamp === fullStamp(hit.parts)) return hit.parts;
  const parts = gitNamedParts(input);
  if (cache.size > 32) cache.clear();
  cache.set(key, { stamp: fullStamp(parts), parts });
  return parts;
}
