/**
 * Opening the audit files without ever following a link (A16), on sdk/project-state-dir.ts:
 *
 * - The directory holding the log (`.mewcode/`) must be a real directory, not a link: a committed
 *   `.mewcode -> /somewhere/else` would otherwise redirect every write out of the project. On
 *   Linux it is opened once (O_DIRECTORY|O_NOFOLLOW) and every file of a write is reached through
 *   that descriptor, so a directory swapped for a link after the check cannot redirect an open, a
 *   create or a rename.
 * - Files are opened with O_NOFOLLOW (a link at the final name is refused) and O_NONBLOCK (a FIFO
 *   planted at the name is refused instead of blocking the writer), and must be regular files
 *   with exactly one link (an append to a hard link would change an inode outside the project).
 *
 * Everything here is synchronous: a record is on disk before the decision it records takes effect.
 */
import { closeSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { openStateDirectory, openStateFile, StatePathRefused, type StateDirectory } from '../../sdk/project-state-dir.js';

/** A link (or a non-file) where an audit file should be; nothing was written through it. */
export { StatePathRefused as LinkRefusedError };

/** The checked directory of the log, for one write. */
export type AuditDirectory = StateDirectory;

/** Creates the directory if needed, refuses a link or a non-directory, and holds it for a write. */
export function openAuditDirectory(dir: string): AuditDirectory {
  return openStateDirectory(path.dirname(dir), path.basename(dir), { create: true })!;
}

/** Opens `name` in the directory with `flags` plus O_NOFOLLOW | O_NONBLOCK; a regular file with one link only. */
export function openNoFollow(dir: AuditDirectory, name: string, flags: number, mode = 0o600): number {
  return openStateFile(dir, name, flags, mode);
}

/** Reads a whole small file without following a link; undefined when it does not exist. */
export function readNoFollow(dir: AuditDirectory, name: string): string | undefined {
  let fd: number;
  try {
    fd = openNoFollow(dir, name, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
