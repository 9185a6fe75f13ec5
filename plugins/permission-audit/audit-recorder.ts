/**
 * The audit log as the plugin uses it. Every record is written through (audit-log.ts) as its
 * decision is made: it is on disk before the call it records runs, so a crash or `process.exit`
 * right after loses nothing.
 *
 * One record waits: the boot's trust record, written at boot, would load `node:crypto` (the
 * chain's hashes) ahead of the first model request. It is held in memory until the first of: the
 * idle warm-up (while the first request waits for the model), the first permission check or other
 * record, session end, dispose — or the process's `exit`, whose listener writes it synchronously,
 * so `process.exit` and a crash keep it too. No tool runs before it is written.
 */
import type { AuditLog } from './audit-log.js';

/** Recorders holding a record; one `exit` listener serves them all. */
const holding = new Set<AuditRecorder>();
const releaseAllAtExit = (): void => {
  for (const recorder of [...holding]) recorder.release();
};

export class AuditRecorder {
  private held: object[] = [];

  constructor(readonly writer: Pick<AuditLog, 'appendAll' | 'problem'>) {}

  /** Keeps `record` until the next write, the warm-up, or the process's exit. */
  hold(record: object): void {
    this.held.push(record);
    if (holding.size === 0) process.on('exit', releaseAllAtExit);
    holding.add(this);
  }

  /** Writes `record` now (after anything held); false when it could not be written. */
  append(record: object): boolean {
    return this.writer.appendAll([...this.take(), record]);
  }

  /** Writes what is held, now. */
  release(): void {
    const held = this.take();
    if (held.length > 0) this.writer.appendAll(held);
  }

  /** Why no tool may run now (the log cannot be written), or undefined. Writes what is held first. */
  problem(): string | undefined {
    this.release();
    return this.writer.problem();
  }

  private take(): object[] {
    if (this.held.length === 0) return [];
    const held = this.held;
    this.held = [];
    holding.delete(this);
    if (holding.size === 0) process.off('exit', releaseAllAtExit);
    return held;
  }
}
