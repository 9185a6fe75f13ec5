/**
 * Hot reload of the catalog: each skills root and each skill folder is watched (not recursively:
 * Node 20's recursive watch on Linux walks whole trees), and a change schedules one reload after a
 * short quiet period. For a root that does not exist yet, the nearest folder above it is watched
 * as a way in: a change there (any file of the project root, the sandbox's mount points around
 * every command) only tells the owner to look again which roots exist, which costs a few lookups,
 * not a scan. Watchers never keep the process alive, and an unwatchable folder is simply not
 * watched (bodies are re-read at every load anyway).
 */
import { watch, type FSWatcher } from 'node:fs';

export const RELOAD_DEBOUNCE_MS = 150;

/** A folder to watch: `content` (a root or a skill folder) or `way-in` (above roots that do not exist yet). */
export interface WatchTarget {
  dir: string;
  kind: 'content' | 'way-in';
}

/** What changed in the quiet period: a root's or a skill's content, or only folders on the way to missing roots. */
export type WatchedChange = 'content' | 'way-in';

export class CatalogWatcher {
  readonly #watchers = new Map<string, { watcher: FSWatcher; kind: WatchTarget['kind'] }>();
  #timer: NodeJS.Timeout | undefined;
  #pending: WatchedChange | undefined;
  #closed = false;

  constructor(private readonly onChange: (change: WatchedChange) => void, private readonly debounceMs = RELOAD_DEBOUNCE_MS) {}

  /**
   * Watch exactly these folders (those no longer listed, or listed as the other kind, are released).
   * `renew`: the watchers of that kind (or all) are made anew: a folder removed and made again
   * between two looks keeps its path, often its inode number too, but a watcher of the old one
   * hears nothing from it.
   */
  sync(targets: readonly WatchTarget[], renew?: WatchTarget['kind'] | 'all'): void {
    if (this.#closed) return;
    const wanted = new Map(targets.map((target) => [target.dir, target.kind]));
    for (const [dir, { watcher, kind }] of this.#watchers) {
      if (wanted.get(dir) !== kind || renew === kind || renew === 'all') {
        watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const [dir, kind] of wanted) {
      if (this.#watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, () => this.schedule(kind));
        watcher.on('error', () => {
          watcher.close();
          if (this.#watchers.get(dir)?.watcher === watcher) this.#watchers.delete(dir);
        });
        this.#watchers.set(dir, { watcher, kind });
      } catch {
        // missing or unreadable: nothing to watch
      }
    }
  }

  private schedule(kind: WatchedChange): void {
    if (this.#closed) return;
    if (kind === 'content' || this.#pending === undefined) this.#pending = kind;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const change = this.#pending ?? 'content';
      this.#timer = undefined;
      this.#pending = undefined;
      this.onChange(change);
    }, this.debounceMs);
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    for (const { watcher } of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}

