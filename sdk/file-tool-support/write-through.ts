/**
 * write_file's and edit_file's write when a front end holds the files (TOKENS.WorkspaceFiles, an
 * editor's buffers): the same guards as a write to disk, then the text goes to the front end
 * instead of `replaceEntry`. The directory was opened and verified inside the allowed directories
 * by the caller; a read-only file stays protected (as replaceEntry refuses it); and the entry is
 * re-opened without following links just before, so a symbolic link planted after the checks is
 * refused rather than handed to the front end (which would follow it). A front end writes in place,
 * not by renaming a new file over the name as a write to disk does, so it gets only the very file
 * the checks saw, with no other hard link: another name of it, maybe outside the project, would
 * change too.
 */
import { constants, type Stats } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { isSameOnlyFile, openEntry, type ContainedDir } from './contained-fs.js';

/**
 * Writes `content` through `writeText` and returns the mtime to record for the read-first rule:
 * the file's on disk after the write, or -1 when the front end has not put it on disk (yet): any
 * later mtime then differs, so an edit after an outside save asks for a re-read.
 */
export async function writeThrough(
  writeText: (realPath: string, content: string, signal: AbortSignal) => Promise<void>,
  dir: ContainedDir,
  name: string,
  realPath: string,
  content: string,
  existing: Stats | undefined,
  signal: AbortSignal,
): Promise<number> {
  // Throws ERACE on a link now at the name; closes what it opened.
  const entry = await openEntry(dir, name);
  await entry?.handle.close();
  const now = entry?.stats;
  if (now && !(existing && isSameOnlyFile(now, existing))) {
    const linked = existing !== undefined && now.isFile() && now.ino === existing.ino && now.dev === existing.dev;
    throw new Error(
      linked
        ? `${realPath} has ${now.nlink} hard links and the editor writes a file in place, so its other names (maybe outside the project) would change too; nothing was written. Ask the user to edit it, or to break the link`
        : `${realPath} changed after it was checked; nothing was written. Check the path and try again`,
    );
  }
  if (existing) await access(dir.entry(name), constants.W_OK);
  await writeText(realPath, content, signal);
  const after = await lstat(dir.entry(name)).catch(() => undefined);
  return after?.isFile() ? after.mtimeMs : -1;
}
