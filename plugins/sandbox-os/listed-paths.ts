import { readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The built-in credential paths that exist, found with one listing per directory instead of one
 * resolution per path: most of the ≈ 335 names are missing, and they sit in a few dozen directories
 * of the home (the home, ~/.config, ~/.local/share…). The listings are read at every call, so a
 * credential made by one command is seen by the next. Only for that list: a user's path may name
 * what a lookup finds but a listing does not show (an automounted directory, a name in another
 * Unicode spelling), so those are resolved as given.
 * Kept for the caller to resolve (sandbox-commands.ts follows links next): a name its directory lists,
 * also with another case (a case-insensitive file system finds it); a name that is not ASCII, or
 * `.` or `..`; and every name in a directory that cannot be listed for another reason than not
 * existing (a directory that can be passed through but not read).
 */
export async function listedPaths(paths: readonly string[], list: (dir: string) => Promise<string[]> = readdir): Promise<string[]> {
  const byDir = new Map<string, string[]>();
  for (const target of new Set(paths)) {
    const dir = path.dirname(target);
    const targets = byDir.get(dir);
    if (targets) targets.push(target);
    else byDir.set(dir, [target]);
  }
  const kept = await Promise.all(
    [...byDir].map(async ([dir, targets]) => {
      let names: string[];
      try {
        names = await list(dir);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return code === 'ENOENT' || code === 'ENOTDIR' ? [] : targets;
      }
      const exact = new Set(names);
      const folded = new Set(names.map((name) => name.toLowerCase()));
      return targets.filter((target) => {
        const name = path.basename(target);
        if (name === '' || name === '.' || name === '..') return true; // not an entry a listing shows
        if (!/^[\x20-\x7e]*$/.test(name)) return true; // other spellings of the same name may match it
        return exact.has(name) || folded.has(name.toLowerCase());
      });
    }),
  );
  return kept.flat();
}
