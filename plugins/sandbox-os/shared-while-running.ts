/**
 * Work that calls arriving together share: while one call's work for a key is running, a call
 * with the same key joins it instead of doing it again; once it has settled, the next call does
 * its own. Nothing is kept, so what a call joins was begun at most a few milliseconds before it
 * arrived, never before something it must see (the caller puts that in the key).
 */
export class SharedWhileRunning<T> {
  private readonly running = new Map<string, Promise<T>>();

  join(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running) return running;
    const started = work();
    this.running.set(key, started);
    const forget = (): void => {
      if (this.running.get(key) === started) this.running.delete(key);
    };
    started.then(forget, forget);
    return started;
  }
}
