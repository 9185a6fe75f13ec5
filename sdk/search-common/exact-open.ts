/**
 * Synchronous opens for the search tools (A15) that succeed only when the object opened is
 * exactly the one at `absolute`, a real path the walk found (no symlink anywhere on it). A
 * directory or file swapped for a symlink after the walk listed it — to lead the search out of
 * the project — is refused (`ERACE`) instead of followed:
 * - the last name is opened with O_NOFOLLOW;
 * - on Linux the descriptor's own path (`/proc/self/fd/N`) must equal `absolute`, which rules out
 *   a swapped ancestor too, and a directory is then listed through the descriptor itself;
 * - elsewhere no name on the way may be a symlink and the descriptor's device/inode must equal
 *   `absolute`'s after the open (a narrower window, not none: see contained-fs.ts).
 */
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, constants, type Dirent } from 'node:fs';
import path from 'node:path';
import { useDescriptorPaths } from '../file-tool-support/contained-fs.js';
import { readSmallFileFd } from '../../types/small-file.js';

const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

function raced(absolute: string): Error {
  return Object.assign(new Error(`ERACE: ${absolute} was replaced (by a symbolic link?) while it was searched`), { code: 'ERACE' });
}

/** A descriptor for exactly `absolute`; the caller closes it. */
export function openExactSync(absolute: string | Buffer, directory = false): number {
  const fd = openSync(absolute, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (directory ? O_DIRECTORY : 0));
  try {
    if (useDescriptorPaths()) {
      if (typeof absolute === 'string') {
        if (readlinkSync(`/proc/self/fd/${fd}`) !== absolute) throw raced(absolute);
      } else if (!readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' }).equals(absolute)) {
        // A name that is not valid UTF-8 (as ripgrep reports it) is compared byte for byte.
        throw raced(absolute.toString());
      }
    } else if (typeof absolute !== 'string') {
      throw raced(absolute.toString()); // no per-name check for byte names here: refused, not guessed
    } else {
      // No symlink on the way (O_NOFOLLOW covers only the last name), and still the same object.
      let current = path.parse(absolute).root;
      for (const part of absolute.split(path.sep).filter((p) => p !== '')) {
        current = path.join(current, part);
        if (lstatSync(current).isSymbolicLink()) throw raced(absolute);
      }
      const opened = fstatSync(fd);
      const named = lstatSync(absolute);
      if (opened.dev !== named.dev || opened.ino !== named.ino) throw raced(absolute);
    }
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The entries of exactly the directory `absolute`, and the text of each ignore file named in
 * `ignoreFiles` that it holds (in the same order; undefined where absent or unreadable).
 * `exactNames` (same order as `entries`) is there only when a name is not valid UTF-8: it holds
 * that name's bytes (the entry's `name` is its decoding, with U+FFFD), so it can still be opened.
 */
export function listDirectoryExact(
  absolute: string | Buffer,
  ignoreFiles: readonly string[] = [],
): { entries: Dirent[]; ignoreTexts: (string | undefined)[]; exactNames?: (Buffer | undefined)[] } {
  const fd = openExactSync(absolute, true);
  try {
    const listed = useDescriptorPaths() ? `/proc/self/fd/${fd}` : absolute;
    let entries = readdirSync(listed, { withFileTypes: true });
    let exactNames: (Buffer | undefined)[] | undefined;
    if (entries.some((entry) => entry.name.includes('\uFFFD'))) {
      const raw = readdirSync(listed, { withFileTypes: true, encoding: 'buffer' });
      exactNames = raw.map((entry) => (Buffer.from(entry.name.toString('utf8')).equals(entry.name) ? undefined : entry.name));
      entries = raw.map((entry) => ({ name: entry.name.toString('utf8'), isDirectory: () => entry.isDirectory(), isFile: () => entry.isFile() }) as Dirent);
    }
    const ignoreTexts = ignoreFiles.map((name): string | undefined => {
      if (!entries.some((entry) => entry.name === name && entry.isFile())) return undefined;
      try {
        return readFileExact(`${listed.toString()}/${name}`, useDescriptorPaths() ? undefined : `${absolute.toString()}/${name}`);
      } catch {
        return undefined; // unreadable or swapped: no rules from it
      }
    });
    return { entries, ignoreTexts, ...(exactNames ? { exactNames } : {}) };
  } finally {
    closeSync(fd);
  }
}

/**
 * A small text file (an ignore file) read without following a link. `through` names it via a
 * verified directory descriptor (Linux); otherwise `absolute` is checked like openExactSync.
 */
export function readFileExact(through: string, absolute?: string): string {
  const fd = absolute === undefined ? openSync(through, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) : openExactSync(absolute);
  return readSmallFileFd(fd, absolute ?? through, () => raced(absolute ?? through));
}
