/**
 * The sandbox decision for one path (A3): the path is made absolute against the project root
 * (`~` expanded: expandHome of sdk/path-containment.ts), normalised, and its symlinks resolved
 * through the nearest existing ancestor; it must then equal the real project root (or an allowed
 * additional directory) or lie below it plus a separator (that module's isWithin — never a bare
 * string prefix).
 *
 * The resolution is that module's resolveReal, done synchronously (resolveRealSync) and hardened:
 * - synchronous (lstat + realpath(3)): a few microseconds on a local disk, where the async
 *   version costs a thread-pool round trip per call (≈ 4× slower at p50, milliseconds at p99
 *   under load), and the whole permission chain has a p50 budget of 0.2 ms;
 * - a *dangling* symlink (`link -> /etc/new-file`) makes realpath fail, and resolveReal then
 *   re-appends the link's own name as if it were an ordinary missing file — inside the project —
 *   while writing through it creates the file outside. Such links are followed here (bounded, so a
 *   loop is an error like ELOOP).
 */
import path from 'node:path';
import { errorCode, expandHome, isWithin, resolveRealSync } from '../../sdk/path-containment.js';

export type SandboxResult =
  | { ok: true; resolved: string }
  /** `outside`: the path resolved, and lies outside the project and every allowed directory (as written, `~` expanded; and real). */
  | { ok: false; reason: string; outside?: { written: string; real: string } };

export interface SandboxScope {
  projectRoot: string;
  homeDir: string;
  /**
   * As written in settings: absolute, `~`-relative, or relative to the project root. A function
   * is called only when the path is outside the project root.
   */
  additionalDirectories: readonly string[] | (() => readonly string[]);
}


const HOW_TO_PROCEED = 'additional directories can be allowed in settings: permissions.additional_directories';

export async function checkSandboxPath(input: unknown, scope: SandboxScope): Promise<SandboxResult> {
  if (typeof input !== 'string' || input === '') return { ok: false, reason: 'could not read a file path from the call; send the path as a non-empty string' };
  if (input.includes('\0')) return { ok: false, reason: 'the path contains a NUL byte, which no file name can contain' };
  let root: string;
  try {
    root = realRoot(scope.projectRoot);
  } catch (error) {
    return { ok: false, reason: `the project root ${scope.projectRoot} cannot be resolved (${errorCode(error)}), so no path can be checked` };
  }
  let resolved: string;
  const written = path.resolve(scope.projectRoot, expandHome(input, scope.homeDir));
  try {
    resolved = resolveRealSync(written);
  } catch (error) {
    const code = errorCode(error);
    const why = code === 'ELOOP' ? 'a symbolic link loop' : code === 'ENAMETOOLONG' ? 'the path is too long' : code;
    return { ok: false, reason: `could not resolve ${input} (${why}); paths must stay inside the project root ${root}` };
  }
  if (isWithin(root, resolved)) return { ok: true, resolved };
  const additional = typeof scope.additionalDirectories === 'function' ? scope.additionalDirectories() : scope.additionalDirectories;
  for (const dir of additional) {
    const allowed = realDirectory(dir, scope);
    if (allowed !== undefined && isWithin(allowed, resolved)) return { ok: true, resolved };
  }
  const where = resolved === input ? `${input} is outside the project` : `${input} resolves to ${resolved}, outside the project`;
  return { ok: false, reason: `${where}: paths must stay inside the project root ${root}; ${HOW_TO_PROCEED}`, outside: { written, real: resolved } };
}

const rootCache = new Map<string, string>();

function realRoot(projectRoot: string): string {
  const cached = rootCache.get(projectRoot);
  if (cached !== undefined) return cached;
  const real = resolveRealSync(projectRoot);
  if (rootCache.size > 64) rootCache.clear();
  rootCache.set(projectRoot, real);
  return real;
}

function realDirectory(dir: string, scope: SandboxScope): string | undefined {
  if (typeof dir !== 'string' || dir === '' || dir.includes('\0')) return undefined;
  try {
    return resolveRealSync(path.resolve(scope.projectRoot, expandHome(dir, scope.homeDir)));
  } catch {
    return undefined; // an additional directory that cannot be resolved allows nothing
  }
}

