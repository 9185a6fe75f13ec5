/**
 * The file a plugin package name (`pkg`, `pkg/sub/path`, `@scope/pkg/sub`) stands for, found the
 * way Node's `import` finds it: a package's `exports` are read under the conditions `node`,
 * `import`, `default` (exact subpaths, `*` patterns, nested conditions, arrays, `null` exclusions).
 * Loading a plugin is an `import()`, so a package exporting both `import` and `require` is loaded as
 * its ES module. Node's own resolver cannot be asked from a chosen directory without a flag
 * (`import.meta.resolve`'s parent argument), hence this reading of the documented algorithm. A
 * package without `exports`, or one that exports only `require`, is resolved by `require.resolve`
 * (`main`, `index.js`, file extensions), which `import()` then loads as CommonJS.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isPathStrictlyWithin, isPathWithin } from '../types/path-within.js';

const IMPORT_CONDITIONS: readonly string[] = ['node', 'import', 'default'];
const REQUIRE_CONDITIONS: readonly string[] = ['node', 'require', 'default'];

/** `@scope/pkg/a/b` → { name: '@scope/pkg', subpath: './a/b' }; `pkg` → subpath '.'. */
function splitSpec(spec: string): { name: string; subpath: string } {
  const parts = spec.split('/');
  const count = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, count).join('/');
  const rest = parts.slice(count).join('/');
  return { name, subpath: rest === '' ? '.' : `./${rest}` };
}

/**
 * The directory of package `name`: the first `<dir>/node_modules/<name>` on Node's lookup path
 * from `baseDir` (the directories above it, then NODE_PATH and the global folders such as
 * `~/.node_modules`), or — `confined` — `<baseDir>/node_modules/<name>` alone. Undefined when none.
 */
function packageDir(name: string, baseDir: string, confined: boolean): string | undefined {
  const lookup = confined ? [path.join(baseDir, 'node_modules')] : (createRequire(path.join(baseDir, 'package.json')).resolve.paths(name) ?? []);
  return lookup.map((modules) => path.join(modules, name)).find(isDirectory);
}

/**
 * The entry of `spec` from `baseDir`'s node_modules (and those above it); throws a sentence when there is none.
 * `confined` (the organisation's managed plugins): from `<baseDir>/node_modules` only — not the
 * directories above it, NODE_PATH or the global folders, where a user could place a package of
 * that name — and the file's real path must lie in `baseDir`.
 */
export function resolvePackageEntry(spec: string, baseDir: string, confined = false): string {
  const { name, subpath } = splitSpec(spec);
  const dir = packageDir(name, baseDir, confined);
  if (confined && dir === undefined) throw new Error(notConfinedText(name, baseDir));
  const exports = dir === undefined ? undefined : readManifest(dir)?.exports;
  if (dir !== undefined && exports !== undefined && exports !== null) {
    // Not exported for import: maybe for require (a CommonJS package), which require.resolve reads below.
    const target = exportTarget(exports, subpath, IMPORT_CONDITIONS) ?? (confined ? exportTarget(exports, subpath, REQUIRE_CONDITIONS) : undefined);
    if (target !== undefined) return confinedTo(exportedFile(name, subpath, dir, target), baseDir, name, confined);
    if (confined) throw new Error(`package ${name} does not export ${subpath} (its package.json "exports" define no such subpath for import or require)`);
  }
  if (confined) {
    // No exports: Node's CommonJS rules (`main`, `index.js`, extensions) on this directory's own
    // path, which never looks in another node_modules.
    try {
      return confinedTo(createRequire(path.join(baseDir, 'package.json')).resolve(path.join(dir!, subpath)), baseDir, name, true);
    } catch (error) {
      if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
      throw new Error(`package ${name} in ${dir} has no entry for ${subpath} (its package.json "main", or an index.js)`);
    }
  }
  const require = createRequire(path.join(baseDir, 'package.json'));
  try {
    return require.resolve(spec);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw new Error(`package ${name} does not export ${subpath} (its package.json "exports" define no such subpath for import or require)`);
    throw new Error(`package not found from ${baseDir} (${((error as Error).message ?? String(error)).split('\n')[0]})`);
  }
}

function notConfinedText(name: string, baseDir: string): string {
  return `package ${name} is not in ${path.join(baseDir, 'node_modules')}: a managed plugin is resolved from there only (not from the directories above it, NODE_PATH or the global folders such as ~/.node_modules)`;
}

/** The file an `exports` target names, which must be inside the package. */
function exportedFile(name: string, subpath: string, dir: string, target: string): string {
  const file = path.resolve(dir, target);
  if (!target.startsWith('./') || !isPathWithin(dir, file) || path.relative(dir, file).split(path.sep).includes('node_modules')) {
    throw new Error(`package ${name} exports ${subpath} as "${target}", which is outside the package`);
  }
  if (!existsSync(file)) throw new Error(`package ${name} exports ${subpath} as ${target}, but there is no file at ${file}`);
  return file;
}

/** `file`, when not confined or when its real path (links followed) lies in `baseDir`'s; otherwise a sentence naming both. */
function confinedTo(file: string, baseDir: string, name: string, confined: boolean): string {
  if (!confined) return file;
  const real = realpathSync(file);
  const root = realpathSync(baseDir);
  if (!isPathStrictlyWithin(root, real)) {
    throw new Error(`package ${name} in ${path.join(baseDir, 'node_modules')} leads to ${real}, outside ${root}: a managed plugin's files must lie in the managed settings' directory`);
  }
  return file;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function readManifest(dir: string): { exports?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { exports?: unknown };
  } catch {
    return undefined; // no or unreadable package.json: require.resolve reports it
  }
}

/** The target path for `subpath` in an `exports` value; undefined when not exported (for these conditions). */
function exportTarget(exports: unknown, subpath: string, conditions: readonly string[]): string | undefined {
  const isSubpathMap = typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
  if (!isSubpathMap) return subpath === '.' ? conditionalTarget(exports, undefined, conditions) : undefined; // "exports": "./x.js" or { import: … }
  const map = exports as Record<string, unknown>;
  if (Object.hasOwn(map, subpath) && !subpath.includes('*')) return conditionalTarget(map[subpath], undefined, conditions);
  // `*` patterns: the longest prefix before the `*` wins, then the longer key (Node's PATTERN_KEY_COMPARE).
  let best: { key: string; match: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star === -1 || key.indexOf('*', star + 1) !== -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (!subpath.startsWith(prefix) || subpath === prefix || !subpath.endsWith(suffix) || subpath.length < key.length) continue;
    if (best && (prefix.length < best.key.indexOf('*') || (prefix.length === best.key.indexOf('*') && key.length <= best.key.length))) continue;
    best = { key, match: subpath.slice(prefix.length, subpath.length - suffix.length) };
  }
  return best ? conditionalTarget(map[best.key], best.match, conditions) : undefined;
}

/** A target: a string (with `*` replaced by the pattern's match), an array (first that resolves), or conditions in their order. */
function conditionalTarget(target: unknown, match: string | undefined, conditions: readonly string[]): string | undefined {
  if (typeof target === 'string') return match === undefined ? target : target.replaceAll('*', match);
  if (Array.isArray(target)) {
    for (const item of target) {
      const resolved = conditionalTarget(item, match, conditions);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  if (typeof target === 'object' && target !== null) {
    for (const [condition, value] of Object.entries(target)) {
      if (!conditions.includes(condition)) continue;
      const resolved = conditionalTarget(value, match, conditions);
      if (resolved !== undefined) return resolved;
    }
  }
  return undefined; // null (excluded) or no matching condition
}

/**
 * Several plugins in one package: `"mewcode": { "plugins": ["./dist/policy.js", "./dist/tool.js"] }`
 * in the package.json of `spec` (a bare package name). Undefined when the package is not found from
 * `baseDir` (`confined`: in `<baseDir>/node_modules` alone, as for its entry); null when it declares
 * no such list (its entry is the plugin); the files, inside the package, when it does; a sentence
 * naming the package.json and the entry when the list is malformed.
 */
export function manifestPluginFiles(spec: string, baseDir: string, confined = false): string[] | null | undefined {
  const { name, subpath } = splitSpec(spec);
  if (subpath !== '.' || spec.startsWith('.') || path.isAbsolute(spec)) return undefined;
  const dir = packageDir(name, baseDir, confined);
  if (dir === undefined) return undefined;
  const manifestFile = path.join(dir, 'package.json');
  const declared = (readManifest(dir) as { mewcode?: { plugins?: unknown } } | undefined)?.mewcode?.plugins;
  if (declared === undefined) return null;
  if (!Array.isArray(declared) || declared.length === 0 || !declared.every((entry) => typeof entry === 'string')) {
    throw new Error(`${manifestFile}: "mewcode.plugins" must be a non-empty list of paths inside the package, like ["./dist/policy.js"]`);
  }
  return declared.map((entry: string) => {
    const file = path.resolve(dir, entry);
    if (!isPathStrictlyWithin(dir, file)) throw new Error(`${manifestFile}: "mewcode.plugins" names ${entry}, which is outside the package`);
    if (!existsSync(file)) throw new Error(`${manifestFile}: "mewcode.plugins" names ${entry}, but there is no file at ${file}`);
    return confinedTo(file, baseDir, name, confined);
  });
}
