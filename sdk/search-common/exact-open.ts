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
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, constants, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { useDescriptorPaths } from '../file-tool-support/contained-fs.js';
import { ignoreFileText, readSmallFileBytesFd } from '../../types/small-file.js';
import { fsPath, hasEscapedBytes } from './display-name.js';

const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

function raced(absolute: string): Error {
  return Object.assign(new Error(`ERACE: ${absolute} was replaced (by a symbolic link?) while it was searched`), { code: 'ERACE' });
}

/** A descriptor for exactly `absolute`; the caller closes it. */
export function openExactSync(absolute: string | Buffer, directory = false): number {
  // A path holding a shown name's bytes (display-name.ts) is opened and checked by those bytes.
  if (typeof absolute === 'string' && hasEscapedBytes(absolute)) absolute = fsPath(absolute) as Buffer;
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
 * An ignore file read without following a link, as ripgrep reads it (up to its first line that
 * is not UTF-8: ignoreFileText). `through` names it via a verified directory descriptor (Linux);
 * otherwise `absolute` is checked like openExactSync.
 */
export function readFileExact(through: string, absolute?: string): string {
  const fd = absolute === undefined ? openSync(through, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) : openExactSync(absolute);
  return ignoreFileText(readSmallFileBytesFd(fd, absolute ?? through, () => raced(absolute ?? through)));
}

/** How many verified directory descriptors one ExactLstat keeps open at once. */
const PINNED_DIRECTORIES = 64;

/**
 * lstat of names a listing reported (ripgrep's, which follows whatever the path names at the
 * moment it reads a directory), each looked up in its directory through a descriptor opened with
 * openExactSync: a directory swapped for a symlink to an outside one at any moment yields
 * undefined, never an outside name or mtime. On Linux the descriptors of recent directories stay
 * open for the call (a descriptor pins the directory it was verified as, whatever its name later
 * points to); elsewhere each lookup re-verifies its directory. `close()` releases them.
 */
export class ExactLstat {
  private readonly pinned = new Map<string, number>();

  /** The entry at `absolute` (string or the exact bytes of a non-UTF-8 path); undefined when missing or not verifiable. */
  lstat(absolute: string | Buffer): Stats | undefined {
    const { dir, base } = splitLast(absolute);
    if (!useDescriptorPaths()) {
      let fd: number;
      try {
        fd = openExactSync(dir, true);
      } catch {
        return undefined;
      }
      try {
        return lstatSync(absolute, { throwIfNoEntry: false });
      } finally {
        closeSync(fd);
      }
    }
    const fd = this.directory(dir);
    if (fd === undefined) return undefined;
    const through = typeof base === 'string' ? `/proc/self/fd/${fd}/${base}` : Buffer.concat([Buffer.from(`/proc/self/fd/${fd}/`), base]);
    return lstatSync(through, { throwIfNoEntry: false });
  }

  close(): void {
    for (const fd of this.pinned.values()) closeSync(fd);
    this.pinned.clear();
  }

  private directory(dir: string | Buffer): number | undefined {
    const key = typeof dir === 'string' ? dir : `\0${dir.toString('hex')}`;
    const held = this.pinned.get(key);
    if (held !== undefined) return held;
    let fd: number;
    try {
      fd = openExactSync(dir, true);
    } catch {
      return undefined;
    }
    if (this.pinned.size >= PINNED_DIRECTORIES) {
      const [oldestKey, oldestFd] = this.pinned.entries().next().value as [string, number];
      this.pinned.delete(oldestKey);
      closeSync(oldestFd);
    }
    this.pinned.set(key, fd);
    return fd;
  }
}

/** A path's parent directory and last name, as strings or as the path's own bytes. */
function splitLast(absolute: string | Buffer): { dir: string | Buffer; base: string | Buffer } {
  if (typeof absolute === 'string') return { dir: path.dirname(absolute), base: path.basename(absolute) };
  const slash = absolute.lastIndexOf(0x2f);
  return { dir: slash <= 0 ? Buffer.from('/') : absolute.subarray(0, slash), base: absolute.subarray(slash + 1) };
}
