/**
 * After each sandboxed command: links, and files with a second name, that the command made in a
 * git directory. The user's git writes several of its files in place, through whatever is at the
 * name: the commit message (`COMMIT_EDITMSG`, filled from `SQUASH_MSG` or `MERGE_MSG` before the
 * editor even opens), `FETCH_HEAD` at every fetch and pull (a line per branch, whose names the
 * remote chooses), `MERGE_MSG`, the reflogs, a module's `config` when a submodule is checked out;
 * and a folder that is a link (under `refs/`, among the objects, in git-lfs's store) makes git or
 * git-lfs write wherever it leads. A link at `COMMIT_EDITMSG` pointing at `.git/config` or
 * `~/.bash_aliases` (or a hard link to a file the project's tools read) turns the user's next
 * `git commit` into a write of the command's choosing.
 *
 * - A link made or changed during the command (or below a folder that was: one moved into place
 *   keeps its links' times) is set aside, unless git itself makes it: a symbolic ref as
 *   `core.preferSymlinkRefs` makes it (`HEAD -> refs/heads/main`, `refs/remotes/origin/HEAD ->
 *   refs/remotes/origin/main`: relative, into `refs/`). A git directory made of links to another
 *   one (`git new-workdir`, Android's `repo`) made inside the sandbox has them set aside: a
 *   shared `config` is written through by the user's git (docs/safety.md).
 * - A regular file with a second name, made or changed during the command, gets a copy of its own
 *   in its place (`cp -al` of a repository makes thousands; the files stay as they were, only the
 *   sharing ends), outside the objects, which git never writes in place.
 *
 * Walked: the whole git directory (its modules and worktrees included: a module's git directory may
 * sit at any depth), but the objects' files (only their folders and `info`); in `refs/` (written by
 * renaming) and git-annex's and git-lfs's stores (git-annex hard-links its objects on purpose)
 * links alone are looked for.
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, unlinkSync, writeSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { lstatNow } from './byte-fs.js';
import { fromBytes, toBytes } from './byte-names.js';
import { QUARANTINE_SUFFIX } from './sweep-paths.js';

/** Entries looked at per git directory at most. */
export const MAX_GIT_DIR_ENTRIES = 20_000;
/** A file with a second name larger than this is set aside instead of copied. */
const MAX_COPIED_BYTES = 64 * 1024 * 1024;

/** Stores of other tools inside a git directory: only links count there. */
const LINKS_ONLY = new Set(['annex', 'lfs']);

export interface PlantedLinks {
  /** Links to set aside, with what each is for the message. */
  links: { entry: string; what: string }[];
  /** Regular files with another name, to give a copy of their own. */
  shared: string[];
  /** The walk stopped at its bound. */
  truncated: boolean;
}

const linkTarget = (link: string): string | undefined => {
  try {
    return fromBytes(readlinkSync(toBytes(link), { encoding: 'buffer' }));
  } catch {
    return undefined;
  }
};

const hasParentStep = (target: string): boolean => /(?:^|\/)\.\.(?:\/|$)/.test(target);

/** A symbolic ref as core.preferSymlinkRefs makes it: a relative link into `refs/`, which stays inside the git directory. */
function isSymrefLink(link: string): boolean {
  const target = linkTarget(link);
  return target !== undefined && target.startsWith('refs/') && !hasParentStep(target);
}

const listed = (dir: string): Dirent<Buffer>[] => {
  try {
    return readdirSync(toBytes(dir), { withFileTypes: true, encoding: 'buffer' });
  } catch {
    return [];
  }
};

/**
 * The links and multiply-linked files in `gitDir` made or changed at or after `since` (every one
 * when `all`: a git directory the command made or moved in).
 */
export function plantedLinks(gitDir: string, since: number, all: boolean, maxEntries = MAX_GIT_DIR_ENTRIES): PlantedLinks {
  const found: PlantedLinks = { links: [], shared: [], truncated: false };
  let seen = 0;
  /** `files`: whether regular files are looked at (not in `refs/`, written by renaming, nor in other tools' stores); `objects`: an objects folder, whose own folders are not entered but `info`. */
  const visit = (dir: string, relative: string, fresh: boolean, files: boolean, objects: boolean): void => {
    for (const child of listed(dir)) {
      if (seen >= maxEntries) {
        found.truncated = true;
        return;
      }
      seen++;
      const name = fromBytes(child.name);
      if (name.includes(QUARANTINE_SUFFIX)) continue;
      const file = path.join(dir, name);
      const inside = relative === '' ? name : `${relative}/${name}`;
      if (child.isSymbolicLink()) {
        const info = lstatNow(file);
        if (info === undefined || !(fresh || info.ctimeMs >= since) || isSymrefLink(file)) continue;
        found.links.push({ entry: file, what: `a link at ${inside} (git writes through it)` });
      } else if (child.isDirectory()) {
        // Among the objects, their folders (links above) and `info` only: git writes every object file anew.
        if (objects && name !== 'info') continue;
        const info = lstatNow(file);
        if (info === undefined) continue;
        visit(file, inside, fresh || info.ctimeMs >= since, files && !objects && name !== 'refs' && !LINKS_ONLY.has(name), name === 'objects');
      } else if (child.isFile() && files && !objects) {
        const info = lstatNow(file);
        if (info !== undefined && info.nlink > 1 && (fresh || info.ctimeMs >= since)) found.shared.push(file);
      }
    }
  };
  visit(gitDir, '', all, true, false);
  return found;
}

/**
 * Gives `file` (a regular file with another name) a copy of its own in its place: the same bytes
 * and mode in a new file renamed over it. Undefined when done, else why not.
 */
export function giveOwnCopy(file: string): string | undefined {
  const info = lstatNow(file);
  if (info === undefined || !info.isFile()) return undefined; // gone or replaced meanwhile
  if (info.size > MAX_COPIED_BYTES) return `larger than ${MAX_COPIED_BYTES} bytes`;
  const copy = `${file}.mewcode-own-copy`;
  let fd: number | undefined;
  try {
    const bytes = readFileSync(toBytes(file));
    fd = openSync(toBytes(copy), 'wx', info.mode & 0o777);
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(toBytes(copy), toBytes(file));
    return undefined;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(toBytes(copy));
    } catch {
      // never made
    }
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}
