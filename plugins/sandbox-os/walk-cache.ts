/**
 * What the git sweep's walk took from each directory, kept between commands (git-walk.ts).
 *
 * The sweep walks every writable root after every command to find what the command made (a
 * nested `.git`, a folder shaped as a git directory, project settings, toolchain files, names
 * holding control characters). Listing a directory and reading its names costs ≈ 40 µs: 90 ms
 * of every bash call in a project of 2,000 folders, a second in one of 20,000. A directory's
 * entries change only together with its ctime (creating, removing or renaming an entry sets the
 * directory's ctime to now, and nothing a command runs can set a ctime back), so a directory
 * whose inode, ctime and mtime are what they were just before it was listed still holds what was
 * listed: one lstat replaces the listing, and what the walk took from it is reused.
 *
 * Kept only where that holds for certain:
 * - times older than a tick of the file system's clock when the stamp is taken (file-clock.ts):
 *   a change in the same tick could leave the times as they were;
 * - file systems known to update ctime on every change of a directory's entries (statfs, Linux:
 *   ext2/3/4, xfs, btrfs, tmpfs, overlayfs, zfs, f2fs), and only directories on the root's own
 *   device: anything else (NFS, FUSE, 9p, a mount inside the project) is listed every time.
 */
import { lstatNow } from './byte-fs.js';
import { onFineClockFileSystem, tickOf } from './file-clock.js';

/** Directories kept at most; beyond it everything is dropped and kept anew. */
const DEFAULT_LIMIT = 40_000;

export class WalkCache<T> {
  readonly #kept = new Map<string, { stamp: string; value: T }>();
  readonly #now: () => number;
  readonly #limit: number;
  /** Directories answered from what was kept, and listed (for tests and benchmarks). */
  readonly counts = { reused: 0, listed: 0 };

  /** `now`: the clock the times are compared with (tests move it ahead instead of waiting). */
  constructor(options: { now?: () => number; limit?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#limit = options.limit ?? DEFAULT_LIMIT;
  }

  /** The device of `root` when its file system keeps ctime as this cache needs; undefined: keep nothing for this walk. */
  device(root: string): number | undefined {
    if (!onFineClockFileSystem(root)) return undefined;
    return lstatNow(root)?.dev;
  }

  /**
   * `dir`'s stamp, taken before it is listed: what it holds may be reused while the stamp stays
   * the same. Undefined when it may not be: not a directory on `device`, or times too recent.
   */
  stamp(dir: string, device: number): string | undefined {
    const info = lstatNow(dir);
    if (!info?.isDirectory() || info.dev !== device) return undefined;
    // The file systems device() accepts are the ones with a fine clock.
    if (Math.max(info.ctimeMs, info.mtimeMs) > this.#now() - tickOf(info, true)) return undefined;
    return `${info.ino}:${info.ctimeMs}:${info.mtimeMs}`;
  }

  /** What was kept for `key` under `stamp`, or undefined (then the caller lists and calls keep()). */
  reuse(key: string, stamp: string | undefined): T | undefined {
    const kept = stamp === undefined ? undefined : this.#kept.get(key);
    if (kept !== undefined && kept.stamp === stamp) {
      this.counts.reused++;
      return kept.value;
    }
    this.counts.listed++;
    return undefined;
  }

  keep(key: string, stamp: string | undefined, value: T): void {
    if (stamp === undefined) {
      this.#kept.delete(key);
      return;
    }
    if (this.#kept.size >= this.#limit && !this.#kept.has(key)) this.#kept.clear();
    this.#kept.set(key, { stamp, value });
  }
}
