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
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const IMPORT_CONDITIONS: readonly string[] = ['node', 'import', 'default'];

/** `@scope/pkg/a/b` → { name: '@scope/pkg', subpath: './a/b' }; `pkg` → subpath '.'. */
function splitSpec(spec: string): { name: string; subpath: string } {
  const parts = spec.split('/');
  const count = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, count).join('/');
  const rest = parts.slice(count).join('/');
  return { name, subpath: rest === '' ? '.' : `./${rest}` };
}

/** The entry of `spec` from `baseDir`'s node_modules (and those above it); throws a sentence when there is none. */
export function resolvePackageEntry(spec: string, baseDir: string): string {
  const require = createRequire(path.join(baseDir, 'package.json'));
  const { name, subpath } = splitSpec(spec);
  for (const modules of require.resolve.paths(spec) ?? []) {
    const dir = path.join(modules, name);
    if (!isDirectory(dir)) continue;
    const manifest = readManifest(dir);
    if (manifest?.exports === undefined || manifest.exports === null) break; // no exports: require.resolve's rules
    const target = exportTarget(manifest.exports, subpath);
    if (target === undefined) break; // not exported for import; maybe for require (a CommonJS package)
    const file = path.resolve(dir, target);
    const relative = path.relative(dir, file);
    if (!target.startsWith('./') || relative.startsWith('..') || path.isAbsolute(relative) || relative.split(path.sep).includes('node_modules')) {
      throw new Error(`package ${name} exports ${subpath} as "${target}", which is outside the package`);
    }
    if (!existsSync(file)) throw new Error(`package ${name} exports ${subpath} as ${target}, but there is no file at ${file}`);
    return file;
  }
  try {
    return require.resolve(spec);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw new Error(`package ${name} does not export ${subpath} (its package.json "exports" define no such subpath for import or require)`);
    throw new Error(`package not found from ${baseDir} (${((error as Error).message ?? String(error)).split('\n')[0]})`);
  }
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
function exportTarget(exports: unknown, subpath: string): string | undefined {
  const isSubpathMap = typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
  if (!isSubpathMap) return subpath === '.' ? conditionalTarget(exports, undefined) : undefined; // "exports": "./x.js" or { import: … }
  const map = exports as Record<string, unknown>;
  if (Object.hasOwn(map, subpath) && !subpath.includes('*')) return conditionalTarget(map[subpath], undefined);
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
  return best ? conditionalTarget(map[best.key], best.match) : undefined;
}

/** A target: a string (with `*` replaced by the pattern's match), an array (first that resolves), or conditions in their order. */
function conditionalTarget(target: unknown, match: string | undefined): string | undefined {
  if (typeof target === 'string') return match === undefined ? target : target.replaceAll('*', match);
  if (Array.isArray(target)) {
    for (const item of target) {
      const resolved = conditionalTarget(item, match);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  if (typeof target === 'object' && target !== null) {
    for (const [condition, value] of Object.entries(target)) {
      if (!IMPORT_CONDITIONS.includes(condition)) continue;
      const resolved = conditionalTarget(value, match);
      if (resolved !== undefined) return resolved;
    }
  }
  return undefined; // null (excluded) or no matching condition
}
