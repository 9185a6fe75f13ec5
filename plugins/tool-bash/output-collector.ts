/**
 * Collects a command's interleaved output with bounded memory (T5, T8).
 *
 * While the output fits the caps it is kept in memory. The moment it exceeds them (more bytes
 * than `maxBytes` or more lines than `maxLines`) the collector keeps only the first `maxBytes`
 * bytes (the head) and a ring of the last `maxBytes` bytes (the tail), and streams everything,
 * including what was buffered so far, to a spill file. While the spill file is being opened, or
 * its write buffer is full, the sources are paused (`setFlowing(false)`): the child then blocks
 * on its full pipe instead of our memory growing. The spill file itself is capped at
 * `spillMaxBytes`; after that, output is still read (so the command never blocks) and the head
 * and tail are still tracked, but nothing more is written.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { utf8BoundaryAtOrAfter as boundaryAtOrAfter, utf8BoundaryAtOrBefore as boundaryAtOrBefore } from '../../sdk/text-cuts.js';
import { countNewlines } from './utf8.js';

export interface CollectorOptions {
  maxBytes: number;
  maxLines: number;
  /** Budget of the head when the output is cut; the tail gets what the head leaves of the caps. */
  headLines: number;
  headBytes: number;
  spillMaxBytes: number;
  /** A fresh path for the spill file (called at most once, only when the output is cut). */
  openSpill(): Promise<string | { path: string; fd: number }>;
  /** Pause (false) or resume (true) the sources. */
  setFlowing(flowing: boolean): void;
  /** Write buffer of the spill file stream. */
  spillHighWaterMark?: number;
}

export interface SpillInfo {
  path: string;
  /** Bytes written to the file. */
  bytes: number;
  /** The spill cap was reached: the file holds only the first `bytes` bytes of the output. */
  cut: boolean;
}

export type CollectedOutput =
  | { capped: false; text: string; totalBytes: number; totalLines: number }
  | {
      capped: true;
      head: string;
      tail: string;
      totalBytes: number;
      totalLines: number;
      /** Whole lines (newlines) and bytes between the head and the tail. */
      omittedLines: number;
      omittedBytes: number;
      /** 1-based line numbers of the omitted lines, when both cuts fell on line boundaries. */
      omittedRange?: { from: number; to: number };
      spill?: SpillInfo;
      /** Why the full output could not be saved. */
      spillError?: string;
    };

const DEFAULT_SPILL_HIGH_WATER_MARK = 1024 * 1024;

export class OutputCollector {
  private totalBytes = 0;
  private newlines = 0;
  private lastByte = -1;
  private capped = false;

  /** Everything, while not capped. */
  private memory: Buffer[] = [];
  /** The first `maxBytes` bytes, once capped. */
  private head = Buffer.alloc(0);
  /** The last bytes (at least `tailKeep` once enough arrived), once capped. */
  private tailChunks: Buffer[] = [];
  private tailSize = 0;
  private readonly tailKeep: number;

  private spillState: 'none' | 'opening' | 'open' | 'failed' = 'none';
  private spillPath: string | undefined;
  private spillStream: WriteStream | undefined;
  private spillOpening: Promise<void> | undefined;
  private spillQueue: Buffer[] = [];
  private spillAccepted = 0;
  private spillCut = false;
  private spillError: string | undefined;

  private opening = false;
  private writeBlocked = false;
  private flowing = true;
  private finished = false;

  constructor(private readonly options: CollectorOptions) {
    // A few bytes more than the caps, so the tail can always start on a character boundary.
    this.tailKeep = options.maxBytes + 4;
  }

  /** Bytes received so far. */
  get bytes(): number {
    return this.totalBytes;
  }

  write(chunk: Buffer): void {
    if (this.finished || chunk.length === 0) return;
    this.totalBytes += chunk.length;
    this.newlines += countNewlines(chunk);
    this.lastByte = chunk[chunk.length - 1] as number;

    if (!this.capped) {
      this.memory.push(chunk);
      if (this.totalBytes > this.options.maxBytes || this.lines() > this.options.maxLines) this.cap();
      return;
    }
    this.pushTail(chunk);
    this.spill(chunk);
  }

  /** Call once the sources have ended; waits for the spill file to be complete. */
  async finish(): Promise<CollectedOutput> {
    this.finished = true;
    if (!this.capped) {
      const text = Buffer.concat(this.memory).toString('utf8');
      this.memory = [];
      return { capped: false, text, totalBytes: this.totalBytes, totalLines: this.lines() };
    }
    await this.spillOpening;
    if (this.spillStream && this.spillState === 'open') {
      const stream = this.spillStream;
      stream.end();
      try {
        await finished(stream);
      } catch (error) {
        this.spillError ??= (error as Error).message;
      }
    }
    return this.cut();
  }

  private lines(): number {
    return this.newlines + (this.totalBytes > 0 && this.lastByte !== 10 ? 1 : 0);
  }

  private cap(): void {
    this.capped = true;
    const all = Buffer.concat(this.memory);
    this.memory = [];
    this.head = Buffer.from(all.subarray(0, this.options.maxBytes));
    this.pushTail(Buffer.from(all.subarray(Math.max(0, all.length - this.tailKeep))));
    this.startSpill(all);
  }

  private pushTail(chunk: Buffer): void {
    this.tailChunks.push(chunk);
    this.tailSize += chunk.length;
    while (this.tailChunks.length > 1 && this.tailSize - (this.tailChunks[0] as Buffer).length >= this.tailKeep) {
      this.tailSize -= (this.tailChunks.shift() as Buffer).length;
    }
  }

  private startSpill(initial: Buffer): void {
    this.spillState = 'opening';
    this.opening = true;
    this.updateFlow();
    this.spill(initial);
    this.spillOpening = this.options.openSpill().then(
      (opened) => {
        // An opened file (the spill directory was checked for links) or, from simpler callers, a path.
        const file = typeof opened === 'string' ? opened : opened.path;
        this.spillPath = file;
        const highWaterMark = this.options.spillHighWaterMark ?? DEFAULT_SPILL_HIGH_WATER_MARK;
        const stream = typeof opened === 'string' ? createWriteStream(file, { highWaterMark }) : createWriteStream(file, { fd: opened.fd, highWaterMark });
        stream.on('error', (error) => this.failSpill(error));
        this.spillStream = stream;
        if (this.spillState !== 'opening') return; // failed in between
        this.spillState = 'open';
        const queued = this.spillQueue;
        this.spillQueue = [];
        for (const part of queued) this.writeSpill(part);
        this.opening = false;
        this.updateFlow();
      },
      (error: unknown) => this.failSpill(error),
    );
  }

  private spill(chunk: Buffer): void {
    if (this.spillState === 'failed' || this.spillCut) return;
    const remaining = this.options.spillMaxBytes - this.spillAccepted;
    let part = chunk;
    if (chunk.length > remaining) {
      this.spillCut = true;
      // End the file on a line boundary if the allowed part has one, else on a character boundary.
      const newline = remaining > 0 ? chunk.lastIndexOf(10, remaining - 1) : -1;
      part = chunk.subarray(0, newline >= 0 ? newline + 1 : boundaryAtOrBefore(chunk, remaining));
      if (part.length === 0) return;
    }
    this.spillAccepted += part.length;
    if (this.spillState === 'opening') this.spillQueue.push(part);
    else if (this.spillState === 'open') this.writeSpill(part);
  }

  private writeSpill(part: Buffer): void {
    const stream = this.spillStream as WriteStream;
    if (stream.write(part) || this.writeBlocked) return;
    this.writeBlocked = true;
    this.updateFlow();
    stream.once('drain', () => {
      this.writeBlocked = false;
      this.updateFlow();
    });
  }

  private failSpill(error: unknown): void {
    this.spillError ??= error instanceof Error ? error.message : String(error);
    this.spillState = 'failed';
    this.spillQueue = [];
    this.opening = false;
    this.writeBlocked = false;
    this.updateFlow();
  }

  private updateFlow(): void {
    const flowing = !this.opening && !this.writeBlocked;
    this.setFlowing(flowing);
  }

  private setFlowing(flowing: boolean): void {
    if (flowing === this.flowing) return;
    this.flowing = flowing;
    this.options.setFlowing(flowing);
  }

  /** The head and tail within the caps, cut on line boundaries where possible, never inside a character. */
  private cut(): CollectedOutput {
    const { maxBytes, maxLines, headLines, headBytes } = this.options;
    const head = this.head;

    // Head: at most headLines lines and headBytes bytes.
    let byLines = head.length;
    for (let i = 0, seen = 0; i < head.length; i++) {
      if (head[i] === 10 && ++seen === headLines) {
        byLines = i + 1;
        break;
      }
    }
    let headEnd = Math.min(byLines, headBytes, head.length);
    if (headEnd < byLines) {
      const newline = headEnd > 0 ? head.lastIndexOf(10, headEnd - 1) : -1;
      headEnd = newline >= 0 ? newline + 1 : boundaryAtOrBefore(head, headEnd);
    }
    const headPart = head.subarray(0, headEnd);
    const headShownLines = lineCount(headPart);

    // Tail: what the head left of the caps, never overlapping the head.
    const tail = Buffer.concat(this.tailChunks);
    const tailBase = this.totalBytes - tail.length;
    const tailLines = Math.max(0, maxLines - headShownLines);
    const tailBytes = Math.max(0, maxBytes - headEnd);
    let startByLines = 0;
    if (tailLines === 0) startByLines = tail.length;
    else {
      let seen = 0;
      for (let i = tail[tail.length - 1] === 10 ? tail.length - 2 : tail.length - 1; i >= 0; i--) {
        if (tail[i] === 10 && ++seen === tailLines) {
          startByLines = i + 1;
          break;
        }
      }
    }
    const startByBytes = tail.length - tailBytes;
    let start = Math.max(startByLines, startByBytes, headEnd - tailBase, 0);
    if (start > startByLines && start < tail.length) {
      // Cut by bytes: start at the next line if there is one, else on a character boundary.
      const newline = tail.indexOf(10, start);
      start = newline >= 0 && newline + 1 < tail.length ? newline + 1 : boundaryAtOrAfter(tail, start);
    }
    const tailPart = tail.subarray(start);
    const tailStart = tailBase + start;

    const headNewlines = countNewlines(headPart);
    const gapNewlines = this.newlines - headNewlines - countNewlines(tailPart);
    const headOnBoundary = headEnd === 0 || head[headEnd - 1] === 10;
    const tailOnBoundary = start > 0 ? tail[start - 1] === 10 : tailBase === 0;
    const result: CollectedOutput = {
      capped: true,
      head: headPart.toString('utf8'),
      tail: tailPart.toString('utf8'),
      totalBytes: this.totalBytes,
      totalLines: this.lines(),
      omittedLines: Math.max(0, gapNewlines),
      omittedBytes: Math.max(0, tailStart - headEnd),
    };
    if (headOnBoundary && tailOnBoundary && gapNewlines > 0) result.omittedRange = { from: headNewlines + 1, to: headNewlines + gapNewlines };
    if (this.spillPath && this.spillState === 'open' && this.spillError === undefined) {
      result.spill = { path: this.spillPath, bytes: this.spillAccepted, cut: this.spillCut };
    } else {
      result.spillError = this.spillError ?? 'the spill file was not opened';
    }
    return result;
  }
}

function lineCount(bytes: Buffer): number {
  return bytes.length === 0 ? 0 : countNewlines(bytes) + (bytes[bytes.length - 1] === 10 ? 0 : 1);
}
