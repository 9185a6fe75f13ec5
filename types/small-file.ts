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
  return readSmallFileBytesFd(fd, shown, notRegular).toString('utf8');
}

/** readSmallFileFd's bytes, undecoded (an ignore file is read as ripgrep reads it: ignoreFileText). */
export function readSmallFileBytesFd(fd: number, shown: string, notRegular: () => Error = () => new Error(`${shown} is not a regular file`)): Buffer {
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
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

/**
 * An ignore file's text as ripgrep takes it: its lines up to the first that is not valid UTF-8,
 * which ends the file (ripgrep's reader stops at that error, keeping the rules before it; a
 * file whose first line is bad gives none). Decoding it lossily instead would turn the bad
 * bytes into U+FFFD, a rule that hides other files than ripgrep hides.
 */
export function ignoreFileText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (!text.includes('\uFFFD')) return text;
  const lines: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(10, at);
    const end = nl === -1 ? bytes.length : nl;
    const line = bytes.subarray(at, end);
    const decoded = line.toString('utf8');
    if (decoded.includes('\uFFFD') && !Buffer.from(decoded, 'utf8').equals(line)) break;
    lines.push(decoded);
    at = end + 1;
  }
  return lines.join('\n');
}

/** A small file of git's own, which may lie outside the project (a worktree's gitdir), so links are followed. */
/** git's `info/exclude`, an ignore file: read as ripgrep reads one (ignoreFileText). */
export function readGitIgnoreFile(file: string): string {
  return ignoreFileText(readSmallFileBytesFd(openSync(file, constants.O_RDONLY | constants.O_NONBLOCK), file));
}

export function readGitFile(file: string): string {
  return readSmallFileFd(openSync(file, constants.O_RDONLY | constants.O_NONBLOCK), file);
}
