/**
 * The audit log writer: an append-only, hash-chained JSONL file with size-bounded rotation
 * (A11, A16). The format is described in chain.ts.
 *
 * - Every append is written through, synchronously, before `append` returns: a record is on disk
 *   (in the kernel's page cache, which outlives the process) before the decision it records takes
 *   effect, so a crash or `process.exit` right after loses nothing. One append costs a few dozen
 *   system calls (well under a millisecond).
 * - Each append runs under the cross-process lock (lock.ts): read the anchor, open the log
 *   O_APPEND|O_RDWR|O_CREAT|O_NOFOLLOW (no-follow.ts), append, rotate when the next line would take
 *   the file past `maxBytes`, write the new head (temp file + rename, so a link at `audit.head` is
 *   replaced, never followed) and, when `anchor` is set, the user's own copy of it outside the
 *   project (`~/.mewcode/audit/…`, chain.ts: the root of trust).
 * - Every record's `prev` is the anchor's last hash — what MewCode itself wrote last — never
 *   recomputed from the file. With `anchor` set, that is the user's copy, which the project cannot
 *   write; without it, `audit.head`. A log edited, cut, replaced or appended to between two writes
 *   therefore stays broken at that point for `mewcode audit verify` to find, and the writer says so.
 * - A missing anchor next to a non-empty log (a log the repository brought, one from before
 *   anchoring, or a deleted anchor) starts an `anchor_lost` record chained to the file's real last
 *   line: the chain goes on, and verify reports that the lines before it are not vouched for.
 * - Problems are reported once per kind (`onProblem`), never thrown; `append` returns false and
 *   `problem()` says why, so the plugin can refuse tools while the log cannot be written. Later
 *   records are still attempted, so a removed link lets the log resume.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isStatePathRefused } from '../../sdk/project-state-dir.js';
import { formatHead, GENESIS, hashLine, headFileOf, lockFileOf, parseHead, rotatedFile, rotationRecord, withPrev, type AuditHead } from './chain.js';
import { acquireLock } from './lock.js';
import { openAuditDirectory, openNoFollow, readNoFollow, type AuditDirectory } from './no-follow.js';

export type AuditProblem = 'link' | 'write' | 'tampered';

export interface AuditLogOptions {
  /** Rotate before the file would exceed this many bytes. */
  maxBytes: number;
  /** Rotated files kept: audit.jsonl.1 … .keep. */
  keep: number;
  /** Told once per kind of problem, with a sentence for the user. */
  onProblem?(kind: AuditProblem, message: string): void;
  /**
   * The user's own copy of the head, outside the project (chain.ts `anchorFileOf`): the root of
   * trust. Without it, `audit.head` next to the log is the only anchor.
   */
  anchor?: string | (() => string);
}

const APPEND_FLAGS = constants.O_APPEND | constants.O_RDWR | constants.O_CREAT;
const HEAD_TEMP_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY;

/** The chain state while a batch is written. */
interface ChainState extends AuditHead {
  /** The file does not end with a newline (cut mid-line): the next line must not be glued to it. */
  unterminated: boolean;
}

export class AuditLog {
  private readonly reported = new Set<AuditProblem>();
  private readonly maxBytes: number;
  private readonly keep: number;
  /** Names inside the log's directory. */
  private readonly names: { log: string; head: string; lock: string };
  /** Why the last append failed; cleared by the next one that succeeds. */
  private lastFailure: string | undefined;
  private anchorFile: string | undefined;

  constructor(
    readonly file: string,
    private readonly options: AuditLogOptions,
  ) {
    this.maxBytes = Math.max(1, options.maxBytes);
    this.keep = Math.max(0, Math.floor(options.keep));
    this.names = { log: path.basename(file), head: path.basename(headFileOf(file)), lock: path.basename(lockFileOf(file)) };
  }

  /** Writes one record now; false when it could not be (said once per kind through onProblem). */
  append(record: object): boolean {
    return this.appendAll([record]);
  }

  /** Writes the records now, in order, in one append. */
  appendAll(records: readonly object[]): boolean {
    let lines: string[];
    try {
      lines = records.map((record) => JSON.stringify(record));
    } catch (error) {
      return this.fail('write', `cannot write the audit log ${this.file}: ${(error as Error).message}`);
    }
    try {
      this.writeRecords(lines);
      this.lastFailure = undefined;
      return true;
    } catch (error) {
      if (isStatePathRefused(error) && /symbolic link|hard link/.test(error.message)) {
        return this.fail('link', `refusing to write the audit log through a link: ${error.message}; nothing was written (remove it so the log can resume)`);
      }
      return this.fail('write', `cannot write the audit log ${this.file}: ${(error as Error).message}`);
    }
  }

  /** Appends are written through: nothing waits. Kept so callers can treat every writer alike. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Why the log cannot be written now, or undefined when it can: the directory and the file are
   * opened (created when missing) exactly as an append would, without writing; the user's anchor
   * directory must be usable; and the last append must have succeeded.
   */
  problem(): string | undefined {
    try {
      const dir = openAuditDirectory(path.dirname(this.file));
      try {
        closeSync(openNoFollow(dir, this.names.log, APPEND_FLAGS));
      } finally {
        dir.close();
      }
      if (this.anchor) ensureAnchorDirectory(this.anchor);
    } catch (error) {
      return isStatePathRefused(error) ? `${error.message}; MewCode never writes the audit log through a link` : (error as Error).message;
    }
    return this.lastFailure;
  }

  /** The user's copy of the head, when this log keeps one (named on first use). */
  private get anchor(): string | undefined {
    const { anchor } = this.options;
    if (anchor === undefined) return undefined;
    return (this.anchorFile ??= typeof anchor === 'string' ? anchor : anchor());
  }

  private fail(kind: AuditProblem, message: string): false {
    this.lastFailure = message;
    this.report(kind, message);
    return false;
  }

  private writeRecords(records: string[]): void {
    const dir = openAuditDirectory(path.dirname(this.file));
    try {
      this.writeRecordsIn(dir, records);
    } finally {
      dir.close();
    }
  }

  private writeRecordsIn(dir: AuditDirectory, records: string[]): void {
    const release = acquireLock(dir, this.names.lock);
    let fd: number | undefined;
    try {
      fd = openNoFollow(dir, this.names.log, APPEND_FLAGS);
      const size = fstatSync(fd).size;
      const { state, lost } = this.chainState(dir, fd, size);
      if (lost) records = [JSON.stringify(lost), ...records];

      let chunk = state.unterminated ? '\n' : '';
      for (const json of records) {
        let line = withPrev(json, state.last);
        // Rotate before a line would take a non-empty file past the cap. The line then goes in
        // the fresh file even if it alone exceeds the cap (checked once per line: no loop).
        if (state.bytes > 0 && state.bytes + Buffer.byteLength(line) + 1 > this.maxBytes) {
          writeAll(fd, chunk);
          closeSync(fd);
          fd = undefined;
          const kept = this.rotate(dir);
          fd = openNoFollow(dir, this.names.log, APPEND_FLAGS);
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
      writeAll(fd, chunk);
      this.writeHead(dir, state);
      if (this.anchor) writeAnchor(this.anchor, state, path.join(dir.real, this.names.log));
    } finally {
      if (fd !== undefined) closeSync(fd);
      release();
    }
  }

  /**
   * Where the chain stands: the anchor when there is one (saying so once if the file no longer
   * matches it), else the file's own last line plus an `anchor_lost` record.
   */
  private chainState(dir: AuditDirectory, fd: number, size: number): { state: ChainState; lost?: object } {
    const anchorName = this.anchor ? `the anchor ${this.anchor}` : this.names.head;
    let head: AuditHead | string | undefined;
    try {
      const text = this.anchor ? readAnchor(this.anchor) : readNoFollow(dir, this.names.head);
      head = text === undefined ? undefined : parseHead(text);
    } catch (error) {
      head = (error as Error).message;
    }
    if (typeof head === 'object') {
      if (size !== head.bytes) {
        this.report(
          'tampered',
          `the audit log ${this.file} was changed since MewCode last wrote it (${size} bytes, ${head.bytes} expected); ` +
            'new records keep the chain from the last one MewCode wrote, so `mewcode audit verify` will show where',
        );
      }
      const unterminated = size > 0 && lastByte(fd, size) !== 0x0a;
      // `bytes` is the file's real size (what the next write will find); `last` stays MewCode's own.
      return { state: { ...head, bytes: size + (unterminated ? 1 : 0), unterminated } };
    }
    if (size === 0) return { state: { segment: 0, records: 0, bytes: 0, last: GENESIS, unterminated: false } };

    // A log without its anchor: continue from the file's real end, and say the end was unguarded.
    const text = readFd(fd, size);
    const lines = text.split('\n');
    const unterminated = lines.at(-1) !== '';
    if (!unterminated) lines.pop();
    const lastLine = lines.at(-1) ?? '';
    const why =
      head === undefined
        ? this.anchor
          ? `no anchor for this log in ${path.dirname(this.anchor)} (MewCode did not write it on this machine, or wrote it before anchors were kept there)`
          : `${this.names.head} is missing`
        : `${anchorName} is unusable (${head})`;
    this.report('tampered', `${why}: the ${lines.length} records already in the audit log ${this.file} are not vouched for; new records are chained after them`);
    const firstSegment = segmentOf(lines[0]);
    return {
      state: { segment: firstSegment, records: lines.length, bytes: Buffer.byteLength(text) + (unterminated ? 1 : 0), last: hashLine(lastLine), unterminated },
      lost: { type: 'anchor_lost', time: new Date().toISOString(), reason: why, records_found: lines.length },
    };
  }

  /** `.N-1 → .N … → .1`, current → `.1`; returns how many rotated files now follow in a row. */
  private rotate(dir: AuditDirectory): number {
    const log = this.names.log;
    if (this.keep === 0) {
      ignoreMissing(() => unlinkSync(dir.at(log)));
      return 0;
    }
    // rename moves a link planted at one of these names; it never writes through it.
    for (let i = this.keep - 1; i >= 1; i--) ignoreMissing(() => renameSync(dir.at(rotatedFile(log, i)), dir.at(rotatedFile(log, i + 1))));
    renameSync(dir.at(log), dir.at(rotatedFile(log, 1)));
    // Counted, not assumed: after `keep` was raised, or in a young log, fewer files exist.
    let kept = 1;
    while (kept < this.keep && lstatSync(dir.at(rotatedFile(log, kept + 1)), { throwIfNoEntry: false }) !== undefined) kept++;
    return kept;
  }

  /**
   * `audit.head` is rewritten in place (one small write at offset 0, padded to the old length so
   * no stale byte stays outside the JSON): a rename over it would make ext4 flush the new file
   * first, milliseconds on every record. Only something other than our own regular file at the
   * name (a link, a FIFO, a hard link) is replaced by temp file + rename, never followed.
   */
  private writeHead(dir: AuditDirectory, head: AuditHead): void {
    const text = formatHead(head);
    let fd: number | undefined;
    try {
      fd = openNoFollow(dir, this.names.head, constants.O_RDWR | constants.O_CREAT);
    } catch (error) {
      if (!isStatePathRefused(error)) throw error;
    }
    if (fd !== undefined) {
      try {
        overwrite(fd, text);
      } finally {
        closeSync(fd);
      }
      return;
    }
    const temp = `${this.names.head}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const tempFd = openNoFollow(dir, temp, HEAD_TEMP_FLAGS);
    try {
      writeAll(tempFd, text);
    } finally {
      closeSync(tempFd);
    }
    // rename replaces whatever is at audit.head (a link included) without following it.
    try {
      renameSync(dir.at(temp), dir.at(this.names.head));
    } catch (error) {
      ignoreMissing(() => unlinkSync(dir.at(temp)));
      throw error;
    }
  }

  private report(kind: AuditProblem, message: string): void {
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.options.onProblem?.(kind, message);
  }
}

/** `~/.mewcode/audit/`: created for the user only; a link or non-directory there is refused. */
function ensureAnchorDirectory(anchor: string): void {
  const dir = path.dirname(anchor);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  if (!info.isDirectory()) throw new Error(`${dir} is not a directory`);
}

function readAnchor(anchor: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(anchor, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${anchor} is not a regular file`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The user's copy of the head (with the log it anchors, for whoever reads it), rewritten in place
 * like `audit.head`; anything but a regular file of one link at the name is replaced by rename.
 */
function writeAnchor(anchor: string, head: AuditHead, log: string): void {
  ensureAnchorDirectory(anchor);
  const text = `${JSON.stringify({ segment: head.segment, records: head.records, bytes: head.bytes, last: head.last, log })}\n`;
  let fd: number | undefined;
  try {
    fd = openSync(anchor, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
    const info = fstatSync(fd);
    if (!info.isFile() || info.nlink !== 1) {
      closeSync(fd);
      fd = undefined;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ELOOP' && code !== 'ENXIO' && code !== 'EISDIR') throw error;
  }
  if (fd !== undefined) {
    try {
      overwrite(fd, text);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const temp = `${anchor}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const tempFd = openSync(temp, HEAD_TEMP_FLAGS | constants.O_NOFOLLOW, 0o600);
  try {
    writeAll(tempFd, text);
  } finally {
    closeSync(tempFd);
  }
  try {
    renameSync(temp, anchor);
  } catch (error) {
    ignoreMissing(() => unlinkSync(temp));
    throw error;
  }
}

/**
 * Replaces a small file's content with one write at offset 0. Shorter text is padded with spaces
 * before its final newline to the old length (JSON allows the blanks), so the file never holds a
 * stale tail and one write(2) — atomic for readers at this size — is all it takes.
 */
function overwrite(fd: number, text: string): void {
  const size = fstatSync(fd).size;
  const bytes = Buffer.byteLength(text);
  const padded = bytes >= size ? text : `${text.slice(0, -1)}${' '.repeat(size - bytes)}\n`;
  const buffer = Buffer.from(padded, 'utf8');
  const written = writeSync(fd, buffer, 0, buffer.length, 0);
  if (written !== buffer.length) throw new Error(`only ${written} of ${buffer.length} bytes were written`);
}

function lastByte(fd: number, size: number): number | undefined {
  const byte = Buffer.alloc(1);
  return readSync(fd, byte, 0, 1, size - 1) === 1 ? byte[0] : undefined;
}

function readFd(fd: number, size: number): string {
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const count = readSync(fd, buffer, read, size - read, read);
    if (count <= 0) break;
    read += count;
  }
  return buffer.subarray(0, read).toString('utf8');
}

function writeAll(fd: number, text: string): void {
  if (text === '') return;
  const buffer = Buffer.from(text, 'utf8');
  // One write(2) with O_APPEND: the records land whole at the end. A short write (disk full) is an error.
  const written = writeSync(fd, buffer, 0, buffer.length);
  if (written !== buffer.length) throw new Error(`only ${written} of ${buffer.length} bytes were written`);
}

function segmentOf(firstLine: string | undefined): number {
  try {
    const record = JSON.parse(firstLine ?? '') as { type?: unknown; segment?: unknown };
    return record.type === 'rotation' && typeof record.segment === 'number' ? record.segment : 0;
  } catch {
    return 0;
  }
}

function ignoreMissing(operation: () => void): void {
  try {
    operation();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
