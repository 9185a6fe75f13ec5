/**
 * Hot reload of the catalog: each skills root and each skill folder is watched (not recursively:
 * Node 20's recursive watch on Linux walks whole trees), and a change schedules one reload after a
 * short quiet period. Watchers never keep the process alive, and an unwatchable folder is simply
 * not watched (bodies are re-read at every load anyway).
 */
import { watch, type FSWatcher } from 'node:fs';

export const RELOAD_DEBOUNCE_MS = 150;

export class CatalogWatcher {
  readonly #watchers = new Map<string, FSWatcher>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly onChange: () => void, private readonly debounceMs = RELOAD_DEBOUNCE_MS) {}

  /** Watch exactly these folders (those no longer listed are released). */
  sync(dirs: readonly string[]): void {
    if (this.#closed) return;
    const wanted = new Set(dirs);
    for (const [dir, watcher] of this.#watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, () => this.schedule());
        watcher.on('error', () => {
          watcher.close();
          this.#watchers.delete(dir);
        });
        this.#watchers.set(dir, watcher);
      } catch {
        // missing or unreadable: nothing to watch
      }
    }
  }

  private schedule(): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.onChange();
    }, this.debounceMs);
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}
