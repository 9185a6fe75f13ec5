/**
 * One MewCode per process: a plugin's `import 'mewcode'` / `'mewcode/sdk'` must load the MewCode
 * that is running, never a copy of its own. A second copy brings a second inversify, tapable and
 * kernel, whose `ContainerModule`, hooks and tokens the running kernel does not know, and costs a
 * whole second load. Plugins declare `mewcode` as a peer dependency and `mewcode plugin add`
 * links it to the running one, but a plugin can still be found beside another copy (a plugin
 * folder with its dev dependencies, a project with its own `mewcode`) or where no `mewcode` can
 * be found at all (a plugin file named by path).
 *
 * For those, and only when one is about to be imported, a module resolution hook is registered
 * (node:module `register`): `mewcode` and `mewcode/…` imported from outside the running package
 * are resolved as the running package resolves its own name (Node's package self-reference
 * through its `exports`). When every plugin already reaches the running MewCode, nothing is
 * registered (the hook runs on a thread of its own, which costs start-up time).
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
  if (mewcodeSeenFrom(file) === real) return;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { root: pathToFileURL(real).href.replace(/\/?$/, '/') } });
  registered = true;
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
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
