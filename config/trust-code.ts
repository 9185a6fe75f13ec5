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
 *                      every word of every `command` (split as a shell would, with
 *                      $CLAUDE_PROJECT_DIR / $MEWCODE_PROJECT_DIR expanded) and every `args`
 *                      entry (`--x=./file` too) that names a regular file inside the project,
 *                      and the file a runner reads its tasks from (`npm …` → package.json,
 *                      `make` → Makefile, `just`, `uv`/`poetry` → pyproject.toml, `cargo`)
 *   commands           the same for each `` !`command` `` line of a custom command file
 *
 * Only files inside the project are hashed (what a sandboxed command may rewrite), each by its
 * content (links followed), at most MAX_CODE_FILES of them. A file larger than
 * MAX_CODE_FILE_BYTES is not read: its trust cannot be remembered, so the project asks again at
 * every start (or takes --trust-project for one run). What such code loads in turn (a plugin's
 * own imports, the files a package.json script runs) is not followed.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { shellLineCommands } from './command-files.js';
import { toPlain } from './located.js';
import { parseConfigTextCached } from './parse-cache.js';
import { terminalSafe } from './trust-summary.js';
import { isPathStrictlyWithin } from '../types/path-within.js';

export const MAX_CODE_FILE_BYTES = 8 * 1024 * 1024;
export const MAX_CODE_FILES = 64;

export interface CodeFile {
  /** Absolute path as named (not the real path). */
  file: string;
  /** `sha256:<hex>` of the content, or undefined when it was too large to read. */
  digest: string | undefined;
  size: number;
  /** Which setting names it, e.g. `.mcp.json: mcpServers`. */
  namedBy: string;
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

function regularFile(file: string): number | undefined {
  try {
    const info = statSync(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

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
      if (isPathStrictlyWithin(root, file) && regularFile(file) !== undefined) found.push(file);
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
        if (isPathStrictlyWithin(root, file) && regularFile(file) !== undefined) found.push(file);
      }
    }
  }
  return found;
}

/** Every `command` / `args` in a value (any depth: hook lists, server maps…), as file names inside the project. */
function commandFiles(value: unknown, root: string, out: Set<string>, depth = 0): void {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    for (const item of value) commandFiles(item, root, out, depth + 1);
    return;
  }
  if (!isMap(value)) return;
  const cwd = typeof value.cwd === 'string' ? path.resolve(root, value.cwd.replace(PROJECT_DIR_VARIABLE, root)) : undefined;
  const bases = cwd === undefined || cwd === root ? [root] : [root, cwd];
  const words = [...(typeof value.command === 'string' ? shellWords(value.command) : []), ...(Array.isArray(value.args) ? value.args.filter((arg): arg is string => typeof arg === 'string') : [])];
  for (const word of words) for (const file of wordFiles(word, bases, root)) out.add(file);
  for (const file of runnerFiles(words, bases, root)) out.add(file);
  for (const [key, child] of Object.entries(value)) if (key !== 'command' && key !== 'args' && key !== 'env') commandFiles(child, root, out, depth + 1);
}

/** The entry a package directory's manifest names (as the kernel's loader reads it), and the manifest. */
function packageEntry(dir: string): string[] {
  const manifestFile = path.join(dir, 'package.json');
  if (regularFile(manifestFile) === undefined) return regularFile(path.join(dir, 'index.js')) !== undefined ? [path.join(dir, 'index.js')] : [];
  const files = [manifestFile];
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { main?: unknown; exports?: unknown };
    const entry = exportEntry(manifest.exports) ?? (typeof manifest.main === 'string' ? manifest.main : 'index.js');
    files.push(path.resolve(dir, entry));
  } catch {
    // A broken manifest is hashed as it is; the loader will fail on it.
  }
  return files;
}

function exportEntry(exports: unknown): string | undefined {
  if (typeof exports === 'string') return exports;
  if (!isMap(exports)) return undefined;
  const root = exports['.'] ?? exports;
  if (typeof root === 'string') return root;
  if (isMap(root)) {
    for (const key of ['import', 'node', 'default', 'require']) {
      const value = root[key];
      if (typeof value === 'string') return value;
      const nested = exportEntry(value);
      if (nested) return nested;
    }
  }
  return undefined;
}

/** The files a `plugins:` entry loads: a path (a file, or a package directory) or a package of the project. */
function pluginFiles(spec: string, root: string): string[] {
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const target = path.resolve(root, spec);
    try {
      return statSync(target).isDirectory() ? packageEntry(target) : [target];
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
  files.push(...packageEntry(path.join(root, 'node_modules', name)));
  return files;
}

async function namedFiles(setting: NamingSetting, root: string): Promise<string[]> {
  const out = new Set<string>();
  if (setting.key === 'plugins') {
    const specs = Array.isArray(setting.value) ? setting.value : [setting.value];
    for (const spec of specs) if (typeof spec === 'string') for (const file of pluginFiles(spec, root)) out.add(file);
  } else if (setting.key === 'mcp_servers' || setting.key === 'hooks' || setting.key === 'mcpServers') {
    commandFiles(await plainValue(setting), root, out);
  } else if (setting.key === 'commands' && typeof setting.value === 'string') {
    // A custom command file's `!` lines are commands like a hook's.
    commandFiles(shellLineCommands(setting.value).map((command) => ({ command })), root, out);
  }
  return [...out].filter((file) => isPathStrictlyWithin(root, file));
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

/** The code files the given settings name, hashed; `warnings` gets a line when the bound cut the list. */
export async function codeFilesOf(settings: readonly NamingSetting[], root: string, warnings: string[]): Promise<CodeFile[]> {
  const byFile = new Map<string, string>();
  for (const setting of settings) {
    for (const file of await namedFiles(setting, root)) if (!byFile.has(file)) byFile.set(file, `${setting.display}: ${setting.key}`);
  }
  const files = [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (files.length > MAX_CODE_FILES) {
    warnings.push(`trust: the project's settings name more than ${MAX_CODE_FILES} files of code; only the first ${MAX_CODE_FILES} by path are covered by the trust (the rest can change unnoticed)`);
  }
  const result: CodeFile[] = [];
  for (const [file, namedBy] of files.slice(0, MAX_CODE_FILES)) {
    const digest = await digestOf(file);
    if (digest) result.push({ file, namedBy, ...digest });
  }
  return result;
}

/** How a code file is listed in the notice and the dialog. */
export function describeCodeFile(code: CodeFile): string {
  const what = code.digest === undefined ? `too large to verify: ${code.size} bytes, over ${MAX_CODE_FILE_BYTES / 1024 / 1024} MiB` : `${code.size} bytes`;
  return terminalSafe(`run by ${code.namedBy} (${what})`);
}
