/**
 * The audit log writer: an append-only, hash-chained JSONL file with size-bounded rotation
 * (SPEC A11, A16). The format is described in chain.ts.
 *
 * - Appends are asynchronous: callers never wait. Queued records are written in batches, in
 *   order, and `flush()` waits for all of them (session end, dispose).
 * - Each batch runs under the cross-process lock (lock.ts): read the anchor (`audit.head`), open
 *   the log O_APPEND|O_WRONLY|O_CREAT|O_NOFOLLOW (no-follow.ts), append, rotate when the next
 *   line would take the file past `maxBytes`, write the new anchor (temp file + rename, so a
 *   link at `audit.head` is replaced, never followed).
 * - Every record's `prev` is the anchor's last hash — what MewCode itself wrote last — never
 *   recomputed from the file. A log edited, cut or appended to between two writes therefore
 *   stays broken at that point for `mewcode audit verify` to find, and the writer says so once.
 * - A missing anchor next to a non-empty log (deleted, or a log from before chaining) starts an
 *   `anchor_lost` record chained to the file's real last line: the chain goes on, and verify
 *   reports that the lines before it could have been cut.
 * - Problems are reported once per kind (`onProblem`), never thrown; later records are still
 *   attempted, so a removed link lets the log resume.
 */
import { constants } from 'node:fs';
import { lstat, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { formatHead, GENESIS, hashLine, headFileOf, lockFileOf, parseHead, rotatedFile, rotationRecord, withPrev, type AuditHead } from './chain.js';
import { acquireLock } from './lock.js';
import { LinkRefusedError, openAuditDirectory, openNoFollow, readNoFollow, type AuditDirectory } from './no-follow.js';

export type AuditProblem = 'link' | 'write' | 'tampered';

export interface AuditLogOptions {
  /** Rotate before the file would exceed this many bytes. */
  maxBytes: number;
  /** Rotated files kept: audit.jsonl.1 … .keep. */
  keep: number;
  /** Told once per kind of problem, with a sentence for the user. */
  onProblem?(kind: AuditProblem, message: string): void;
}

const APPEND_FLAGS = constants.O_APPEND | constants.O_WRONLY | constants.O_CREAT;
const HEAD_TEMP_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY;

/** The chain state while a batch is written. */
interface ChainState extends AuditHead {
  /** The file does not end with a newline (cut mid-line): the next line must not be glued to it. */
  unterminated: boolean;
}

export class AuditLog {
  private pending: string[] = [];
  private draining: Promise<void> | undefined;
  private readonly reported = new Set<AuditProblem>();
  private readonly maxBytes: number;
  private readonly keep: number;
  /** Names inside the log's directory. */
  private readonly names: { log: string; head: string; lock: string };

  constructor(
    readonly file: string,
    private readonly options: AuditLogOptions,
  ) {
    this.maxBytes = Math.max(1, options.maxBytes);
    this.keep = Math.max(0, Math.floor(options.keep));
    this.names = { log: path.basename(file), head: path.basename(headFileOf(file)), lock: path.basename(lockFileOf(file)) };
  }

  /**
   * Queue one record; returns at once, and the write starts now. (Records the plugin wants written
   * later wait in deferred-log.ts, before this writer is even loaded.)
   */
  append(record: object): void {
    let json: string;
    try {
      json = JSON.stringify(record);
    } catch (error) {
      this.report('write', `cannot write the audit log ${this.file}: ${(error as Error).message}`);
      return;
    }
    this.pending.push(json);
    this.draining ??= this.drain();
  }

  /** Resolves when every queued record has been written (or has failed). */
  flush(): Promise<void> {
    if (!this.draining && this.pending.length > 0) this.draining = this.drain();
    return this.draining ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.writeBatch(batch);
      } catch (error) {
        if (error instanceof LinkRefusedError) {
          this.report('link', `refusing to write the audit log through a link: ${error.message}; nothing was written (remove it so the log can resume)`);
        } else {
          this.report('write', `cannot write the audit log ${this.file}: ${(error as Error).message}`);
        }
      }
    }
    this.draining = undefined;
  }

  private async writeBatch(records: string[]): Promise<void> {
    const dir = await openAuditDirectory(path.dirname(this.file));
    try {
      await this.writeBatchIn(dir, records);
    } finally {
      await dir.close();
    }
  }

  private async writeBatchIn(dir: AuditDirectory, records: string[]): Promise<void> {
    const release = await acquireLock(dir, this.names.lock);
    let handle: FileHandle | undefined;
    try {
      handle = await openNoFollow(dir, this.names.log, APPEND_FLAGS);
      const size = (await handle.stat()).size;
      const { state, lost } = await this.chainState(dir, size);
      if (lost) records = [JSON.stringify(lost), ...records];

      let chunk = state.unterminated ? '\n' : '';
      for (const json of records) {
        let line = withPrev(json, state.last);
        // Rotate before a line would take a non-empty file past the cap. The line then goes in
        // the fresh file even if it alone exceeds the cap (checked once per line: no loop).
        if (state.bytes > 0 && state.bytes + Buffer.byteLength(line) + 1 > this.maxBytes) {
          await writeAll(handle, chunk);
          await handle.close();
          handle = undefined;
          const kept = await this.rotate(dir);
          handle = await openNoFollow(dir, this.names.log, APPEND_FLAGS);
          const rotation = withPrev(JSON.stringify(rotationRecord(this.names.log, state.segment + 1, kept, state.records)), state.last);
          chunk = `${rotation}\n`;
          Object.assign(state, { segment: state.segment + 1, records: 1, bytes: Buffer.byteLength(chunk), last: hashLine(rotation) });
          line = withPrev(json, state.last);
        }
        chunk += `${line}\n`;
        state.records++;
        state.bytes += Buffer.byteLength(line) + 1;
        state.last = hashLine(line);
      }
      await writeAll(handle, chunk);
      await this.writeHead(dir, state);
    } finally {
      await handle?.close().catch(() => undefined);
      await release();
    }
  }

  /**
   * Where the chain stands: the anchor when there is one (saying so once if the file no longer
   * matches it), else the file's own last line plus an `anchor_lost` record.
   */
  private async chainState(dir: AuditDirectory, size: number): Promise<{ state: ChainState; lost?: object }> {
    let head: AuditHead | string | undefined;
    try {
      const text = await readNoFollow(dir, this.names.head);
      head = text === undefined ? undefined : parseHead(text);
    } catch (error) {
      head = error instanceof LinkRefusedError ? error.message : (error as Error).message;
    }
    if (typeof head === 'object') {
      if (size !== head.bytes) {
        this.report(
          'tampered',
          `the audit log ${this.file} was changed since MewCode last wrote it (${size} bytes, ${head.bytes} expected); ` +
            'new records keep the chain from the last one MewCode wrote, so `mewcode audit verify` will show where',
        );
      }
      const unterminated = size > 0 && !(await endsWithNewline(dir, this.names.log, size));
      // `bytes` is the file's real size (what the next write will find); `last` stays MewCode's own.
      return { state: { ...head, bytes: size + (unterminated ? 1 : 0), unterminated } };
    }
    if (size === 0) return { state: { segment: 0, records: 0, bytes: 0, last: GENESIS, unterminated: false } };

    // A log without its anchor: continue from the file's real end, and say the end was unguarded.
    const text = (await readNoFollow(dir, this.names.log)) ?? '';
    const lines = text.split('\n');
    const unterminated = lines.at(-1) !== '';
    if (!unterminated) lines.pop();
    const lastLine = lines.at(-1) ?? '';
    const why = head === undefined ? `${this.names.head} is missing` : `${this.names.head} is unusable (${head})`;
    this.report('tampered', `${why} next to the non-empty audit log ${this.file}; lines cut from its end before now cannot be detected`);
    const firstSegment = segmentOf(lines[0]);
    return {
      state: { segment: firstSegment, records: lines.length, bytes: Buffer.byteLength(text) + (unterminated ? 1 : 0), last: hashLine(lastLine), unterminated },
      lost: { type: 'anchor_lost', time: new Date().toISOString(), reason: why, records_found: lines.length },
    };
  }

  /** `.N-1 → .N … → .1`, current → `.1`; returns how many rotated files now follow in a row. */
  private async rotate(dir: AuditDirectory): Promise<number> {
    const log = this.names.log;
    if (this.keep === 0) {
      await unlink(dir.at(log)).catch(ignoreMissing);
      return 0;
    }
    // rename moves a link planted at one of these names; it never writes through it.
    for (let i = this.keep - 1; i >= 1; i--) await rename(dir.at(rotatedFile(log, i)), dir.at(rotatedFile(log, i + 1))).catch(ignoreMissing);
    await rename(dir.at(log), dir.at(rotatedFile(log, 1)));
    // Counted, not assumed: after `keep` was raised, or in a young log, fewer files exist.
    let kept = 1;
    while (kept < this.keep && (await exists(dir.at(rotatedFile(log, kept + 1))))) kept++;
    return kept;
  }

  private async writeHead(dir: AuditDirectory, head: AuditHead): Promise<void> {
    const temp = `${this.names.head}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const handle = await openNoFollow(dir, temp, HEAD_TEMP_FLAGS);
    try {
      await handle.writeFile(formatHead(head));
    } finally {
      await handle.close();
    }
    // rename replaces whatever is at audit.head (a link included) without following it.
    await rename(dir.at(temp), dir.at(this.names.head)).catch(async (error: unknown) => {
      await unlink(dir.at(temp)).catch(() => undefined);
      throw error;
    });
  }

  private report(kind: AuditProblem, message: string): void {
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.options.onProblem?.(kind, message);
  }
}

async function writeAll(handle: FileHandle, text: string): Promise<void> {
  if (text === '') return;
  const buffer = Buffer.from(text, 'utf8');
  // One write(2) with O_APPEND: the batch lands whole at the end. A short write (disk full) is an error.
  const { bytesWritten } = await handle.write(buffer, 0, buffer.length);
  if (bytesWritten !== buffer.length) throw new Error(`only ${bytesWritten} of ${buffer.length} bytes were written`);
}

async function endsWithNewline(dir: AuditDirectory, name: string, size: number): Promise<boolean> {
  const handle = await openNoFollow(dir, name, constants.O_RDONLY);
  try {
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, size - 1);
    return byte[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

function segmentOf(firstLine: string | undefined): number {
  try {
    const record = JSON.parse(firstLine ?? '') as { type?: unknown; segment?: unknown };
    return record.type === 'rotation' && typeof record.segment === 'number' ? record.segment : 0;
  } catch {
    return 0;
  }
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
