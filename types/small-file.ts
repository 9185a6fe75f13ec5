/**
 * Reading a small file a repository controls (an ignore file, git's `.git` file, `commondir`,
 * `config`, `info/exclude`) without letting it stop or swamp MewCode: opened non-blocking (a FIFO
 * would block the main thread for good, beyond SIGTERM), only a regular file, at most
 * MAX_SMALL_FILE_BYTES (a `/dev/zero` link or a huge file would fill memory). A file that fails
 * is the caller's to skip: its rules or settings do not apply.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export const MAX_SMALL_FILE_BYTES = 4 * 1024 * 1024;

/** Reads the open descriptor `fd` (closing it) under the rules above; `shown` names it in errors. */
export function readSmallFileFd(fd: number, shown: string, notRegular: () => Error = () => new Error(`${shown} is not a regular file`)): string {
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw notRegular();
    if (info.size > MAX_SMALL_FILE_BYTES) throw new Error(`${shown} is larger than ${MAX_SMALL_FILE_BYTES} bytes`);
    const chunks: Buffer[] = [];
    const buffer = Buffer.allocUnsafe(64 * 1024);
    let total = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      total += read;
      // It may grow while read.
      if (total > MAX_SMALL_FILE_BYTES) throw new Error(`${shown} is larger than ${MAX_SMALL_FILE_BYTES} bytes`);
      chunks.push(Buffer.from(buffer.subarray(0, read)));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A small file of git's own, which may lie outside the project (a worktree's gitdir), so links are followed. */
export function readGitFile(file: string): string {
  return readSmallFileFd(openSync(file, constants.O_RDONLY | constants.O_NONBLOCK), file);
}
