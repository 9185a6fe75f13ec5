/**
 * After each sandboxed command: links, and files with a second name, that the command made in a
 * git directory. The user's git writes several of its files in place, through whatever is at the
 * name: the commit message (`COMMIT_EDITMSG`, filled from `SQUASH_MSG` or `MERGE_MSG` before the
 * editor even opens), `FETCH_HEAD` at every fetch and pull (a line per branch, whose names the
 * remote chooses), `MERGE_MSG`, `TAG_EDITMSG`, the reflogs; and a folder under `refs/` that is a
 * link makes git write refs wherever it leads. A link at `COMMIT_EDITMSG` pointing at
 * `.git/config` or `~/.bash_aliases` (a hard link to a file the project's tools read, likewise)
 * turns the user's next `git commit` into a write of the command's choosing.
 *
 * git itself makes neither (it writes a new file and renames it into place; `core.preferSymlinkRefs`
 * makes `HEAD` a link into `refs/`, which passes), so each one made or changed during the command
 * is set aside, anywhere in the git directory but among its objects' files (git never writes one
 * in place; a link among the objects' folders is set aside too), its modules and worktrees (each
 * checked as a git directory of its own), and git-annex's and git-lfs's stores (their own files,
 * which git-annex hard-links on purpose).
 */
import path from 'node:path';
import { readlinkSync } from 'node:fs';
import { lstatNow, namesNow } from './byte-fs.js';
import { fromBytes, toBytes } from './byte-names.js';
import { QUARANTINE_SUFFIX } from './sweep-paths.js';

/** Entries looked at per git directory at most. */
export const MAX_GIT_DIR_ENTRIES = 20_000;

/** Sub-folders of a git directory not walked: their own git directories, and other tools' stores. */
const NOT_WALKED = new Set(['modules', 'worktrees', 'annex', 'lfs']);

/** `HEAD -> refs/heads/main`, as core.preferSymlinkRefs makes it. */
const isSymrefLink = (target: string | undefined): boolean => target !== undefined && target.startsWith('refs/') && !/(?:^|\/)\.\.(?:\/|$)/.test(target);

const linkTarget = (link: string): string | undefined => {
  try {
    return fromBytes(readlinkSync(toBytes(link), { encoding: 'buffer' }));
  } catch {
    return undefined;
  }
};

export interface Planted {
  /** The entry to set aside. */
  entry: string;
  /** What it is, for the message. */
  what: string;
}

export interface PlantedLinks {
  planted: Planted[];
  /** The walk stopped at MAX_GIT_DIR_ENTRIES. */
  truncated: boolean;
}

/**
 * The links and multiply-linked files in `gitDir` changed at or after `since` (every one when
 * `all`: a git directory the command made or moved in).
 */
export function plantedLinks(gitDir: string, since: number, all: boolean, maxEntries = MAX_GIT_DIR_ENTRIES): PlantedLinks {
  const planted: Planted[] = [];
  let seen = 0;
  let truncated = false;
  const fresh = (ctimeMs: number): boolean => all || ctimeMs >= since;
  const visit = (dir: string, relative: string): void => {
    for (const name of namesNow(dir) ?? []) {
      if (seen >= maxEntries) {
        truncated = true;
        return;
      }
      seen++;
      if (name.endsWith(QUARANTINE_SUFFIX)) continue;
      const file = path.join(dir, name);
      const inside = relative === '' ? name : `${relative}/${name}`;
      const info = lstatNow(file);
      if (info === undefined) continue;
      if (info.isSymbolicLink()) {
        if (!fresh(info.ctimeMs)) continue;
        if (inside === 'HEAD' && isSymrefLink(linkTarget(file))) continue;
        planted.push({ entry: file, what: `a link at ${inside} (git writes through it)` });
      } else if (info.isDirectory()) {
        if (relative === '' && NOT_WALKED.has(name)) continue;
        // Among the objects, the folders themselves only (and `info`): git writes every object file anew.
        if (relative === 'objects' && name !== 'info') continue;
        visit(file, inside);
      } else if (info.isFile() && info.nlink > 1 && fresh(info.ctimeMs) && !inside.startsWith('objects/')) {
        planted.push({ entry: file, what: `a second name of another file at ${inside} (git writes through it)` });
      }
    }
  };
  visit(gitDir, '');
  return { planted, truncated };
}
