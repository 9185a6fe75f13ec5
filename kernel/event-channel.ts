/** An unbounded async queue: producers push from anywhere, one consumer iterates. */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private closed = false;
  private failure: unknown;

  push(item: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: item, done: false });
    } else {
      this.buffer.push(item);
    }
  }

  close(failure?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.failure = failure;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.buffer.length > 0) {
        yield this.buffer.shift() as T;
        continue;
      }
      if (this.closed) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      const next = await new Promise<IteratorResult<T>>((resolve) => (this.waiting = resolve));
      if (next.done) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      yield next.value;
    }
  }
}
