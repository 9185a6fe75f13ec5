/**
 * The audit log as the plugin uses it: the writer (hash chain, locking, no-follow opens) is
 * imported with the first record, not at boot, and records keep their order while it loads.
 */
import type { AuditLog } from './audit-log.js';

export type AuditWriter = Pick<AuditLog, 'append' | 'flush'>;

export class DeferredAuditLog implements AuditWriter {
  private writer: Promise<AuditWriter | undefined> | undefined;

  constructor(
    private readonly create: () => Promise<AuditWriter>,
    private readonly onLoadError: (message: string) => void,
  ) {}

  append(...args: Parameters<AuditLog['append']>): void {
    // Each record waits on the same promise, so `then` callbacks run in the order records came.
    void this.load().then((writer) => writer?.append(...args));
  }

  async flush(): Promise<void> {
    if (!this.writer) return;
    await (await this.writer)?.flush();
  }

  /** Load the writer now and write what is queued (the boot's delayed trust record). */
  async warm(): Promise<void> {
    await (await this.load())?.flush();
  }

  private load(): Promise<AuditWriter | undefined> {
    this.writer ??= this.create().catch((error: unknown) => {
      this.onLoadError(`the audit log writer could not be loaded: ${error instanceof Error ? error.message : String(error)}; nothing is recorded`);
      return undefined;
    });
    return this.writer;
  }
}
