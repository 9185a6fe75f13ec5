/**
 * Folders of the home rebuilt inside the sandbox, so that what is hidden in them has no name there
 * that the host can take back.
 *
 * A file hidden on its own (/dev/null bound over it) stays hidden only while it is the file that
 * was there: when a program on the host renames another file over it or removes it (`git
 * credential-store`, `npm login`, vim saving `~/.viminfo`, zsh saving its history), Linux removes
 * the mount in the sandbox too, and a command reading in a loop gets the new file within half a
 * millisecond, long before any watch could stop it (replaced-files.ts). So a folder of the home
 * that holds hidden files is mounted as an empty tmpfs, each of its other entries bound back
 * read-only onto a name in that tmpfs (a link made again as the same link), and the hidden ones
 * made there as before (/dev/null over a file, an empty tmpfs over a folder): names the host cannot
 * reach. A secret the host makes in such a folder while a command runs is not seen by it either.
 *
 * Cost: bubblewrap reads the whole mount table again after each bind (MAX_REBUILT_ENTRIES), so at
 * most that many entries are bound back per command, the home first; a folder beyond
 * that, or one that cannot be listed, keeps the per-file mounts and the watch. Folders inside a
 * writable root are not rebuilt (the command writes there; a hidden name there is a mount point
 * it cannot rename), nor folders outside the home (secrets kept elsewhere are named by the user,
 * and `sandbox.deny_read` of their folder hides them whole).
 */
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';

/**
 * Entries bound back per command, over all the folders rebuilt. bubblewrap re-reads the whole mount
 * table after each bind, so the cost grows faster than the count (here: 40 entries ≈ 9 ms a launch,
 * 128 ≈ 80 ms): a home with more keeps the per-file mounts.
 */
export const MAX_REBUILT_ENTRIES = 64;

/**
 * Where the sandbox mounts its own filesystems before the rebuilt folders: a folder holding one of
 * these is never rebuilt (binding its entries back would bind the host's /tmp, /proc or /run over
 * the sandbox's own). A home of `/` (a container user with no home) is the case.
 */
const SANDBOX_MOUNTS = ['/tmp', '/proc', '/dev', '/run'];

export interface FolderEntry {
  name: string;
  kind: 'dir' | 'file' | 'missing' | 'symlink' | 'other';
  /** A link's text, for a link. */
  link?: string;
}

/** A folder's entries with their kinds, or undefined when it cannot be listed (then it is not rebuilt). */
export type ListEntries = (dir: string) => Promise<FolderEntry[] | undefined>;

export interface RebuiltFolder {
  dir: string;
  /** Bound back read-only (`link`: made again as that link); the hidden entries are left out. */
  entries: { name: string; link?: string }[];
}

/**
 * The folders to rebuild for the hidden files and folders (absolute real paths, none inside a hidden
 * folder), parents first. Only folders holding a hidden FILE: a folder hidden whole keeps its mount
 * while anything inside it is replaced (only removing or renaming the folder itself would take it
 * back, which the watch stops), and `~/.config`, holding dozens of tools' folders, would cost as
 * many binds.
 */
export async function rebuiltFolders(hidden: { files: readonly string[]; dirs: readonly string[] }, writable: readonly string[], homeDir: string, listEntries: ListEntries, budget = MAX_REBUILT_ENTRIES): Promise<RebuiltFolder[]> {
  const hiddenSet = new Set([...hidden.files, ...hidden.dirs]);
  const folders = [...new Set(hidden.files.map((target) => path.dirname(target)))]
    // Not where the sandbox mounts its own filesystems, nor above them (SANDBOX_MOUNTS).
    .filter((dir) => isPathWithin(homeDir, dir) && !writable.some((root) => isPathWithin(root, dir)) && !SANDBOX_MOUNTS.some((mount) => isPathWithin(mount, dir) || isPathWithin(dir, mount)))
    .sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || (a < b ? -1 : 1));
  const rebuilt: RebuiltFolder[] = [];
  for (const dir of folders) {
    const listed = await listEntries(dir);
    if (listed === undefined) continue;
    // A link is made again, never bound: a bind lands where the link leads (`~/n -> .netrc` would
    // bind the hidden file itself); one whose text could not be read is left out.
    const entries = listed
      .filter((entry) => !hiddenSet.has(path.join(dir, entry.name)) && entry.kind !== 'missing' && (entry.kind !== 'symlink' || entry.link !== undefined))
      .map((entry) => (entry.kind === 'symlink' ? { name: entry.name, link: entry.link } : { name: entry.name }));
    if (entries.length > budget) continue;
    budget -= entries.length;
    rebuilt.push({ dir, entries });
  }
  return rebuilt;
}
