/** One holder at a time, FIFO. Used so a run and a forced compaction never overlap (L8). */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private held = false;

  get locked(): boolean {
    return this.held;
  }

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    this.held = true;
    return () => {
      this.held = false;
      release();
    };
  }
}
