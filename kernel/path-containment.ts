/**
 * SPEC A3 path containment, shared by the sandbox layer and tools that take a directory
 * (bash's workdir, glob and grep roots): make the path absolute against the project root,
 * normalise it, resolve symlinks (for a path that does not exist yet, through its nearest
 * existing ancestor, then re-append the rest), and require `resolved === root` or a prefix of
 * `root + separator` — never a bare string prefix (`/repo2` is not inside `/repo`).
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

export type Containment = { inside: true; resolved: string } | { inside: false; resolved: string };

/** The real path of `target`, resolving symlinks of its nearest existing ancestor. */
export async function resolveReal(target: string): Promise<string> {
  const missing: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(target);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

export function isWithin(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Expand a leading `~` (the model sometimes writes it) against the home directory. */
export function expandHome(input: string, homeDir: string): string {
  if (input === '~') return homeDir;
  if (input.startsWith('~/')) return path.join(homeDir, input.slice(2));
  return input;
}

export async function containPath(root: string, input: string, homeDir: string): Promise<Containment> {
  const realRoot = await resolveReal(root);
  const resolved = await resolveReal(path.resolve(root, expandHome(input, homeDir)));
  return { inside: isWithin(realRoot, resolved), resolved };
}
