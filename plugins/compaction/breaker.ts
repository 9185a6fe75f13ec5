/**
 * C7's breaker, per session: three automatic compactions that fail in a row turn automatic
 * compaction off for that session (each further try would cost a failing request and its delay on
 * every turn). Manual and emergency compactions ignore it and their failures do not count; any
 * compaction that succeeds shows the summariser works again and resets it.
 */
import { BREAKER_FAILURES } from './thresholds.js';

export class Breaker {
  readonly #failures = new Map<string, number>();

  tripped(session: string): boolean {
    return (this.#failures.get(session) ?? 0) >= BREAKER_FAILURES;
  }

  /** An automatic compaction failed; returns the count of failures in a row. */
  failed(session: string): number {
    const count = (this.#failures.get(session) ?? 0) + 1;
    this.#failures.set(session, count);
    return count;
  }

  /** Returns whether the breaker had tripped (so the user can be told it is on again). */
  succeeded(session: string): boolean {
    const was = this.tripped(session);
    this.#failures.delete(session);
    return was;
  }

  forget(session: string): void {
    this.#failures.delete(session);
  }
}
