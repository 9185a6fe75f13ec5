/**
 * What the hooks a repository has INSTALLED read and run, beyond the hook files themselves: a
 * hook manager's stub in the hooks directory (lefthook, pre-commit, husky v4 and v9,
 * simple-git-hooks, yorkie, ghooks) runs whatever the manager's configuration lists, so writing
 * that configuration is as good as writing the hook. lefthook's `lefthook-local.yml`, which
 * lefthook asks projects to git-ignore, would run at the user's next commit without ever showing
 * in `git status`. Also a path a hook names literally (lefthook's stub names the project's
 * `node_modules/lefthook-<os>-<arch>/bin/lefthook` by absolute path or through `$dir`), a
 * lint-staged configuration when a hook runs lint-staged, and lefthook's clones of remote
 * configurations (`<common git dir>/info/lefthook-remotes/`).
 *
 * Only what a stub found on disk says is used: a project without an installed hook gets nothing
 * protected (its `lefthook.yml` is an ordinary file until the user runs `lefthook install`).
 *
 * Not covered, and said so in docs/safety.md: what a hook runs through `npx <tool>` or a
 * project script is the project's own code (node_modules, `scripts/lint.sh`), as its npm scripts
 * are; `projectCode` names such hooks so the user can be told. `package.json` keys a manager reads
 * (husky v4's `husky.hooks`, `simple-git-hooks`, `gitHooks`, `lint-staged`) are not protected:
 * package managers must write that file, and it is tracked, so a change shows in `git diff`.
 */
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { atTheTop, commandPaths } from './command-paths.js';
import { pythonModulePaths } from './python-module.js';

/** Hook files read per directory (a hooks directory holds git's ≈ 30 hook names and a manager's helpers). */
export const MAX_HOOK_FILES = 64;
/** Bytes read of each hook file (a manager's stub is 0.5–3 KiB; the rest of a larger file is not read). */
export const MAX_HOOK_BYTES = 64 * 1024;

export interface HookInputs {
  /** Absolute paths the installed hooks read or run (config files whether present or not, named programs). */
  paths: string[];
  /** Hooks that run the project's own code from node_modules, e.g. `pre-commit (npx lint-staged)`. */
  projectCode: string[];
  /** The hook files read, for a cache to notice a change. */
  read: string[];
}

const EXTENSIONS = ['yml', 'yaml', 'json', 'jsonc', 'toml'];
/** lefthook 1.x/2.x: `lefthook.yml`, `.lefthook.yml`, `.config/lefthook.yml` and the `-local` twins, any extension; script folders. */
const LEFTHOOK_CONFIG = [
  ...['', '.', '.config/'].flatMap((prefix) => ['lefthook', 'lefthook-local'].flatMap((base) => EXTENSIONS.map((ext) => `${prefix}${base}.${ext}`))),
  '.lefthook',
  '.lefthook-local',
];
const LINT_STAGED_CONFIG = [
  '.lintstagedrc',
  ...['json', 'yaml', 'yml', 'mjs', 'cjs', 'js', 'ts', 'mts', 'cts'].map((ext) => `.lintstagedrc.${ext}`),
  ...['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'].map((ext) => `lint-staged.config.${ext}`),
];
const HUSKY4_CONFIG = ['.huskyrc', '.huskyrc.json', '.huskyrc.yaml', '.huskyrc.yml', '.huskyrc.js', '.huskyrc.cjs', 'husky.config.js', 'husky.config.cjs'];
const SIMPLE_GIT_HOOKS_CONFIG = ['cjs', 'js', 'mjs', 'json'].flatMap((ext) => [`.simple-git-hooks.${ext}`, `simple-git-hooks.${ext}`]);

/** Running the project's own code: npx, a package manager's exec or script, a path into node_modules, make, a language's run or test, a build wrapper. */
const RUNS_NODE_MODULES =
  /(?:^|[\s;&|(`"'])(?:npx|bunx|pnpx)\s|\b(?:npm|pnpm)\s+exec\b|\byarn\s+(?!install\b)[\w@-]|node_modules\/|\b(?:npm|pnpm|bun)\s+(?:run|test|t|start)\b|(?:^|[\s;&|(])make\b|\b(?:uv|poetry|pipenv|pdm|hatch|go|cargo|dotnet)\s+(?:run|test)\b|\bcargo\s+(?:build|check|clippy)\b|\bgradlew\b|\bmvnw\b|(?:^|[\s;&|(])(?:tox|nox)\b/m;
/** The words of `text` that run the project's own code (RUNS_NODE_MODULES), or undefined. */
export function runsProjectCode(text: string): string | undefined {
  return RUNS_NODE_MODULES.exec(text)?.[0].trim().replace(/^["'`(;&|]/, '');
}

/**
 * Python run as `-m <module>` on a line naming Python (pre-commit's stub: `"$INSTALL_PYTHON"
 * -mpre_commit`). Hooks run at the work tree's top, which `-m` puts first on Python's module path:
 * `./pre_commit/` would be imported instead of the installed package.
 */
const PYTHON_MODULE = /\s-m\s*([A-Za-z_][\w.]*)/;

/** The modules lines naming Python run with `-m`, one match per line (linear in the text). */
function pythonModules(text: string): string[] {
  const modules: string[] = [];
  for (const line of text.split('\n')) {
    const at = line.search(/python/i);
    if (at === -1) continue;
    const module = PYTHON_MODULE.exec(line.slice(at))?.[1];
    if (module !== undefined) modules.push(module);
  }
  return modules;
}

/** The first MAX_HOOK_BYTES of a regular file (opened without blocking on a FIFO), or undefined. */
function readHead(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_HOOK_BYTES);
    let total = 0;
    while (total < buffer.length) {
      const n = readSync(fd, buffer, total, buffer.length - total, null);
      if (n === 0) break;
      total += n;
    }
    return buffer.subarray(0, total).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The hook files of `dir`: not git's `*.sample`s, sorted, at most MAX_HOOK_FILES. */
function hookFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => !name.endsWith('.sample'))
      .sort()
      .slice(0, MAX_HOOK_FILES)
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** How lefthook's stub spells the platform (`uname | tr …`, `uname -m | sed …`). */
const OS_ARCH = process.platform === 'win32' ? 'windows' : process.platform;
const CPU_ARCH = process.arch === 'x64' ? 'x64' : process.arch;

/**
 * Paths a hook text names literally: absolute ones, ones under the work tree through the
 * variable stubs set to it (`$dir`, `$root`), relative `node_modules/…` ones (hooks run at the
 * work tree's top). A path still holding a variable or a glob after that names nothing known.
 */
function literalPaths(text: string, workTree: string): string[] {
  const found: string[] = [];
  const expanded = text.replace(/\$\{?(osArch|cpuArch)\}?/g, (_, name: string) => (name === 'osArch' ? OS_ARCH : CPU_ARCH));
  // A word's start (line start, space, quote, `=`): `"$(dirname "$0")/h"` is relative, not `/h`.
  for (const match of expanded.matchAll(/(?<=^|[\s"'=])(?:\$\{?(?:dir|root|ROOT|DIR)\}?|\.\/)?(\/[^\s"'`;|&<>()\\]+|node_modules\/[^\s"'`;|&<>()\\]+)/gm)) {
    const whole = match[0];
    const tail = match[1]!;
    if (/[$*?[\]{}]/.test(tail)) continue;
    if (tail.startsWith('node_modules/')) found.push(path.join(workTree, tail));
    else if (whole.startsWith('$')) found.push(path.join(workTree, tail));
    else if (path.isAbsolute(tail) && tail.length > 1) found.push(path.normalize(tail));
  }
  return found;
}

/**
 * A hook's text with the folders it names through variables read as what they are: the work
 * tree's top (`$(git rev-parse --show-toplevel)`, `$PWD`: hooks run there) and the hook's own
 * folder (`$(dirname "$0")`), relative to the top.
 */
function hookText(text: string, file: string, workTree: string): string {
  const own = path.relative(workTree, path.dirname(file)) || '.';
  return atTheTop(text).replace(/\$\(\s*dirname\s+"?\$0"?\s*\)|\$\{0%\/\*\}/g, own);
}

/**
 * The inputs of the hooks installed in `hooksDirs` (the effective hooks directory, and for
 * husky v9's `.husky/_` the folder above, whose files the stubs run) for the work tree `workTree`.
 */
export function gitHookInputs(hooksDirs: readonly string[], workTree: string, commonDir?: string): HookInputs {
  const paths = new Set<string>();
  const projectCode: string[] = [];
  const read: string[] = [];
  const at = (names: readonly string[]): void => names.forEach((name) => paths.add(path.resolve(workTree, name)));
  const runsProjectCode = (file: string, text: string): void => {
    const runs = RUNS_NODE_MODULES.exec(text);
    if (runs) projectCode.push(`${path.relative(workTree, file) || file} (${runs[0].trim().replace(/^["'`(;&|]/, '')}…)`);
    const modules = pythonModules(text);
    for (const module of modules) at(pythonModulePaths(module));
    // What else the module imports is looked up at the top first too: project code, said as such.
    if (modules.length > 0) projectCode.push(`${path.relative(workTree, file) || file} (python -m ${modules[0]}: the project's top folder comes first on its module path)`);
  };
  let lintStaged = false;
  const dirs = new Set<string>();
  for (const dir of hooksDirs) {
    dirs.add(dir);
    if (path.basename(dir) === '_') dirs.add(path.dirname(dir));
  }
  for (const dir of dirs) {
    for (const file of hookFiles(dir)) {
      const text = readHead(file);
      if (text === undefined) continue;
      read.push(file);
      const lefthook = /\bcall_lefthook\b|\$LEFTHOOK\b|\blefthook\s+run\b/.test(text);
      if (lefthook) at(LEFTHOOK_CONFIG);
      // lefthook's `remotes:` are cloned into `$(git rev-parse --git-path info)/lefthook-remotes/`
      // and their configurations read from there at every hook run, not fetched again.
      if (lefthook && commonDir !== undefined) paths.add(path.join(commonDir, 'info', 'lefthook-remotes'));
      if (/File generated by pre-commit|\bhook-impl\b/.test(text)) {
        const config = /--config[= ]("[^"]*"|'[^']*'|[^\s)]+)/.exec(text)?.[1]?.replace(/^["']|["']$/g, '');
        at([config && !config.includes('$') ? config : '.pre-commit-config.yaml']);
      }
      // husky v4 (`# husky` stubs sourcing `husky.sh`, which runs `husky-run`); v5+ read no configuration.
      if (/^# husky$|husky-run|Created by Husky v4/m.test(text)) at(HUSKY4_CONFIG);
      if (/SIMPLE_GIT_HOOKS/.test(text)) at(SIMPLE_GIT_HOOKS_CONFIG);
      if (/\blint-staged\b/.test(text)) lintStaged = true;
      for (const named of literalPaths(text, workTree)) paths.add(named);
      // The scripts it runs by a path or hands to an interpreter (`./scripts/lint.sh`, `sh tools/check.sh`): hooks run at the work tree's top.
      if (!lefthook) for (const script of commandPaths(hookText(text, file, workTree))) paths.add(path.resolve(workTree, script));
      // lefthook's stub lists node_modules among the places it looks for lefthook (protected above
      // when named); what it runs is in lefthook's configuration, read below.
      if (!lefthook) runsProjectCode(file, text);
    }
  }
  // lefthook's configuration files, when lefthook's stub is installed: they may run lint-staged,
  // or other project code.
  for (const name of LEFTHOOK_CONFIG.filter((name) => name.includes('.', 1))) {
    const file = path.join(workTree, name);
    if (!paths.has(file)) break;
    const text = readHead(file);
    if (text === undefined) continue;
    read.push(file);
    if (/\blint-staged\b/.test(text)) lintStaged = true;
    runsProjectCode(file, text);
  }
  if (lintStaged) at(LINT_STAGED_CONFIG);
  return { paths: [...paths], projectCode, read };
}
