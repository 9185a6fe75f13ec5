/**
 * An append-only JSONL file with size-bounded rotation (SPEC A11).
 *
 * - One `appendFile` (O_APPEND, a single write of the whole line) per record, so lines from two
 *   MewCode processes in the same project never interleave.
 * - Appends are asynchronous and serialised through one promise chain: callers never wait, lines
 *   of this process keep their order, and `flush()` waits for all of them (dispose).
 * - Before a line would take the file past `maxBytes`, the file is rotated: `.N-1 → .N … → .1`,
 *   current → `.1`, keeping `keep` old files; the line starts a fresh file.
 * - A failure is reported once (`onError`) and never thrown; later lines are still attempted.
 */
import { appendFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export interface AuditLogOptions {
  /** Rotate before the file would exceed this many bytes (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files kept: audit.jsonl.1 … .keep (default 3). */
  keep?: number;
  onError?(error: Error): void;
}

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_KEEP = 3;

export class AuditLog {
  private chain: Promise<void> = Promise.resolve();
  private directoryReady = false;
  private failed = false;
  private readonly maxBytes: number;
  private readonly keep: number;

  constructor(
    readonly file: string,
    private readonly options: AuditLogOptions = {},
  ) {
    this.maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_MAX_BYTES);
    this.keep = Math.max(0, Math.floor(options.keep ?? DEFAULT_KEEP));
  }

  /** Queue one record; returns at once. */
  append(record: object): void {
    let line: string;
    try {
      line = `${JSON.stringify(record)}\n`;
    } catch (error) {
      this.report(error as Error);
      return;
    }
    this.chain = this.chain.then(() => this.write(line)).catch((error: unknown) => this.report(error as Error));
  }

  /** Resolves when every queued record has been written (or has failed). */
  flush(): Promise<void> {
    return this.chain;
  }

  private async write(line: string): Promise<void> {
    if (!this.directoryReady) {
      await mkdir(path.dirname(this.file), { recursive: true });
      this.directoryReady = true;
    }
    const bytes = Buffer.byteLength(line);
    const size = await currentSize(this.file);
    if (size > 0 && size + bytes > this.maxBytes) await this.rotate();
    await appendFile(this.file, line, { encoding: 'utf8', flag: 'a' });
  }

  private async rotate(): Promise<void> {
    if (this.keep === 0) {
      await unlink(this.file).catch(ignoreMissing);
      return;
    }
    for (let i = this.keep - 1; i >= 1; i--) await rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(ignoreMissing);
    await rename(this.file, `${this.file}.1`).catch(ignoreMissing);
  }

  private report(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.options.onError?.(error);
  }
}

async function currentSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
