/**
 * Destructive verbs aimed outside the project: a recursive `rm`, `find …
 * -delete` / `-exec rm`, `mv`, `chmod -R` / `chown -R` / `chgrp -R`, `dd of=`, `truncate`,
 * `shred` or `tar --remove-files` whose target is not a literal path inside the project is
 * dangerous. "Literal inside" means: no expansion (`$X`, `${X:?}`, `$(…)`, backquotes), no `~`,
 * no glob over the top of the project or followed by `..`, and — lexically and with symlinks resolved (dangling links
 * followed, as the sandbox does) — inside the project root or an additional directory, from the
 * directory the command runs in (unknown after `cd "$X"`: nothing relative is literal then) —
 * and walked as the kernel walks it (`link/..` beside the link's target; nothing through
 * `/proc/self/cwd` or another process-relative path, sdk/process-paths.ts). On a line where
 * another segment may make or move a link first (sdk/shell-command/link-makers.ts) no operand
 * is literal inside: that link is not there when the line is checked.
 * This is what turns "rm -rf $X", "find ~ -delete" and "mv ~ /tmp/x" into denials without
 * having to guess what each spelling expands to.
 */
import path from 'node:path';
import { resolveRealSync } from '../../sdk/path-containment.js';
import { physicalWalk } from '../../sdk/process-paths.js';
import { HOME, expandBraces, type Inside, type Where } from './targets.js';

export type { Inside } from './targets.js';

const GLOB = /[*?[]/;
/** A path component that is nothing but a glob (`*`, `.*`, `?*`): "everything here". */
const GLOB_ONLY = /^\.?[*?]+$|^\.\*.*$/;

/** The directory the command runs in as a real absolute path (the home marker replaced). */
function absoluteCwd(where: Where): string | undefined {
  const cwd = where.cwd;
  if (cwd === undefined) return undefined;
  if (cwd === HOME || cwd.startsWith(`${HOME}/`)) return where.home === undefined ? undefined : where.home + cwd.slice(HOME.length);
  return cwd;
}

function within(roots: readonly string[], candidate: string, rootItself: boolean): boolean {
  return roots.some((root) => (rootItself && candidate === root) || candidate.startsWith(root.endsWith('/') ? root : `${root}/`));
}

/**
 * Whether `operand` is a literal path inside the project (see the file comment). `rootItself`:
 * whether the project root itself counts (it does for `find .`, not for `rm -rf ../project`).
 */
export function literalInside(operand: string, where: Where, inside: Inside, rootItself: boolean): boolean {
  if (operand === '' || /[$`]/.test(operand) || operand.startsWith('~') || operand.includes('\0')) return false;
  if (where.linkedBy !== undefined) return false; // a link the line makes first is not there yet
  const cwd = absoluteCwd(where);
  for (const alternative of expandBraces(operand)) {
    if (!alternative.startsWith('/') && cwd === undefined) return false;
    const parts = alternative.split('/');
    const globAt = parts.findIndex((part) => GLOB.test(part));
    let subject: string;
    if (globAt === -1) subject = path.posix.resolve(cwd ?? '/', alternative);
    else {
      if (parts.slice(globAt + 1).includes('..')) return false; // `*/../..` can climb anywhere
      const parent = path.posix.resolve(cwd ?? '/', parts.slice(0, globAt).join('/') || (alternative.startsWith('/') ? '/' : '.'));
      // `rm -rf *` at the top of the project (or above it): everything there.
      if (GLOB_ONLY.test(parts[globAt]!) && !within(inside.roots, parent, false)) return false;
      if (!within(inside.roots, parent, true)) return false;
      subject = parent;
    }
    if (!within(inside.roots, subject, rootItself || globAt !== -1)) return false;
    let real: string;
    try {
      real = resolveRealSync(subject);
    } catch {
      return false; // a link loop or an unreadable ancestor: cannot tell where it leads
    }
    if (!within(inside.roots, real, rootItself || globAt !== -1)) return false;
    // Walked as the kernel walks it (sdk/process-paths.ts): `/proc/self/cwd` or a link there is the
    // command's directory, never resolved in MewCode's process; `link/..` is beside the link's target.
    const written = (alternative.startsWith('/') ? alternative : `${cwd}/${alternative}`).split('/');
    const writtenGlob = written.findIndex((part) => GLOB.test(part));
    const walked = physicalWalk((writtenGlob === -1 ? written : written.slice(0, writtenGlob)).join('/') || '/');
    if (walked.through !== undefined) return false;
    let physical: string;
    try {
      physical = resolveRealSync(walked.physical);
    } catch {
      return false;
    }
    if (!within(inside.roots, physical, rootItself || globAt !== -1)) return false;
  }
  return true;
}

/** Real paths of the project root and additional directories (unresolvable ones are kept as written). */
export function insideRoots(projectRoot: string, additional: readonly string[]): Inside {
  const key = [projectRoot, ...additional].join('\u0000');
  const cached = insideCache.get(key);
  if (cached) return cached;
  const inside = resolveInside(projectRoot, additional);
  if (insideCache.size > 16) insideCache.clear();
  insideCache.set(key, inside);
  return inside;
}

const insideCache = new Map<string, Inside>();

function resolveInside(projectRoot: string, additional: readonly string[]): Inside {
  const roots = [projectRoot, ...additional].map((dir) => {
    try {
      return resolveRealSync(dir);
    } catch {
      return path.resolve(dir);
    }
  });
  return { roots: [...new Set(roots.map((r) => (r.length > 1 && r.endsWith('/') ? r.slice(0, -1) : r)))] };
}
