/** An unbounded async queue: producers push from anywhere (the run, sub-agents' listeners), one consumer iterates. */
export class MessageQueue<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.closed) return;
    this.buffer.push(item);
    this.wake?.();
  }

  close(error?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (error !== undefined) this.failure = { error };
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.buffer.length > 0) {
        yield this.buffer.shift() as T;
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
