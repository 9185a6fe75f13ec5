/**
 * One MewCode per process: a plugin's `import 'mewcode'` / `'mewcode/sdk'` must load the MewCode
 * that is running, never a copy of its own. A second copy brings a second inversify, tapable and
 * kernel, whose `ContainerModule`, hooks and tokens the running kernel does not know, and costs a
 * whole second load. Plugins declare `mewcode` as a peer dependency and `mewcode plugin add`
 * links it to the running one, but a plugin can still be found beside another copy (a plugin
 * folder with its dev dependencies, a project with its own `mewcode`) or where no `mewcode` can
 * be found at all (a plugin file named by path).
 *
 * For those, when one that uses MewCode is about to be imported, a module resolution hook is
 * registered (node:module `register`): `mewcode` and `mewcode/…` imported from outside the running
 * package are resolved as the running package resolves its own name (Node's package
 * self-reference through its `exports`). The hook runs on a thread of its own, whose start costs
 * tens of milliseconds, so it is registered only for a plugin that does not already reach the
 * running MewCode and that uses one: its package.json names `mewcode` (a peer, dev or plain
 * dependency), or, for a file outside any package that names it, its text imports `mewcode`.
 * Where the loader cannot take hooks (a test runner's sandbox), the plugin loads as before.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HOOKS = `
let root;
export function initialize(data) { root = data.root; }
export async function resolve(specifier, context, next) {
  if ((specifier === 'mewcode' || specifier.startsWith('mewcode/')) && !(context.parentURL ?? '').startsWith(root)) {
    return next(specifier, { ...context, parentURL: root + 'package.json' });
  }
  return next(specifier, context);
}
`;

let registered = false;

/** The package root of the running MewCode (its package.json is named "mewcode"), or undefined. */
export function runningMewcodeRoot(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (packageName(dir) === 'mewcode') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Before `file` (a plugin) is imported: make its `mewcode` imports reach the running MewCode. */
export function importsRunningMewcode(file: string): void {
  if (registered) return;
  const root = runningMewcodeRoot();
  if (root === undefined) return; // not running from a package (nothing to point at)
  const real = realpathSync(root);
  if (mewcodeSeenFrom(file) === real || !usesMewcode(file)) return;
  try {
    register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { root: pathToFileURL(real).href.replace(/\/?$/, '/') } });
    registered = true;
  } catch {
    // No hooks here (a test runner's own module sandbox): imports resolve as Node finds them.
  }
}

const MEWCODE_IMPORT = /(?:from|import)\s*\(?\s*['"]mewcode(?:\/[^'"]*)?['"]/;

/** Whether the plugin at `file` imports MewCode: by its package's manifest, else by its text. */
function usesMewcode(file: string): boolean {
  const manifest = nearestManifest(path.dirname(file));
  if (manifest !== undefined) {
    const named = ['dependencies', 'peerDependencies', 'devDependencies', 'optionalDependencies'].some((field) => Object.hasOwn(asRecord(manifest[field]), 'mewcode'));
    if (named) return true;
  }
  try {
    return MEWCODE_IMPORT.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/** The package.json of the package `dir` belongs to (the nearest one above it, not crossing node_modules). */
function nearestManifest(dir: string): Record<string, unknown> | undefined {
  for (;;) {
    const manifest = readManifest(dir);
    if (manifest !== undefined) return manifest;
    const parent = path.dirname(dir);
    if (parent === dir || path.basename(dir) === 'node_modules') return undefined;
    dir = parent;
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The real root of the `mewcode` package `file` would import, or undefined when it finds none. */
function mewcodeSeenFrom(file: string): string | undefined {
  try {
    return realpathSync(path.dirname(createRequire(file).resolve('mewcode/package.json')));
  } catch {
    return undefined;
  }
}

function packageName(dir: string): unknown {
  return readManifest(dir)?.name;
}

function readManifest(dir: string): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')));
  } catch {
    return undefined;
  }
}
