/**
 * The modification times of glob's matches, for its newest-first order. Each match is lstat'ed
 * on libuv's thread pool as soon as it is listed, a bounded number at a time: the lookups run
 * beside this thread, which keeps draining ripgrep's output (a synchronous lstat per match held
 * the thread, the pipe filled and ripgrep waited), and beside each other.
 *
 * lstat, not stat: a match swapped for a symlink since it was listed must not reveal its
 * target's mtime. A match that is gone, or is no longer a regular file, is left out; so is one
 * whose lstat fails otherwise (permission denied on the way): it cannot be dated.
 */
import { lstat, type Stats } from 'node:fs';

/** Lookups in flight at once: enough to keep the pool's threads busy, few enough to stay small. */
const IN_FLIGHT = 64;

export interface DatedFile {
  rel: string;
  mtime: number;
}

export class MtimeCollector {
  readonly files: DatedFile[] = [];
  /** Files waiting for a lookup, from `head` on (an index, not shift(): the queue may be long). */
  private queue: { rel: string; path: string | Buffer }[] = [];
  private head = 0;
  private inFlight = 0;
  private generation = 0;
  private idle: (() => void) | undefined;

  /** Dates `rel` (its file at `path`, bytes when the name is not valid UTF-8). */
  add(rel: string, path: string | Buffer): void {
    if (this.inFlight < IN_FLIGHT) this.start(rel, path);
    else this.queue.push({ rel, path });
  }

  /** Resolves once every file added so far is dated (or left out). */
  settled(): Promise<DatedFile[]> {
    if (this.inFlight === 0) return Promise.resolve(this.files);
    return new Promise((resolve) => {
      this.idle = () => resolve(this.files);
    });
  }

  /** Forgets every file (the lister failed and another one starts over); lookups in flight are ignored. */
  reset(): void {
    this.files.length = 0;
    this.queue = [];
    this.head = 0;
    this.generation++;
  }

  private start(rel: string, path: string | Buffer): void {
    this.inFlight++;
    const generation = this.generation;
    lstat(path, (error: NodeJS.ErrnoException | null, info: Stats | undefined) => {
      this.inFlight--;
      if (!error && info?.isFile() && generation === this.generation) this.files.push({ rel, mtime: info.mtimeMs });
      const next = this.queue[this.head];
      if (next) {
        this.queue[this.head++] = undefined!;
        if (this.head === this.queue.length) {
          this.queue = [];
          this.head = 0;
        }
        this.start(next.rel, next.path);
      }
      else if (this.inFlight === 0) {
        const idle = this.idle;
        this.idle = undefined;
        idle?.();
      }
    });
  }
}
