/**
 * The code a project's trust-requiring settings name, so that trusting the project covers what
 * that code is, not only where it is: sandboxed bash may write the project, and a plugin, an MCP
 * server script or a hook script it rewrote would otherwise run, with the user's trust, at the
 * next start. Found, for each setting the trust scan saw:
 *
 *   plugins            each entry, resolved as the kernel loads it (a path, a directory with a
 *                      package.json, or a package in the project's node_modules): the entry file
 *                      and the package.json that chose it
 *   mcp_servers, .mcp.json, hooks (all shapes)
 *                      every word of every `command`, of every `args` entry and of every `env`
 *                      value, each split as a shell would (a `sh -c` script, `NODE_OPTIONS=
 *                      --require ./x.cjs`), with $CLAUDE_PROJECT_DIR / $MEWCODE_PROJECT_DIR
 *                      expanded, that names a regular file inside the project (`--x=./file`
 *                      too); the file a runner reads its tasks from (`npm …` → package.json,
 *                      `make` → Makefile, `just`, `uv`/`poetry` → pyproject.toml, `cargo`);
 *                      a program of the project's `node_modules/.bin`, and the package a
 *                      package runner (`npx`, `bunx`, `pnpm dlx`…) finds in its `node_modules`
 *   commands           the same for each `` !`command` `` line of a custom command file
 *   skills             the same for each `` !`command` `` line of a project's SKILL.md
 *
 * and, from each of those, what it loads in turn (trust-code-loads.ts: imports, requires,
 * Python modules, a shell script's files), so a server trusted as it was cannot import a module
 * a sandboxed command rewrote since. Each named file is listed once, its value the hash of its
 * content and of everything it loads; and each folder Python searches before its standard library
 * (a script's, `-m`'s current folder, PYTHONPATH) with the names importable from it
 * (trust-code-python-path.ts), as a module planted there shadows what any import names.
 *
 * Only files inside the project are hashed (what a sandboxed command may rewrite), each by its
 * content (links followed). Past MAX_CODE_FILES files in all, or a file larger than
 * MAX_CODE_FILE_BYTES, the code cannot be verified: its trust cannot be remembered, so the
 * project asks again at every start (or takes --trust-project for one run); nothing is left
 * uncovered silently.
 */
import { parseJsonWithinDepth } from './nesting-depth.js';
import { type Dirent, closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { shellLineCommands } from './command-files.js';
import { MAX_PARSED_BYTES, NO_SEARCH_PATHS, type SearchPaths, directLoads, inNodeModules, isPythonCode, jsSpecifiers, literalLoads, packageFiles, pythonMainFiles, pythonTextLoads, regularFileSize, resolveJs } from './trust-code-loads.js';
import { describeImportableNames, importableChangedSince, importableNames } from './trust-code-python-path.js';
import { type CodeCache, stampOf, stampsOf } from './trust-code-stamps.js';
import { toPlain } from './located.js';
import { parseConfigTextCached } from './parse-cache.js';
import { terminalSafe } from './trust-summary.js';
import { isPathStrictlyWithin } from '../types/path-within.js';

/** A file of code hashed at most; every one hashed is also read for what it loads (the same bound). */
export const MAX_CODE_FILE_BYTES = MAX_PARSED_BYTES;
/** Files of code in all, the named ones and what they load. */
export const MAX_CODE_FILES = 2000;

export interface CodeFile {
  /** Absolute path as named (not the real path). */
  file: string;
  /** `sha256:<hex>` of the content and of what it loads, or undefined when that cannot be verified. */
  digest: string | undefined;
  size: number;
  /** How many other project files it loads (hashed with it). */
  loads: number;
  /** Why it cannot be verified, when `digest` is undefined. */
  unverifiable?: string;
  /** Which setting names it, e.g. `.mcp.json: mcpServers`. */
  namedBy: string;
  /** For a folder Python searches before its standard library (`file` is the folder): the names importable from it (trust-code-python-path.ts). */
  pythonNames?: string[];
}

/** A setting as the scan found it: its file (relative) and key, and its value (a whole file's text for whole files). */
export interface NamingSetting {
  /** Absolute path of the settings file. */
  file: string;
  display: string;
  key: string;
  value: unknown;
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Shell words of a command line: quotes removed, split at blanks and operators (a best effort: enough to find file names). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let current = '';
  let started = false;
  let quote: '"' | "'" | undefined;
  const end = () => {
    if (started) words.push(current);
    current = '';
    started = false;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < command.length) current += command[++i];
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === '\\' && i + 1 < command.length) {
      current += command[++i];
      started = true;
    } else if (/\s|[;&|()<>`]/.test(ch)) end();
    else {
      current += ch;
      started = true;
    }
  }
  end();
  return words;
}

/** `${CLAUDE_SKILL_DIR}` in a SKILL.md's `!` lines: the skill's folder. */
const SKILL_DIR_VARIABLE = /\$(?:\{CLAUDE_SKILL_DIR\}|CLAUDE_SKILL_DIR\b)/g;
const PROJECT_DIR_VARIABLE = /\$(?:\{(?:CLAUDE|MEWCODE)_PROJECT_DIR\}|(?:CLAUDE|MEWCODE)_PROJECT_DIR\b)/g;

/** The files inside `root` a word may name: as written, and the value of a `--flag=value`. */
function wordFiles(word: string, bases: readonly string[], root: string): string[] {
  const expanded = word.replace(PROJECT_DIR_VARIABLE, root);
  const forms = [expanded];
  const eq = expanded.indexOf('=');
  if (eq > 0) forms.push(expanded.slice(eq + 1));
  const found: string[] = [];
  for (const form of forms) {
    if (form === '' || form.startsWith('-') || form.includes('$')) continue;
    for (const base of path.isAbsolute(form) ? [root] : bases) {
      const file = path.resolve(base, form);
      if (isPathStrictlyWithin(root, file) && regularFileSize(file) !== undefined) found.push(file);
    }
  }
  return found;
}

/**
 * Programs that run what a project file of a fixed name says (`npm run x` runs package.json's
 * script x): when a command uses one, that file is code the trust approves too.
 */
const RUNNER_FILES: Readonly<Record<string, readonly string[]>> = {
  npm: ['package.json'],
  npx: ['package.json'],
  pnpm: ['package.json'],
  yarn: ['package.json'],
  bun: ['package.json'],
  make: ['Makefile', 'makefile', 'GNUmakefile'],
  just: ['justfile', 'Justfile', '.justfile'],
  uv: ['pyproject.toml'],
  poetry: ['pyproject.toml'],
  cargo: ['Cargo.toml'],
};

function runnerFiles(words: readonly string[], bases: readonly string[], root: string): string[] {
  const found: string[] = [];
  for (const word of words) {
    for (const name of RUNNER_FILES[path.basename(word)] ?? []) {
      for (const base of bases) {
        const file = path.join(base, name);
        if (isPathStrictlyWithin(root, file) && regularFileSize(file) !== undefined) found.push(file);
      }
    }
  }
  return found;
}

/** Package runners: the first word after them (and after their own options) names a package or a program of the project's `node_modules`. */
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'npm', 'pnpm', 'yarn', 'bun']);

/**
 * Programs and packages of the project's `node_modules` the words may start: a word that is a
 * program of `node_modules/.bin` (a runner or PATH finds it there), and, when a package runner is
 * among the words, each word naming a package there (`npx -y @acme/server`, `pnpm dlx x`).
 */
function nodeModulesFiles(words: readonly string[], bases: readonly string[], root: string): string[] {
  const found: string[] = [];
  const runs = words.some((word) => PACKAGE_RUNNERS.has(path.basename(word)));
  for (const word of words) {
    if (word === '' || word.startsWith('-') || word.includes('$')) continue;
    const bare = word.startsWith('@') ? word.replace(/^(@[^/@]+\/[^/@]+)@.*$/, '$1') : word.replace(/@.*$/, '');
    for (const base of bases) {
      if (!bare.includes('/')) {
        const program = inNodeModules(path.join('.bin', bare), base, root, 'file');
        if (program !== undefined) found.push(program);
      }
      if (runs && /^(?:@[\w.-]+\/)?[\w.-]+$/.test(bare)) {
        const dir = inNodeModules(bare, base, root, 'directory');
        if (dir !== undefined) found.push(...packageFiles(dir, '.'));
      }
    }
  }
  return found;
}

const PYTHON = /^(?:python[\d.]*|pypy[\d.]*)$/;
const JS_RUNTIME = /^(?:node|nodejs|bun|deno|tsx|ts-node)$/;
const SHELL = /^(?:sh|bash|dash|zsh|ksh)$/;
/** Node's options that load a module before the script. */
const NODE_PRELOAD = /^(?:-r|--require|--import|--loader|--experimental-loader)$/;

/**
 * What interpreters among the words run from the project besides the files their words name:
 * `python -m <module>` (a module or package of the current folder), `python -c`, `node -e`/`-p`
 * code (what it imports), Node's preloads and a script named without its extension (resolved as
 * Node resolves it). Each word list is read from every interpreter in it (`sh -c "node x"`).
 */
function interpreterFiles(words: readonly string[], bases: readonly string[], root: string, search: SearchPaths, pythonDirs?: Set<string>): string[] {
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const program = path.basename(words[i]!);
    const python = PYTHON.test(program);
    const js = JS_RUNTIME.test(program);
    if (!python && !js && !SHELL.test(program)) continue;
    for (let j = i + 1; j < words.length; j++) {
      const word = words[j]!;
      const [option, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
      const value = inline ?? words[j + 1];
      // `-m` and `-c` search the current folder first (trust-code-python-path.ts).
      if (python && (option === '-m' || option === '-c') && value !== undefined) for (const base of bases) pythonDirs?.add(base);
      if (python && option === '-m' && value !== undefined) {
        found.push(...pythonMainFiles(value, [...bases, ...search.python]), ...bases.flatMap(topLevelPythonModules));
        break;
      }
      if (python && option === '-c' && value !== undefined) {
        for (const base of bases) found.push(...pythonTextLoads(value, base, root, search), ...literalLoads(value, base, root));
        found.push(...bases.flatMap(topLevelPythonModules));
        break;
      }
      if (js && /^(?:-e|--eval|-p|--print)$/.test(option) && value !== undefined) {
        for (const base of bases) found.push(...jsSpecifiers(value).flatMap((spec) => resolveJs(spec, base, root, search)), ...literalLoads(value, base, root));
        break;
      }
      if (js && NODE_PRELOAD.test(option) && value !== undefined) {
        for (const base of bases) found.push(...resolveJs(value.startsWith('.') || value.startsWith('/') ? value : `./${value}`, base, root, search), ...resolveJs(value, base, root, search));
        if (inline === undefined) j++;
        continue;
      }
      if (word.startsWith('-')) continue;
      // The script: as Node resolves it (one named without its `.js`), or the file itself.
      if (js) for (const base of bases) found.push(...resolveJs(word.startsWith('/') ? word : `./${word}`, base, root, search));
      else {
        for (const file of bases.map((base) => path.resolve(base, word))) {
          if (!isPathStrictlyWithin(root, file) || regularFileSize(file) === undefined) continue;
          found.push(file);
          // Python searches the script's folder first, whatever the script's name.
          if (python) pythonDirs?.add(path.dirname(file));
        }
      }
      break;
    }
  }
  return found;
}


/**
 * With `-m` or `-c` Python puts the current folder first on its path, so a module or package there
 * is imported in place of any of the same name, the standard library's included (`json.tool`
 * imports `argparse`: an `argparse.py` there runs): each is code of such a command.
 */
function topLevelPythonModules(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    // Past the bound of files in all the scan already fails closed (asks at every start): one more is enough.
    if (found.length > MAX_CODE_FILES) break;
    const file = path.join(dir, entry.name);
    if (entry.name.endsWith('.py') && regularFileSize(file) !== undefined) found.push(file);
    else if (!entry.name.includes('.') && regularFileSize(path.join(file, '__init__.py')) !== undefined) found.push(path.join(file, '__init__.py'));
  }
  return found;
}

/** The project's `NODE_PATH` / `PYTHONPATH` folders an entry's `env` names (resolved from its folder). */
function searchPathsOf(env: Record<string, unknown>, bases: readonly string[]): SearchPaths {
  const split = (value: unknown): string[] => (typeof value === 'string' ? value.split(':').filter((entry) => entry !== '' && !entry.includes('$')) : []);
  const dirs = (entries: string[]): string[] => entries.flatMap((entry) => bases.map((base) => path.resolve(base, entry)));
  return { node: dirs(split(env.NODE_PATH)), python: dirs(split(env.PYTHONPATH)) };
}

/** npm's own commands that run the script of their name. */
const NPM_SCRIPT_COMMANDS = new Set(['start', 'stop', 'restart', 'test', 't', 'tst']);
/** Package-manager subcommands that are not a script's name (`yarn add`, `pnpm install`…). */
const NOT_SCRIPTS = new Set(['install', 'i', 'ci', 'add', 'remove', 'rm', 'uninstall', 'update', 'up', 'upgrade', 'exec', 'x', 'dlx', 'create', 'init', 'publish', 'pack', 'link', 'unlink', 'list', 'ls', 'outdated', 'audit', 'config', 'why', 'info', 'view']);

/**
 * The scripts a package manager's words run: `npm run x` / `npm run-script x` / `npm start` /
 * `yarn x` / `pnpm x` / `bun run x` → x with its `pre` and `post` scripts; undefined when the words
 * name none (then every script counts).
 */
function scriptNames(words: readonly string[]): string[] | undefined {
  const runner = words.findIndex((word) => ['npm', 'pnpm', 'yarn', 'bun'].includes(path.basename(word)));
  if (runner < 0) return undefined;
  const rest = words.slice(runner + 1).filter((word) => !word.startsWith('-'));
  const [first, second] = rest;
  let name: string | undefined;
  if (first === 'run' || first === 'run-script') name = second;
  else if (first !== undefined && NPM_SCRIPT_COMMANDS.has(first)) name = first === 't' || first === 'tst' ? 'test' : first;
  else if (first !== undefined && path.basename(words[runner]!) !== 'npm' && !NOT_SCRIPTS.has(first)) name = first;
  return name === undefined ? undefined : [name, `pre${name}`, `post${name}`];
}

/**
 * A runner's task file read for the commands it runs: package.json's scripts (the ones `names`
 * gives, or all of them), a Makefile's or justfile's recipe lines.
 */
function runnerCommands(file: string, names: readonly string[] | undefined): string[] {
  let text: string;
  try {
    if ((regularFileSize(file) ?? Infinity) > 1024 * 1024) return [];
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  if (path.basename(file) === 'package.json') {
    try {
      const scripts = (parseJsonWithinDepth(text) as { scripts?: unknown }).scripts;
      if (!isMap(scripts)) return [];
      const picked = names === undefined ? Object.values(scripts) : names.map((name) => (Object.hasOwn(scripts, name) ? scripts[name] : undefined));
      return picked.filter((value): value is string => typeof value === 'string');
    } catch {
      return [];
    }
  }
  if (path.basename(file).endsWith('.toml')) return [];
  // Recipe lines: a tab (make) or any indentation (just); `@`/`-` prefixes dropped.
  return text.split('\n').filter((line) => /^[\t ]+\S/.test(line)).map((line) => line.trim().replace(/^[@-]+/, ''));
}

/**
 * What commands name: every file (`all`), those certainly run as code (`code`: by an interpreter,
 * a runner, from node_modules), the search folders their `env` adds, and the folders Python
 * searches before its standard library (`pythonDirs`: `-m`/`-c`'s current folder, a script's, PYTHONPATH).
 */
interface Found {
  all: Set<string>;
  code: Set<string>;
  search: { node: string[]; python: string[] };
  pythonDirs: Set<string>;
}
const found = (): Found => ({ all: new Set(), code: new Set(), search: { node: [], python: [] }, pythonDirs: new Set() });

/** Every `command` / `args` / `env` in a value (any depth: hook lists, server maps…), as file names inside the project. */
function commandFiles(value: unknown, root: string, into: Found, depth = 0): void {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    for (const item of value) commandFiles(item, root, into, depth + 1);
    return;
  }
  if (!isMap(value)) return;
  const cwd = typeof value.cwd === 'string' ? path.resolve(root, value.cwd.replace(PROJECT_DIR_VARIABLE, root)) : undefined;
  const bases = cwd === undefined || cwd === root ? [root] : [root, cwd];
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  const envValues = isMap(value.env) ? strings(Object.values(value.env)) : [];
  const search = isMap(value.env) ? searchPathsOf(value.env, bases) : NO_SEARCH_PATHS;
  into.search.node.push(...search.node);
  into.search.python.push(...search.python);
  for (const dir of search.python) into.pythonDirs.add(dir);
  // An argument may be a script for a shell or an interpreter (`sh -c "node x.js"`): its words too.
  const argv = [...(typeof value.command === 'string' ? shellWords(value.command) : []), ...strings(value.args)];
  const words = [...argv, ...[...strings(value.args), ...envValues].flatMap((arg) => shellWords(arg))];
  const code = (file: string): void => {
    into.all.add(file);
    into.code.add(file);
  };
  for (const word of words) for (const file of wordFiles(word, bases, root)) into.all.add(file);
  for (const file of interpreterFiles(argv, bases, root, search, into.pythonDirs)) code(file);
  for (const arg of [...strings(value.args), ...envValues, ...(typeof value.command === 'string' ? [value.command] : [])]) {
    const inner = shellWords(arg);
    if (inner.length > 1) for (const file of interpreterFiles(inner, bases, root, search, into.pythonDirs)) code(file);
  }
  // NODE_OPTIONS are options of every node the entry starts (`--require ./pre`).
  const nodeOptions = isMap(value.env) && typeof value.env.NODE_OPTIONS === 'string' ? value.env.NODE_OPTIONS : undefined;
  if (nodeOptions !== undefined) for (const file of interpreterFiles(['node', ...shellWords(nodeOptions)], bases, root, search)) code(file);
  for (const file of runnerFiles(words, bases, root)) {
    code(file);
    // What the runner runs: each script or recipe line, read as a command of its own.
    if (depth < 4) for (const command of runnerCommands(file, scriptNames(words))) commandFiles({ command, cwd: path.dirname(file) }, root, into, depth + 4);
  }
  for (const file of nodeModulesFiles(words, bases, root)) code(file);
  for (const [key, child] of Object.entries(value)) if (key !== 'command' && key !== 'args' && key !== 'env') commandFiles(child, root, into, depth + 1);
}

/** A plugin package's files: its entry, and every plugin its manifest lists (`"mewcode": { "plugins": [...] }`). */
function pluginPackageFiles(dir: string): string[] {
  const files = packageFiles(dir, '.');
  try {
    const manifest = parseJsonWithinDepth(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { mewcode?: { plugins?: unknown } };
    const listed = manifest.mewcode?.plugins;
    if (Array.isArray(listed)) for (const entry of listed) if (typeof entry === 'string') files.push(path.resolve(dir, entry));
  } catch {
    // A broken manifest is hashed as it is; the loader will fail on it.
  }
  return files;
}

/** The files a `plugins:` entry loads: a path (a file, or a package directory) or a package of the project. */
function pluginFiles(spec: string, root: string): string[] {
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const target = path.resolve(root, spec);
    try {
      return statSync(target).isDirectory() ? pluginPackageFiles(target) : [target];
    } catch {
      return [];
    }
  }
  const files: string[] = [];
  try {
    files.push(createRequire(path.join(root, 'package.json')).resolve(spec)); // what the kernel tries first
  } catch {
    // ESM-only packages: the kernel reads the manifest itself.
  }
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  files.push(...pluginPackageFiles(path.join(root, 'node_modules', name)));
  return files;
}

async function namedFiles(setting: NamingSetting, root: string, into: Found): Promise<string[]> {
  const before = new Set(into.all);
  if (setting.key === 'plugins') {
    const specs = Array.isArray(setting.value) ? setting.value : [setting.value];
    for (const spec of specs) if (typeof spec === 'string') for (const file of pluginFiles(spec, root)) into.all.add(file);
  } else if (setting.key === 'mcp_servers' || setting.key === 'hooks' || setting.key === 'mcpServers') {
    commandFiles(await plainValue(setting), root, into);
  } else if (setting.key === 'commands' && typeof setting.value === 'string') {
    // A custom command file's `!` lines are commands like a hook's.
    commandFiles(shellLineCommands(setting.value).map((command) => ({ command })), root, into);
  } else if (setting.key === 'skills' && typeof setting.value === 'string') {
    // So are a project skill's, which name its own scripts through `${CLAUDE_SKILL_DIR}`.
    const skillDir = path.dirname(setting.file);
    commandFiles(shellLineCommands(setting.value).map((command) => ({ command: command.replace(SKILL_DIR_VARIABLE, () => skillDir) })), root, into);
  }
  return [...into.all].filter((file) => !before.has(file) && isPathStrictlyWithin(root, file));
}

/** A whole file's text (`.mcp.json`, `.mewcode/hooks.yaml`) parsed (through the shared cache); a setting's value as it is. */
async function plainValue(setting: NamingSetting): Promise<unknown> {
  if (typeof setting.value !== 'string' || !(setting.key === 'mcpServers' || setting.key === 'hooks')) return setting.value;
  const parsed = await parseConfigTextCached(setting.file, setting.value);
  return parsed.error === undefined ? toPlain(parsed.root) : undefined;
}

/** sha256 of a file's bytes, read in chunks through one descriptor (links followed, FIFOs not waited on). */
async function digestOf(file: string): Promise<{ digest: string | undefined; size: number } | undefined> {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const info = fstatSync(fd);
    if (!info.isFile()) return undefined;
    if (info.size > MAX_CODE_FILE_BYTES) return { digest: undefined, size: info.size };
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(Math.min(info.size, 1024 * 1024) || 1);
    let total = 0;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      total += read;
      if (total > MAX_CODE_FILE_BYTES) return { digest: undefined, size: total };
      hash.update(buffer.subarray(0, read));
    }
    return { digest: `sha256:${hash.digest('hex')}`, size: total };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface Hashed {
  digest: string | undefined;
  size: number;
}

/**
 * The code files the given settings name, each hashed with everything it loads in turn. Past
 * MAX_CODE_FILES files in all, what is left cannot be verified (never remembered as trusted);
 * `warnings` gets a line saying so.
 */
export async function codeFilesOf(settings: readonly NamingSetting[], root: string, warnings: string[], cache?: CodeCache): Promise<CodeFile[]> {
  // Before anything is read: a stamp whose change time is not well before this is never reused.
  const startedAt = Date.now();
  const byFile = new Map<string, string>();
  const into = found();
  // Folders Python searches before its standard library, and the setting that runs Python there.
  const pythonDirs = new Map<string, string>();
  for (const setting of settings) {
    const namedBy = `${setting.display}: ${setting.key}`;
    for (const file of await namedFiles(setting, root, into)) if (!byFile.has(file)) byFile.set(file, namedBy);
    for (const dir of into.pythonDirs) if (!pythonDirs.has(dir)) pythonDirs.set(dir, namedBy);
  }
  // The project's NODE_PATH / PYTHONPATH folders, from every entry: what the code imports may be found there.
  const search: SearchPaths = into.search;
  const named = [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // One digest per file however many entries load it (a package several servers import).
  const hashed = new Map<string, Hashed | undefined>();
  const hashOnce = async (file: string): Promise<Hashed | undefined> => {
    if (!hashed.has(file)) hashed.set(file, await digestOf(file));
    return hashed.get(file);
  };
  const shellFiles = (text: string, base: string): string[] => {
    const inner = found();
    commandFiles({ command: text, cwd: base }, root, inner);
    return [...inner.all];
  };
  const result: CodeFile[] = [];
  let overflowed = false;
  for (const [file, namedBy] of named) {
    const cached = cache?.get(file);
    if (cached) {
      result.push({ file, namedBy, digest: cached.digest, size: cached.size, loads: cached.loads });
      for (const dir of cached.pythonDirs) if (!pythonDirs.has(dir)) pythonDirs.set(dir, namedBy);
      continue;
    }
    const own = await hashOnce(file);
    if (!own) continue;
    // What it loads, breadth first, in a stable order (the combined digest must not depend on it).
    const seen = new Set([file]);
    const queue = [file];
    // Folders its literals were looked up in: stamped with it, so a file made there later is seen.
    const probed = new Set<string>();
    let unverifiable = own.digest === undefined ? `too large to verify: ${own.size} bytes, over ${MAX_CODE_FILE_BYTES / 1024 / 1024} MiB` : undefined;
    for (let i = 0; i < queue.length && unverifiable === undefined; i++) {
      for (const next of directLoads(queue[i]!, root, shellFiles, search, probed)) {
        if (seen.has(next)) continue;
        if (hashed.size >= MAX_CODE_FILES && !hashed.has(next)) {
          unverifiable = `loads more than ${MAX_CODE_FILES} files of code in all`;
          overflowed = true;
          break;
        }
        seen.add(next);
        queue.push(next);
        const loaded = await hashOnce(next);
        if (loaded?.digest === undefined && loaded !== undefined) unverifiable = `loads ${path.relative(root, next)}, too large to verify (over ${MAX_CODE_FILE_BYTES / 1024 / 1024} MiB)`;
      }
    }
    const loads = seen.size - 1;
    // A Python file's folder: its own is searched first when it runs as a script (`uv run x.py`, a shell script's `python3 x.py`).
    const ownPythonDirs = [...new Set([...seen].filter(isPythonCode).map((member) => path.dirname(member)))].sort();
    for (const dir of ownPythonDirs) if (!pythonDirs.has(dir)) pythonDirs.set(dir, namedBy);
    if (unverifiable !== undefined) {
      result.push({ file, namedBy, digest: undefined, size: own.size, loads, unverifiable });
      continue;
    }
    let digest = own.digest!;
    if (loads > 0) {
      const { createHash } = await import('node:crypto');
      const combined = createHash('sha256');
      for (const member of [...seen].sort()) combined.update(`${path.relative(root, member)}\0${hashed.get(member)?.digest ?? 'missing'}\n`);
      digest = `sha256:${combined.digest('hex')}`;
    }
    result.push({ file, namedBy, digest, size: own.size, loads });
    const stamps = cache ? stampsOf([...seen, ...[...probed].filter((dir) => isPathStrictlyWithin(root, dir))], root) : undefined;
    if (cache && stamps) cache.set(file, { digest, size: own.size, loads, stamps, at: startedAt, pythonDirs: ownPythonDirs });
  }
  await cache?.save();
  // The names importable from each (one listing, names only: trust-code-python-path.ts), inside the project.
  for (const [dir, namedBy] of [...pythonDirs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (dir !== root && !isPathStrictlyWithin(root, dir)) continue;
    const names = importableNames(dir);
    const { createHash } = await import('node:crypto');
    result.push({ file: dir, namedBy, digest: `sha256:${createHash('sha256').update(names.join('\n')).digest('hex')}`, size: names.length, loads: 0, pythonNames: names });
  }
  if (overflowed) {
    warnings.push(`trust: the project's settings run more than ${MAX_CODE_FILES} files of code (with what they load); what is past that cannot be verified, so the project's trust is asked again at every start`);
  }
  return result;
}

/** How a code file is listed in the notice and the dialog. */
export function describeCodeFile(code: CodeFile): string {
  if (code.pythonNames) return terminalSafe(`what Python run by ${code.namedBy} imports from this folder before its standard library and packages: ${describeImportableNames(code.pythonNames)}`);
  const loads = code.loads > 0 ? `, with the ${code.loads} file${code.loads === 1 ? '' : 's'} it loads` : '';
  const what = code.digest === undefined ? (code.unverifiable ?? 'cannot be verified') : `${code.size} bytes${loads}`;
  return terminalSafe(`run by ${code.namedBy} (${what})`);
}

const CODE_NAME = /\.(?:[mc]?[jt]sx?|py|sh|bash|zsh|rb|pl|php|lua)$/i;

/** Code by its name, its mode or its first bytes (`#!`), or anything installed in `node_modules`. */
function looksLikeCode(file: string): boolean {
  if (CODE_NAME.test(file) || file.split(path.sep).includes('node_modules')) return true;
  try {
    if ((statSync(file).mode & 0o111) !== 0) return true;
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const head = Buffer.alloc(2);
      return readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** A user's own hook script larger than this is not read for the project code it runs. */
const MAX_USER_SCRIPT_BYTES = 1024 * 1024;

/** What a file loads, remembered by its stamp and those of the folders its literals were looked up in (a hook's code is looked at before each of its runs). */
const loadsByStamp = new Map<string, { stamp: string; probed: Map<string, string | undefined>; loads: string[] }>();

/**
 * The first file of project code a command line may run that changed at or after `sinceMs`
 * (relative to the root), found as the trust scan finds a setting's code: the files its words
 * name, the project's `node_modules` programs and packages, what they load in turn, looked for
 * again at each call, so a program planted since (`node_modules/.bin/prettier`) is found too. A
 * file's change time cannot be set by a process (a write, a rename or a link moves it to the
 * clock's now), so a sandboxed command cannot make its work look older.
 */
export function commandCodeChangedSince(entry: { command: string; args?: readonly string[]; env?: Record<string, string>; cwd?: string }, root: string, sinceMs: number, homeDir: string = os.homedir()): string | undefined {
  const into = found();
  commandFiles(entry, root, into);
  // A file a hook writes and names (a counter, a log) is its data, not code: what an interpreter,
  // a runner or node_modules gives is code, and a named file that looks like code.
  const named = new Set([...into.all].filter((file) => isPathStrictlyWithin(root, file) && (into.code.has(file) || looksLikeCode(file))));
  const shellFiles = (text: string, base: string): string[] => {
    const inner = found();
    commandFiles({ command: text, cwd: base }, root, inner);
    return [...inner.all];
  };
  // The user's own script the hook runs (`~/.claude/hooks/fmt.sh`) is not project code, but what it
  // runs from the project is: read it for that (`cd "$CLAUDE_PROJECT_DIR"; npx prettier …`).
  for (const word of [...shellWords(entry.command), ...(entry.args ?? [])]) {
    const file = word.replace(/^~(?=\/|$)/, homeDir).replace(/^\$\{?HOME\}?(?=\/|$)/, homeDir);
    if (!path.isAbsolute(file) || isPathStrictlyWithin(root, file) || (regularFileSize(file) ?? Infinity) > MAX_USER_SCRIPT_BYTES) continue;
    // Only a script: a file the hook writes (`cat >> ~/hook-log.jsonl`) holds payloads, whose paths
    // (the transcript's) would read as project code it loads.
    if (!looksLikeCode(file)) continue;
    for (const loaded of directLoads(file, root, shellFiles, into.search)) named.add(loaded);
  }
  const seen = new Set(named);
  const queue = [...named];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    const stamp = stampOf(file);
    if (stamp === undefined) continue;
    if (Number(BigInt(stamp.slice(stamp.lastIndexOf(':') + 1)) / 1_000_000n) >= sinceMs) return path.relative(root, file);
    let known = loadsByStamp.get(file);
    // A file made where a literal of it names one (missing when last looked) moves that folder's stamp.
    if (known?.stamp !== stamp || [...known.probed].some(([dir, dirStamp]) => stampOf(dir) !== dirStamp)) {
      const probed = new Set<string>();
      const loads = directLoads(file, root, shellFiles, into.search, probed);
      loadsByStamp.set(file, (known = { stamp, probed: new Map([...probed].map((dir) => [dir, stampOf(dir)])), loads }));
    }
    for (const next of known.loads) {
      if (seen.has(next)) continue;
      if (seen.size >= MAX_CODE_FILES) return `(more than ${MAX_CODE_FILES} files of code)`;
      seen.add(next);
      queue.push(next);
    }
  }
  // A module made (or renamed, or changed) where Python looks first shadows what any import names.
  const pythonDirs = new Set([...into.pythonDirs, ...[...seen].filter(isPythonCode).map((file) => path.dirname(file))]);
  for (const dir of pythonDirs) {
    if (dir !== root && !isPathStrictlyWithin(root, dir)) continue;
    const changed = importableChangedSince(dir, sinceMs);
    if (changed !== undefined) return path.relative(root, changed);
  }
  return undefined;
}
