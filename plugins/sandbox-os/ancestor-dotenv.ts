/**
 * Dotenv files in the folders above the project. direnv's `source_up` loads a parent's `.envrc`
 * (one `~/work/.envrc` exporting tokens for every project below it), and tools read `../.env`:
 * they are the user's secrets, not the project's. Hidden in every ancestor of each writable
 * root, from its parent up to and including the home, or up to `/` for a root outside the home,
 * at most MAX_ANCESTORS levels: `.env`, `.env.*`, `.envrc`, `.envrc.*` and direnv's `.direnv/`.
 * Inside the project nothing is hidden here: its own `.env` is the user's code, and the
 * permission rules decide about it.
 *
 * Each ancestor is listed (so `.env.production` is found) up to MAX_ANCESTOR_ENTRIES entries;
 * a larger or unlistable one (a `/home` of many users) has the fixed names looked up instead.
 */
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';

/** Ancestors looked at per writable root. */
export const MAX_ANCESTORS = 32;
/** Entries listed per ancestor; beyond, only the fixed names are tried. */
export const MAX_ANCESTOR_ENTRIES = 10_000;
/** Tried as given where an ancestor cannot be listed whole (the caller drops the missing ones). */
const FIXED_NAMES = ['.env', '.envrc', '.direnv'];

/** A dotenv or direnv name: `.env`, `.env.local`, `.envrc`, `.envrc.private`, `.direnv`. */
export function isDotenvName(name: string): boolean {
  return name === '.env' || name.startsWith('.env.') || name === '.envrc' || name.startsWith('.envrc.') || name === '.direnv';
}

/** The folders above `root` whose dotenv files are hidden: up to the home when `root` is below it, else up to `/`. */
export function dotenvAncestors(root: string, homeDir: string): string[] {
  const stopAt = isPathWithin(homeDir, root) && path.resolve(root) !== path.resolve(homeDir) ? path.resolve(homeDir) : path.parse(root).root;
  const out: string[] = [];
  let dir = path.resolve(root);
  while (out.length < MAX_ANCESTORS && dir !== stopAt) {
    dir = path.dirname(dir);
    out.push(dir);
  }
  return out;
}

/** The dotenv files and `.direnv` directories in the ancestors of `roots` (see the top); missing fixed names included. */
export async function ancestorDotenvPaths(roots: readonly string[], homeDir: string, maxEntries = MAX_ANCESTOR_ENTRIES): Promise<string[]> {
  const ancestors = new Set(roots.flatMap((root) => dotenvAncestors(root, homeDir)));
  const found = await Promise.all([...ancestors].map((dir) => dotenvIn(dir, maxEntries)));
  return found.flat();
}

async function dotenvIn(dir: string, maxEntries: number): Promise<string[]> {
  const names: string[] = [];
  let whole = true;
  try {
    let seen = 0;
    for await (const entry of await opendir(dir, { bufferSize: 128 })) {
      if (++seen > maxEntries) {
        whole = false;
        break;
      }
      if (isDotenvName(entry.name)) names.push(entry.name);
    }
  } catch {
    whole = false;
  }
  if (!whole) for (const name of FIXED_NAMES) if (!names.includes(name)) names.push(name);
  return names.map((name) => path.join(dir, name));
}
