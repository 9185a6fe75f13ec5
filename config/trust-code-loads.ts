/**
 * What a file of code loads in turn from the project, found as its language's loader finds it, so
 * that trusting a project covers the code its settings run, not only the first file: a server
 * script trusted as it was would otherwise import a module a sandboxed command rewrote since.
 *
 *   JavaScript, TypeScript   `import … from`, `export … from`, `import()`, `require()` of a
 *                            literal, comments between them allowed; a literal that is the first
 *                            argument of any call (`load('dep')` after `createRequire`) when it is
 *                            a package's name; any literal naming a relative or absolute path
 *                            (`new Worker(new URL('./w.mjs', …))`, `fork('./c.js')`): each with the
 *                            extensions and index files Node and TypeScript's loaders try, or a
 *                            package in a `node_modules` between the file and the project root
 *                            (its package.json, the entry or subpath it resolves to, its `bin`s)
 *   Python                   import statements wherever they stand (trust-code-python.ts): modules
 *                            beside the file, in the project root (`python -m`, the current
 *                            folder), as a file or a package's `__init__.py`; `from pkg import *`
 *                            every module of the package
 *   shell scripts            every word naming a project file (`source lib.sh`, `node ./x.js`)
 *   every language           any literal or word naming a project file of code
 *                            (trust-code-literals.ts: `runpy.run_path("u.py")`, `load 'u.rb'`)
 *
 * A best effort over the text (a name built at run time is not seen) that errs towards more:
 * a match in a comment or a string is followed too. Only regular files inside the project count.
 * Every file the trust scan hashes (up to MAX_PARSED_BYTES) is read for what it loads.
 */
import { parseJsonWithinDepth } from './nesting-depth.js';
import { closeSync, constants, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { CODE_EXTENSION, pathCandidates, quotedLiterals, withoutComments } from './trust-code-literals.js';
import { pythonImports } from './trust-code-python.js';
import { isPathStrictlyWithin } from '../types/path-within.js';

const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx', '.json', '.node'];
const JS_FILE = /\.(?:[mc]?[jt]s|[jt]sx)$/i;
const PY_FILE = /\.pyw?$/i;
const SHELL_FILE = /\.(?:sh|bash|zsh|ksh)$/i;

/** Folders a loader searches besides its own rules: `NODE_PATH` and `PYTHONPATH` entries of the settings that run the code. */
export interface SearchPaths {
  node: readonly string[];
  python: readonly string[];
}
export const NO_SEARCH_PATHS: SearchPaths = { node: [], python: [] };

/**
 * Read at most this much of a file to find what it loads. The trust scan hashes no file larger
 * (trust-code.ts MAX_CODE_FILE_BYTES is this): a file it hashes is always read for its loads, and
 * a larger one is never remembered as trusted, so no hashed file's loads go unseen.
 */
export const MAX_PARSED_BYTES = 8 * 1024 * 1024;
/** Modules of a package a `from pkg import *` lists at most: more is past the trust scan's bound of files anyway (it then asks at every start). */
const MAX_STAR_MODULES = 5000;

const JS_SPECIFIER = [
  /\b(?:import|export)\s*(?:type\s+)?(?:[\w$*{}\s,]+?\s*from\s*)?["'`]([^"'`\n]+)["'`]/g,
  /\b(?:import|require(?:\.resolve)?)\s*\(\s*["'`]([^"'`\n]+)["'`]/g,
];
/** The first argument of any call: a loader under another name (`const load = createRequire(…)`), when a package of that name is installed. */
const CALL_ARGUMENT = /\(\s*["'`]((?:@[\w.~-]+\/)?[\w.~-]+(?:\/[\w.~/-]*)?)["'`]\s*[,)]/g;

export function regularFileSize(file: string): number | undefined {
  try {
    const info = statSync(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function head(file: string): string | undefined {
  const size = regularFileSize(file);
  if (size === undefined || size > MAX_PARSED_BYTES) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

type Language = 'js' | 'python' | 'shell' | undefined;

/** Whether a file is Python by its name or its `#!` line (its folder is then one Python searches first: trust-code-python-path.ts). */
export function isPythonCode(file: string): boolean {
  if (PY_FILE.test(file)) return true;
  // Not opened (a Node server loads hundreds of these, and hooks ask before each run): never Python.
  if (JS_FILE.test(file) || SHELL_FILE.test(file) || /\.(?:json|node|[mc]?js)$/i.test(file) || file.split(path.sep).includes('node_modules')) return false;
  try {
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const start = Buffer.alloc(256);
      const read = readSync(fd, start, 0, start.length, 0);
      return languageOf(file, start.subarray(0, read).toString('utf8').split('\n')[0]!) === 'python';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function languageOf(file: string, text: string): Language {
  if (JS_FILE.test(file)) return 'js';
  if (PY_FILE.test(file)) return 'python';
  if (SHELL_FILE.test(file)) return 'shell';
  const shebang = /^#!\s*(\S+)(?:\s+(?:-\S+\s+)*(\S+))?/.exec(text);
  if (!shebang) return undefined;
  const program = path.basename(shebang[1] === '/usr/bin/env' || shebang[1]?.endsWith('/env') ? (shebang[2] ?? '') : shebang[1]!);
  if (/^(?:node|nodejs|bun|deno|tsx|ts-node)$/.test(program)) return 'js';
  if (/^python[\d.]*$/.test(program)) return 'python';
  if (/^(?:sh|bash|dash|zsh|ksh)$/.test(program)) return 'shell';
  return undefined;
}

/** The files a relative or absolute name resolves to, as Node's and TypeScript's loaders try them. */
function jsFileCandidates(target: string): string[] {
  const found: string[] = [];
  if (regularFileSize(target) !== undefined) found.push(target);
  // TypeScript's `./x.js` names `./x.ts` (and `.mjs` → `.mts`, `.cjs` → `.cts`).
  const ts = target.replace(/\.([mc]?)js$/, '.$1ts');
  if (ts !== target && regularFileSize(ts) !== undefined) found.push(ts);
  if (ts !== target && regularFileSize(ts + 'x') !== undefined) found.push(ts + 'x');
  if (found.length > 0) return found;
  for (const ext of JS_EXTENSIONS) if (regularFileSize(target + ext) !== undefined) return [target + ext];
  if (isDirectory(target)) {
    const manifest = path.join(target, 'package.json');
    if (regularFileSize(manifest) !== undefined) return [manifest, ...packageFiles(target, '.')];
    for (const ext of JS_EXTENSIONS) if (regularFileSize(path.join(target, 'index' + ext)) !== undefined) return [path.join(target, 'index' + ext)];
  }
  return [];
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every string a package's `exports` (or `bin`) value can resolve to. */
function targetsOf(value: unknown, out: string[], depth = 0): void {
  if (depth > 8) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) targetsOf(item, out, depth + 1);
  else if (isMap(value)) for (const item of Object.values(value)) targetsOf(item, out, depth + 1);
}

/** What a package.json `exports` or `imports` map gives for `name`: its exact key, or a `*` pattern (every condition's target). */
function mappedTargets(map: Record<string, unknown>, name: string): string[] {
  const targets: string[] = [];
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (key === name) targetsOf(value, targets);
    else if (star >= 0 && name.startsWith(key.slice(0, star)) && name.endsWith(key.slice(star + 1))) {
      const part = name.slice(star, name.length - (key.length - star - 1));
      const expanded: string[] = [];
      targetsOf(value, expanded);
      targets.push(...expanded.map((target) => target.replaceAll('*', part)));
    }
  }
  return targets;
}

/**
 * A package directory's files for a subpath (`.` for the package itself): the entries its
 * manifest's `exports` map that subpath to (every condition: which one Node takes depends on the
 * importer), else `main` or index, plus every `bin` (what a runner starts).
 */
export function packageFiles(dir: string, subpath: string): string[] {
  const manifestFile = path.join(dir, 'package.json');
  const files = regularFileSize(manifestFile) !== undefined ? [manifestFile] : [];
  let manifest: Record<string, unknown> = {};
  try {
    const parsed = parseJsonWithinDepth(readFileSync(manifestFile, 'utf8')) as unknown;
    if (isMap(parsed)) manifest = parsed;
  } catch {
    // No manifest, or a broken one: Node falls back to index.js for the package itself.
  }
  const targets: string[] = [];
  const exportsMap = manifest.exports;
  if (exportsMap !== undefined) {
    const keyed = isMap(exportsMap) && Object.keys(exportsMap).some((key) => key.startsWith('.'));
    if (!keyed) {
      if (subpath === '.') targetsOf(exportsMap, targets);
    } else if (isMap(exportsMap)) targets.push(...mappedTargets(exportsMap, subpath));
  }
  if (subpath === '.') {
    if (exportsMap === undefined) targets.push(typeof manifest.main === 'string' ? manifest.main : 'index.js');
    if (typeof manifest.module === 'string') targets.push(manifest.module);
    targetsOf(manifest.bin, targets);
  } else if (exportsMap === undefined) targets.push(subpath);
  // A `types` condition's declaration file never runs.
  for (const target of targets) if (!DECLARATION_FILE.test(target)) files.push(...jsFileCandidates(path.resolve(dir, target)));
  return files;
}

const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/** What `node_modules/<name>` resolves to from `fromDir`, looking up to the project root (a directory for a package, a file for a `.bin/` program). */
export function inNodeModules(name: string, fromDir: string, root: string, kind: 'directory' | 'file'): string | undefined {
  for (let dir = fromDir; isPathStrictlyWithin(root, dir) || dir === root; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (kind === 'directory' ? isDirectory(candidate) : regularFileSize(candidate) !== undefined) return candidate;
    if (dir === root) break;
  }
  return undefined;
}

/** `#name` through the `imports` map of the package.json nearest above `fromDir` (inside the project). */
function packageImports(spec: string, fromDir: string, root: string): string[] {
  for (let dir = fromDir; isPathStrictlyWithin(root, dir) || dir === root; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (regularFileSize(manifest) !== undefined) {
      try {
        const imports = (parseJsonWithinDepth(readFileSync(manifest, 'utf8')) as { imports?: unknown }).imports;
        if (!isMap(imports)) return [manifest];
        return [manifest, ...mappedTargets(imports, spec).flatMap((target) => (target.startsWith('.') ? jsFileCandidates(path.resolve(dir, target)) : []))];
      } catch {
        return [manifest];
      }
    }
    if (dir === root) break;
  }
  return [];
}

/** What a JavaScript name resolves to from `file`'s folder: relative, `#imports`, or a package (from the path as named and as it really is, as Node resolves from the real path; then `NODE_PATH`). */
export function resolveJs(spec: string, fromDir: string, root: string, search: SearchPaths): string[] {
  if (spec === '' || spec.startsWith('node:') || /^[a-z][a-z0-9+.-]*:/i.test(spec)) return [];
  if (spec.startsWith('.') || spec.startsWith('/')) return jsFileCandidates(path.resolve(fromDir, spec));
  if (spec.startsWith('#')) return packageImports(spec, fromDir, root);
  const parts = spec.split('/');
  const nameParts = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameParts).join('/');
  const rest = parts.slice(nameParts).join('/');
  const found: string[] = [];
  let real = fromDir;
  try {
    real = realpathSync(fromDir);
  } catch {
    // As named.
  }
  const dirs = new Set<string>();
  for (const from of [fromDir, real]) {
    const dir = inNodeModules(name, from, root, 'directory');
    if (dir !== undefined) dirs.add(dir);
  }
  for (const entry of search.node) if (isDirectory(path.join(entry, name))) dirs.add(path.join(entry, name));
  for (const dir of dirs) found.push(...packageFiles(dir, rest === '' ? '.' : `./${rest}`));
  // A NODE_PATH folder may hold the name as a file too (`require('helper')` → `lib/helper.js`).
  for (const entry of search.node) found.push(...jsFileCandidates(path.join(entry, spec)).filter((file) => !file.endsWith('package.json')));
  return found;
}

/**
 * The names a piece of JavaScript imports or requires (literal ones), read from the text as
 * written and without its comments, with every literal that is a relative or absolute path (as
 * any call may hand it to a loader): `sure`; and the first literal argument of any call: `calls`.
 */
function jsNames(text: string): { sure: Set<string>; calls: Set<string> } {
  const sure = new Set<string>();
  const calls = new Set<string>();
  const plain = withoutComments(text);
  for (const source of plain === text ? [text] : [text, plain]) {
    for (const pattern of JS_SPECIFIER) for (const match of source.matchAll(pattern)) sure.add(match[1]!.trim());
    for (const match of source.matchAll(CALL_ARGUMENT)) calls.add(match[1]!.trim());
    for (const { value } of quotedLiterals(source)) if (/^\.{0,2}\//.test(value.trim())) sure.add(value.trim());
  }
  return { sure, calls };
}

/** Every name a piece of JavaScript may load (see jsNames). */
export function jsSpecifiers(text: string): string[] {
  const { sure, calls } = jsNames(text);
  return [...new Set([...sure, ...calls])];
}

/** Whether a `node_modules` between `fromDir` and the root (or a NODE_PATH folder) holds the package a bare name starts with. */
function mayBePackage(spec: string, fromDir: string, root: string, search: SearchPaths, probed?: Set<string>): boolean {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('#')) return true;
  const name = spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
  if (search.node.length > 0) return true;
  for (let dir = fromDir; isPathStrictlyWithin(root, dir) || dir === root; dir = path.dirname(dir)) {
    if (listedIn(path.join(dir, 'node_modules', name), probed)) return true;
    if (dir === root) break;
  }
  // Resolved from the real path too (pnpm's layout): looked up there by resolveJs itself.
  try {
    return realpathSync(fromDir) !== fromDir;
  } catch {
    return false;
  }
}

function jsLoads(file: string, text: string, root: string, search: SearchPaths, probed?: Set<string>): string[] {
  const here = path.dirname(file);
  const { sure, calls } = jsNames(text);
  for (const spec of calls) if (mayBePackage(spec, here, root, search, probed)) sure.add(spec);
  return [...sure].flatMap((spec) => resolveJs(spec, here, root, search));
}

/** A dotted module's files under a base folder: each package's `__init__.py` on the way, and the module as a file or a package. */
function pythonModuleFiles(base: string, dotted: string): string[] {
  const parts = dotted.split('.').filter((part) => part !== '');
  const found: string[] = [];
  let dir = base;
  for (const [i, part] of parts.entries()) {
    const packageDir = path.join(dir, part);
    const init = path.join(packageDir, '__init__.py');
    if (regularFileSize(init) !== undefined) found.push(init);
    if (i === parts.length - 1) {
      const asFile = path.join(dir, `${part}.py`);
      if (regularFileSize(asFile) !== undefined) found.push(asFile);
    } else if (!isDirectory(packageDir)) break;
    dir = packageDir;
  }
  return found;
}

/** What `from <package> import *` may load: the package's `__init__.py` and every module in it (its `__all__` may name any). */
function pythonStarFiles(packageDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(packageDir);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names) {
    if (found.length > MAX_STAR_MODULES) break;
    const file = path.join(packageDir, name);
    if (/\.pyw?$/.test(name) && regularFileSize(file) !== undefined) found.push(file);
    else if (!name.includes('.') && regularFileSize(path.join(file, '__init__.py')) !== undefined) found.push(path.join(file, '__init__.py'));
  }
  return found;
}

/** The files Python imports for `text` run from `here` (its folder first, then the project root as `-m` and the current folder give, then `PYTHONPATH`). */
export function pythonTextLoads(text: string, here: string, root: string, search: SearchPaths): string[] {
  const found: string[] = [];
  const plainBases = [here, root, ...search.python];
  for (const { dots, module, names } of pythonImports(text)) {
    const bases = dots > 0 ? [path.resolve(here, ...Array<string>(dots - 1).fill('..'))] : plainBases;
    for (const base of bases) {
      if (module !== '') found.push(...pythonModuleFiles(base, module));
      for (const name of names) {
        // `from pkg import *`: what the package is and holds; `from pkg import sub` may name a submodule.
        if (name === '*') found.push(...pythonStarFiles(path.join(base, ...module.split('.').filter((part) => part !== ''))));
        else found.push(...pythonModuleFiles(base, module === '' ? name : `${module}.${name}`));
      }
    }
  }
  return found;
}

/** What `python -m <module>` runs: the module, or a package's `__init__.py` and `__main__.py`, from each base. */
export function pythonMainFiles(module: string, bases: readonly string[]): string[] {
  return bases.flatMap((base) => [...pythonModuleFiles(base, module), ...pythonModuleFiles(base, `${module}.__main__`)]);
}

/** A script by its mode or its first bytes (`#!`): what a path without a code extension must be to count. */
function isScript(file: string, mode: number): boolean {
  if ((mode & 0o111) !== 0) return true;
  try {
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const start = Buffer.alloc(2);
      return readSync(fd, start, 0, 2, 0) === 2 && start.toString('latin1') === '#!';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Folder listings by the folder's stamp (its change time moves with any entry added or removed). */
const listings = new Map<string, { stamp: string; names: Set<string> }>();
const MAX_LISTINGS = 4096;

/**
 * Whether `target`'s folder holds an entry of its name: a bundle spells thousands of literals,
 * and a listing is cheaper than a stat of each. The folder looked in (or, missing, the nearest
 * one above that exists) goes to `probed`: a file made there later must change what the trust
 * scan remembers (trust-code-stamps.ts stamps those folders).
 */
function listedIn(target: string, probed?: Set<string>): boolean {
  const dir = path.dirname(target);
  let stamp: string;
  try {
    const info = statSync(dir, { bigint: true });
    if (!info.isDirectory()) return false;
    stamp = `${info.dev}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}`;
    probed?.add(dir);
  } catch {
    let up = path.dirname(dir);
    while (probed && up !== path.dirname(up) && !isDirectory(up)) up = path.dirname(up);
    probed?.add(up);
    return false;
  }
  let known = listings.get(dir);
  if (known?.stamp !== stamp) {
    let names: Set<string>;
    try {
      names = new Set(readdirSync(dir));
    } catch {
      return false;
    }
    if (listings.size >= MAX_LISTINGS) listings.clear();
    listings.set(dir, (known = { stamp, names }));
  }
  return known.names.has(path.basename(target));
}

/**
 * The project files of code the literals and words of `text` name (trust-code-literals.ts), from
 * `here` or the project root (`/x.js` after a folder expression, `__dirname + '/x.js'`, from
 * both too): any language's way to run or load a file by its name.
 */
export function literalLoads(text: string, here: string, root: string, probed?: Set<string>): string[] {
  const found = new Set<string>();
  for (const raw of pathCandidates(text)) {
    const name = raw.replace(/^file:\/\//, '');
    if (/^[a-z][a-z0-9+.-]*:/i.test(name) || name.includes('\0')) continue;
    const code = CODE_EXTENSION.test(name);
    // A word without a code extension is a file's name only as a path (`bin/server`), not prose or data.
    if (!code && !(name.includes('/') && /^[\w.@~/+-]+$/.test(name))) continue;
    const targets = new Set([path.resolve(here, name), path.resolve(root, name)]);
    if (name.startsWith('/')) {
      targets.add(path.join(here, name));
      targets.add(path.join(root, name));
    }
    for (const target of targets) {
      if (found.has(target) || !isPathStrictlyWithin(root, target) || !listedIn(target, probed)) continue;
      let info;
      try {
        info = statSync(target);
      } catch {
        continue;
      }
      if (info.isFile() && (code || isScript(target, info.mode))) found.add(target);
      // A folder Python runs (`runpy.run_path("app")`, `python app`) starts at its `__main__.py`.
      else if (info.isDirectory() && regularFileSize(path.join(target, '__main__.py')) !== undefined) found.add(path.join(target, '__main__.py'));
    }
  }
  return [...found];
}

/**
 * The project files `file` loads directly (not following further). `wordFiles` turns a shell
 * script's words into the files they name, as the command scan does for settings. `probed`
 * collects the folders its literals were looked up in (see listedIn).
 */
export function directLoads(file: string, root: string, wordFiles: (text: string, base: string) => string[], search: SearchPaths = NO_SEARCH_PATHS, probed?: Set<string>): string[] {
  const text = head(file);
  if (text === undefined) return [];
  const language = languageOf(file, text);
  const here = path.dirname(file);
  const found: string[] = [];
  // A file of no known language (`node bin/server`, `sh scripts/start`) is read every way.
  if (language === 'js' || language === undefined) found.push(...jsLoads(file, text, root, search, probed));
  if (language === 'python' || language === undefined) found.push(...pythonTextLoads(text, here, root, search));
  if (language === 'shell' || language === undefined) found.push(...wordFiles(text, here));
  found.push(...literalLoads(text, here, root, probed));
  const inside = new Set<string>();
  for (const candidate of found) {
    if (candidate === file || inside.has(candidate)) continue;
    let real = candidate;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (isPathStrictlyWithin(root, candidate) || isPathStrictlyWithin(root, real)) inside.add(candidate);
  }
  return [...inside];
}
