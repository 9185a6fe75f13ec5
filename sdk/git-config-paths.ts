/**
 * Files and directories a repository's git configuration makes git read or run from: the files
 * it includes (`include.path`, `includeIf.*.path`, followed), the hooks directory
 * (`core.hooksPath`), and the programs it names by a path (PROGRAM_KEYS: an fsmonitor, a clean or
 * smudge filter, a diff or merge driver, an editor, a pager, a `!` alias…). When one of them lies
 * inside the project, writing it is as good as writing `.git/config` or `.git/hooks` (husky's
 * `core.hooksPath = .husky/_` and the hooks above it, a team's `include.path =
 * ../team.gitconfig`, `filter.x.clean = ./tools/clean.sh`, which the user's next `git status`
 * runs), so the sandbox and the rules layer protect them like those. Shared by sandbox-os and
 * permission-rules.
 *
 * The configuration files read are the ones git reads (configFiles: the system's, the user's,
 * the repository's common `config` and the worktree's `config.worktree`), read as git reads them
 * (git-config-syntax.ts). A file git refuses is read up to the line it refuses, as git does
 * before it stops: git runs nothing of such a configuration. A program value counts with every
 * word given as a path and the module of Python's `-m` (programPaths).
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
import { gitHookInputs, runsProjectCode, type HookInputs } from './git-hook-inputs.js';
import { atTheTop, commandPaths } from './command-paths.js';

export { parseGitConfig } from './git-config-syntax.js';

/** How deep includes are followed (git stops at 10). */
const MAX_INCLUDE_DEPTH = 10;

/**
 * Keys (lower-cased, as git-config-syntax.ts gives them) whose value is a command git runs through
 * the shell from the work tree's top: its first word, when it is a path (a bare name is looked up on
 * PATH), is a program the user's ordinary git commands start.
 */
const PROGRAM_KEYS =
  /^(?:core\.(?:fsmonitor|editor|pager|sshcommand|askpass|gitproxy|alternaterefscommand)|sequence\.editor|gpg\.(?:[^.]+\.)?program|gpg\.ssh\.defaultkeycommand|credential\.(?:.+\.)?helper|interactive\.difffilter|pager\..+|alias\..+|filter\..+\.(?:clean|smudge|process)|diff\.external|diff\..+\.(?:textconv|command)|merge\..+\.driver|(?:diff|merge)tool\..+\.(?:cmd|path)|remote\..+\.(?:uploadpack|receivepack|vcs)|submodule\..+\.update|gc\.recentobjectshook|uploadpack\.packobjectshook|trailer\..+\.(?:cmd|command)|sendemail\.(?:.+\.)?(?:smtpserver|tocmd|cccmd|headercmd|sendmailcmd)|imap\.tunnel|(?:browser|man)\..+\.(?:cmd|path)|web\.browser|lfs\.extension\..+\.(?:clean|smudge)|lfs\.customtransfer\..+\.path)$/;
/** Values of core.fsmonitor that switch it on or off rather than name a program. */
const BOOLEAN = /^(?:true|false|yes|no|on|off|1|0)$/i;

/**
 * Whether a configuration entry makes git run a program (PROGRAM_KEYS, a `!` alias), read more
 * configuration or hooks from a path (includes, `core.hooksPath`), check files out elsewhere
 * (`core.worktree`) or reach a transport or URL rewrite that may run one (`protocol.*`, `url.*`).
 */
export function runsOrRedirects(key: string, value: string): boolean {
  if (key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))) return true;
  if (key === 'core.hookspath' || key === 'core.worktree' || key.startsWith('protocol.') || key.startsWith('url.')) return true;
  if (!PROGRAM_KEYS.test(key)) return false;
  if (key === 'core.fsmonitor' && BOOLEAN.test(value)) return false;
  return !(key.startsWith('alias.') && !value.trimStart().startsWith('!'));
}


/**
 * What a command value runs from the project, relative to the work tree's top, read as a shell
 * reads it (command-paths.ts): the program given as a path, the script an interpreter is handed
 * (`sh tools/clean.sh`, `node ./x.mjs`, inside `sh -c '…'`, after a `cd`), what it preloads, and
 * for Python's `-m <module>` the module's files where Python looks first, the work tree's top
 * (`python3 -m nbstripout` imports `./nbstripout.py` ahead of the installed one). Only files:
 * what a program is merely handed (`eslint src/`) is not code it runs.
 */
function programPaths(given: string, homeDir: string): string[] {
  return commandPaths(atTheTop(given).replace(/^!\s*/, '')).map((file) => expandTilde(file, homeDir));
}

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
  /** The files and folders the configuration names (includes, the hooks directory): protected like `.git/config`, blocked while missing. */
  named: string[];
  /**
   * The programs it names by a path (PROGRAM_KEYS): protected as what a hook names is (present:
   * read-only; missing or a link: checked after a command), since a missing one may be a tool not
   * installed yet (`./node_modules/.bin/…`), whose folder must stay makeable.
   */
  programs: string[];
  /** What the installed hooks read or run (git-hook-inputs.ts): protected when present, watched while missing. */
  hookInputs: HookInputs;
  /**
   * The programs it names that run the project's own code (`npx npm-merge-driver`: a package
   * runner takes the project's `node_modules/.bin` first), as `key (words…)`: said to the user,
   * as hooks that do are (installs must write node_modules).
   */
  programsRunningProjectCode: string[];
  /** The hooks directories read (for the cache). */
  hooksDirs: string[];
}

/**
 * The absolute paths the configuration of `gitDir` names (included files, the hooks directory, an
 * fsmonitor program), each resolved as git resolves it, and what the hooks installed there read
 * or run. Unreadable files are skipped.
 */
export function gitNamedPaths(input: GitNamedPathsInput): string[] {
  return allNamed(gitNamedParts(input));
}

const allNamed = (parts: GitNamedParts): string[] => [...new Set([...parts.named, ...parts.programs, ...parts.hookInputs.paths])];

export function gitNamedParts(input: GitNamedPathsInput): GitNamedParts {
  const found = new Set<string>();
  const programs = new Set<string>();
  const projectCode: string[] = [];
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
      } else if (PROGRAM_KEYS.test(key) && !(key === 'core.fsmonitor' && BOOLEAN.test(value))) {
        // An alias without `!` is a git subcommand, not a program.
        if (key.startsWith('alias.') && !value.trimStart().startsWith('!')) continue;
        for (const program of programPaths(value, input.homeDir)) programs.add(path.resolve(input.workTree, program));
        const runs = runsProjectCode(value);
        if (runs !== undefined) projectCode.push(`${key} (${runs}…)`);
      }
    }
  };
  const commonDir = commonDirOf(input.gitDir);
  for (const file of configFiles(input)) visit(file, 0);
  // Without core.hooksPath git runs the common directory's `hooks` (a linked worktree's are its
  // main repository's); with it, only that directory (any of the values found: which one wins
  // depends on files git reads that are not read here).
  if (hooksDirs.length === 0) hooksDirs.push(path.join(commonDir, 'hooks'));
  return { named: [...found], programs: [...programs], hookInputs: gitHookInputs(hooksDirs, input.workTree, commonDir), hooksDirs, programsRunningProjectCode: projectCode };
}

/**
 * The configuration files git reads for the repository at `gitDir`, as git picks them: the
 * system file (`GIT_CONFIG_SYSTEM`, else /etc/gitconfig; none under `GIT_CONFIG_NOSYSTEM`), the
 * user's (`GIT_CONFIG_GLOBAL`, else `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config`), the
 * repository's (`config` in its common directory: a linked worktree's is its main repository's)
 * and the worktree's `config.worktree`. Taken from this process's environment, which the user's
 * own git commands in this terminal share.
 */
function configFiles(input: GitNamedPathsInput): string[] {
  const env = process.env;
  const system = truthy(env.GIT_CONFIG_NOSYSTEM) ? [] : [env.GIT_CONFIG_SYSTEM || '/etc/gitconfig'];
  const xdg = input.xdgConfigHome && path.isAbsolute(input.xdgConfigHome) ? input.xdgConfigHome : path.join(input.homeDir, '.config');
  const global = env.GIT_CONFIG_GLOBAL ? [expandTilde(env.GIT_CONFIG_GLOBAL, input.homeDir)] : [path.join(input.homeDir, '.gitconfig'), path.join(xdg, 'git', 'config')];
  const local = [...new Set([path.join(commonDirOf(input.gitDir), 'config'), path.join(input.gitDir, 'config')])];
  return [...system, ...global, ...local, path.join(input.gitDir, 'config.worktree')];
}

/** git's boolean spelling of true (an empty value is false). */
const truthy = (value: string | undefined): boolean => value !== undefined && /^(?:1|true|yes|on)$/i.test(value.trim());

/**
 * The repository git works in from `dir`: the nearest folder, `dir` itself or above it, holding a
 * `.git` directory or a `.git` file naming one (a linked worktree, a submodule's checkout), as
 * git's own search finds it. The project may be a subfolder of the repository; what its
 * configuration names is then taken from the repository's top.
 */
export function repositoryOf(dir: string): { gitDir: string; workTree: string } | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const gitDir = gitDirOfWorkTree(at);
    if (gitDir !== undefined) return { gitDir, workTree: at };
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * The git directory of the work tree `workTree`: its `.git` directory, or the directory its `.git`
 * file names (`gitdir: <path>`, relative to the work tree; line ends dropped from the end, the path
 * ending at a NUL, as git reads it). Undefined when there is none.
 */
export function gitDirOfWorkTree(workTree: string): string | undefined {
  const dotGit = path.join(workTree, '.git');
  try {
    const info = statSync(dotGit);
    if (info.isDirectory()) return dotGit;
    if (!info.isFile()) return undefined;
    const text = readGitFile(dotGit).replace(/[\r\n]+$/, '');
    if (!text.startsWith('gitdir: ')) return undefined;
    const pointer = text.slice('gitdir: '.length).split('\0')[0]!;
    const gitDir = path.resolve(workTree, pointer);
    return pointer !== '' && statSync(gitDir).isDirectory() ? gitDir : undefined;
  } catch {
    return undefined;
  }
}

/** Where `commondir` points (a linked worktree's or a `.git` directory's), else the git directory itself. */
export function commonDirOf(gitDir: string): string {
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
  return allNamed(gitNamedPartsCached(input));
}

/**
 * gitNamedParts, cached until one of the configuration files read changes (by size and mtime),
 * a file they include, a hooks directory, a hook file read or the work tree's top folder (where
 * a manager's configuration is made) does.
 */
export function gitNamedPartsCached(input: GitNamedPathsInput): GitNamedParts {
  const configs = configFiles(input);
  const key = `${input.gitDir}\u0000${input.workTree}\u0000${configs.join('\u0000')}`;
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
  const fullStamp = (parts: GitNamedParts): string => `${configStamp}#${stampOf([input.workTree, ...parts.named, ...parts.hooksDirs, ...parts.hooksDirs.map((dir) => path.dirname(dir)), ...parts.hookInputs.read])}`;
  if (hit && hit.stamp === fullStamp(hit.parts)) return hit.parts;
  const parts = gitNamedParts(input);
  // One entry per repository: the project's, and each nested one the sandbox's sweep judges.
  if (cache.size > 256) cache.clear();
  cache.set(key, { stamp: fullStamp(parts), parts });
  return parts;
}
