/**
 * The audit log as the plugin uses it. The writer (hash chain, locking, no-follow opens, and
 * `node:crypto` for the chain's hashes: ≈ 5 ms to load) is not loaded at boot, nor between a
 * model's answer and the next request: records wait here, in order, until the writer is loaded
 * by `warm()` (the kernel's idle warm-up, while the first request waits for the model), by
 * `flush()` (session end), `holdMs` after the first record at the latest, or when the process
 * is about to exit. From then on each record goes straight to the writer, which writes it at once.
 * What a crash can lose is the first `holdMs` of records, and only when the model answered
 * before the warm-up.
 */
import type { AuditLog } from './audit-log.js';

export type AuditWriter = Pick<AuditLog, 'append' | 'flush'>;

/**
 * Logs holding records. An exit that skips shutdown (no UI, a failed start) must not lose them:
 * the event loop empties, `beforeExit` fires, and the loads and writes started then keep the
 * process alive. One listener serves them all, so many kernels in one process add no more.
 */
const holding = new Set<DeferredAuditLog>();
const releaseAllBeforeExit = (): void => {
  for (const log of [...holding]) log.releaseHeld();
};

export class DeferredAuditLog implements AuditWriter {
  private writer: Promise<AuditWriter | undefined> | undefined;
  private held: object[] = [];
  /** While records are held: what releases them at the latest (cleared once they are released). */
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly create: () => Promise<AuditWriter>,
    private readonly onLoadError: (message: string) => void,
    private readonly holdMs: number,
  ) {}

  append(record: object): void {
    if (this.writer !== undefined) return this.pass(record);
    this.held.push(record);
    if (this.holdTimer !== undefined) return;
    this.holdTimer = setTimeout(() => this.releaseHeld(), this.holdMs).unref();
    if (holding.size === 0) process.on('beforeExit', releaseAllBeforeExit);
    holding.add(this);
  }

  async flush(): Promise<void> {
    this.releaseHeld();
    if (!this.writer) return;
    await (await this.writer)?.flush();
  }

  /** Load the writer now and write what is held (the boot's trust record). */
  async warm(): Promise<void> {
    this.releaseHeld();
    await (await this.load())?.flush();
  }

  /** Held records go to the writer, due now, ahead of anything appended after them (also on `beforeExit`). */
  releaseHeld(): void {
    if (this.holdTimer !== undefined) {
      clearTimeout(this.holdTimer);
      this.holdTimer = undefined;
      holding.delete(this);
      if (holding.size === 0) process.off('beforeExit', releaseAllBeforeExit);
    }
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    for (const record of held) this.pass(record);
  }

  private pass(record: object): void {
    // Each record waits on the same promise, so `then` callbacks run in the order records came.
    void this.load().then((writer) => writer?.append(record));
  }

  private load(): Promise<AuditWriter | undefined> {
    this.writer ??= this.create().catch((error: unknown) => {
      this.onLoadError(`the audit log writer could not be loaded: ${error instanceof Error ? error.message : String(error)}; nothing is recorded`);
      return undefined;
    });
    return this.writer;
  }
}
