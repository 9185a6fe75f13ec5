/**
 * A managed plugin's files must lie in the managed directory (PluginSpec.confined): package-entry.ts
 * checks its entry files' real paths, and this module resolution hook (node:module `register`, as
 * running-mewcode.ts registers its own) checks every module a file in that directory imports: an
 * `import './helper.mjs'` whose link leads outside it (a user-writable file) is refused, so the
 * import fails and the required plugin ends the run naming the file. Modules of the running
 * MewCode (`mewcode`, its dependencies) and Node's built-ins are allowed. A `require()` from such a
 * file is not seen by the hook (Node 20 runs resolve hooks for imports only).
 */
import { realpathSync } from 'node:fs';
import { register } from 'node:module';
import { runningMewcodeRoot } from './running-mewcode.js';

const HOOKS = `
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
let root; let allowed;
export function initialize(data) { root = data.root; allowed = data.allowed; }
const within = (file, dir) => file === dir || file.startsWith(dir.endsWith('/') ? dir : dir + '/');
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const parent = context.parentURL && context.parentURL.startsWith('file:') ? fileURLToPath(context.parentURL) : undefined;
  if (parent === undefined || !within(parent, root) || !result.url.startsWith('file:')) return result;
  let real;
  try { real = realpathSync(fileURLToPath(result.url)); } catch { return result; }
  if (within(real, root) || allowed.some((dir) => within(real, dir))) return result;
  throw new Error(parent + ' imports ' + specifier + ', which leads to ' + real + ', outside ' + root + ': a managed plugin\\'s files must lie in the managed settings\\' directory');
}
`;

const confined = new Set<string>();

/** Before a managed plugin from `dir` is imported: every import its files make must stay in `dir`. */
export function confineImports(dir: string): void {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return; // no such directory: resolving the plugin fails first, naming it
  }
  if (confined.has(root)) return;
  const running = runningMewcodeRoot();
  const allowed = running === undefined ? [] : [realpathSync(running)];
  try {
    register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { root, allowed } });
    confined.add(root);
  } catch {
    // No hooks here (a test runner's own module sandbox): only the entry files are checked.
  }
}
