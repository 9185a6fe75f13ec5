/**
 * Opening the audit files without ever following a link (SPEC A16).
 *
 * - The directory holding the log (`.mewcode/`) must be a real directory, not a link: a committed
 *   `.mewcode -> /somewhere/else` would otherwise redirect every write out of the project.
 * - On Linux the directory is opened once (O_DIRECTORY|O_NOFOLLOW) and every file of a batch is
 *   reached through that descriptor (`/proc/self/fd/D/name`, Node's stand-in for `openat`): a
 *   directory swapped for a link after the check cannot redirect an open, a create or a rename.
 *   Elsewhere (macOS: no `/proc`) the names are joined to the checked path; the window between
 *   the check and the use stays, which the sandbox's read-only `.mewcode/` closes.
 * - Files are opened with O_NOFOLLOW (a link at the final name fails with ELOOP) and O_NONBLOCK (a
 *   FIFO planted at the name fails instead of blocking the writer), then checked on the
 *   descriptor: a regular file with exactly one link (an append to a hard link would change an
 *   inode outside the project), and on Linux at the expected real path.
 */
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** A link (or a non-file) where an audit file should be; nothing was written through it. */
export class LinkRefusedError extends Error {
  override name = 'LinkRefusedError';
}

const PROC_FD = '/proc/self/fd';
const procAvailable = existsSync(PROC_FD);

/** The checked directory of the log, for one batch. */
export interface AuditDirectory {
  /** The path as configured, for messages. */
  readonly shown: string;
  /** Its real path. */
  readonly real: string;
  /** The path to use for the file `name` in this directory. */
  at(name: string): string;
  close(): Promise<void>;
}

/** Creates the directory if needed, refuses a link or a non-directory, and holds it for a batch. */
export async function openAuditDirectory(dir: string): Promise<AuditDirectory> {
  let info = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!info) {
    await mkdir(dir, { recursive: true });
    info = await lstat(dir);
  }
  if (info.isSymbolicLink()) throw new LinkRefusedError(`${dir} is a symbolic link`);
  if (!info.isDirectory()) throw new Error(`${dir} is not a directory`);
  // The directory itself is no link, so its real path is its parent's real path + its name.
  const expected = path.join(await realpath(path.dirname(dir)), path.basename(dir));
  if (!procAvailable) {
    const real = await realpath(dir);
    if (real !== expected) throw new LinkRefusedError(`${dir} resolves to ${real}`);
    return { shown: dir, real, at: (name) => path.join(dir, name), close: async () => undefined };
  }
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new LinkRefusedError(`${dir} is a symbolic link or not a directory`);
    throw error;
  }
  const real = await readlink(path.join(PROC_FD, String(handle.fd))).catch(() => '');
  if (real !== expected) {
    await handle.close();
    throw new LinkRefusedError(`${dir} resolves to ${real || 'an unknown place'}, not ${expected}`);
  }
  const base = path.join(PROC_FD, String(handle.fd));
  return { shown: dir, real, at: (name) => path.join(base, name), close: () => handle.close() };
}

/** Opens `name` in the directory with `flags` plus O_NOFOLLOW | O_NONBLOCK, then checks the descriptor. */
export async function openNoFollow(dir: AuditDirectory, name: string, flags: number, mode = 0o600): Promise<FileHandle> {
  const shown = path.join(dir.shown, name);
  let handle: FileHandle;
  try {
    handle = await open(dir.at(name), flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new LinkRefusedError(`${shown} is a symbolic link`);
    if (code === 'ENXIO') throw new LinkRefusedError(`${shown} is not a regular file`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new LinkRefusedError(`${shown} is not a regular file`);
    if (info.nlink > 1) throw new LinkRefusedError(`${shown} has ${info.nlink} hard links`);
    if (procAvailable) {
      const opened = await readlink(path.join(PROC_FD, String(handle.fd)));
      const expected = path.join(dir.real, name);
      if (opened !== expected) throw new LinkRefusedError(`${shown} opened as ${opened}, not ${expected}`);
    }
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** Reads a whole small file without following a link; undefined when it does not exist. */
export async function readNoFollow(dir: AuditDirectory, name: string): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await openNoFollow(dir, name, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
