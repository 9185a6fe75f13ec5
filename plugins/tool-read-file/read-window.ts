/**
 * Reads one window of lines from an open file without loading the file (T2). The start of
 * the file is sniffed for binary content from the first read, whichever it is. Lines before
 * `offset` are skipped by counting newline bytes chunk by chunk (0x0A never occurs inside a
 * multi-byte UTF-8 sequence, so skipping needs no decoding). The window itself is one read of at
 * most `maxBytes + 1` bytes. Memory is bounded by those buffers whatever the file's size; time by
 * the bytes before the window plus the window.
 */
/** What a window is read from: an open file, or a text held in memory (textSource). */
export interface ByteSource {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/**
 * A text someone else holds (an editor's buffer, TOKENS.WorkspaceFiles) as a ByteSource, so its
 * window is cut, sniffed and numbered exactly as a file's is.
 */
export function textSource(text: string): ByteSource {
  const bytes = Buffer.from(text, 'utf8');
  return {
    read: async (buffer, offset, length, position) => ({ bytesRead: position >= bytes.length ? 0 : bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length)) }),
  };
}
import { decodeUtf8Prefix } from '../../sdk/text-cuts.js';
import { SNIFF_BYTES, sniffBinary } from '../../sdk/file-tool-support/binary-sniff.js';

export interface WindowRequest {
  /** 1-based first line. */
  offset: number;
  /** Most lines to return. */
  limit: number;
  /** Most bytes of the file the window may cover, newlines included. */
  maxBytes: number;
}

/**
 * Why the window ended: at the end of the file; after `limit` lines with more to come; at the byte
 * cap before a line that did not fit; or inside the window's first line, which alone exceeds the cap.
 */
export type WindowStop = 'eof' | 'lines' | 'bytes' | 'long-line';

export type WindowResult =
  | { kind: 'lines'; firstLine: number; lines: string[]; stop: WindowStop }
  | { kind: 'empty' }
  | { kind: 'binary'; reason: string }
  | { kind: 'past-end'; totalLines: number }
  | { kind: 'aborted' };

/** Skipping reads bigger chunks than the window: fewer system calls on the way to a deep offset. */
const SKIP_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;
const BOM = '\ufeff';

export async function readWindow(file: ByteSource, request: WindowRequest, signal: AbortSignal): Promise<WindowResult> {
  // One lookahead byte past the cap tells "the window ends exactly at the cap" from "more follows";
  // never less than the sniff needs, even under a small cap.
  const window = Buffer.allocUnsafe(Math.max(request.maxBytes + 1, SNIFF_BYTES));
  let have: number;
  let start: number;
  if (request.offset === 1) {
    // The window is the head: sniff it, no separate read.
    have = await readFully(file, window, 0);
    if (have === 0) return { kind: 'empty' };
    const sniff = sniffBinary(window.subarray(0, have), have < window.length);
    if (sniff.binary) return { kind: 'binary', reason: sniff.reason };
    start = 0;
  } else {
    const found = await findLineStart(file, request.offset, signal);
    if (found.kind !== 'found') return found;
    start = found.position;
    have = await readFully(file, window, start);
    if (have === 0) return { kind: 'past-end', totalLines: request.offset - 1 };
  }
  return splitWindow(window.subarray(0, have), have < window.length, start === 0, request);
}

/**
 * The lines of a window buffer that fit the caps. Whole lines only, newline included in the byte
 * count, so everything up to the last newline inside the byte cap fits: that region is decoded
 * once and split (a few native calls, fast even before the JIT warms up); then the line cap applies.
 */
function splitWindow(view: Buffer, atEof: boolean, atFileStart: boolean, request: WindowRequest): WindowResult {
  const wholeFileFits = atEof && view.length <= request.maxBytes;
  const regionEnd = wholeFileFits ? view.length : view.lastIndexOf(NEWLINE, request.maxBytes - 1) + 1;
  if (regionEnd === 0) {
    // The first line alone is longer than the cap: show its start.
    return { kind: 'lines', firstLine: request.offset, lines: [stripBom(stripLineEnd(decodeUtf8Prefix(view, request.maxBytes)), atFileStart)], stop: 'long-line' };
  }
  const text = view.toString('utf8', 0, regionEnd);
  let lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  let stop: WindowStop;
  if (lines.length > request.limit) {
    lines = lines.slice(0, request.limit);
    stop = 'lines';
  } else if (regionEnd === view.length && atEof) stop = 'eof';
  else stop = lines.length === request.limit ? 'lines' : 'bytes';
  if (text.includes('\r')) lines = lines.map(stripLineEnd);
  lines[0] = stripBom(lines[0] as string, atFileStart);
  return { kind: 'lines', firstLine: request.offset, lines, stop };
}

type LineStart = { kind: 'found'; position: number } | Exclude<WindowResult, { kind: 'lines' }>;

/**
 * Byte position where line `offset` starts; on the way, the first chunk is sniffed (the binary
 * check always looks at the start of the file, whatever the offset). A file with fewer lines
 * reports its line count.
 */
async function findLineStart(file: ByteSource, offset: number, signal: AbortSignal): Promise<LineStart> {
  const chunk = Buffer.allocUnsafe(SKIP_CHUNK);
  let line = 1;
  let base = 0;
  let lastByte = NEWLINE;
  for (;;) {
    if (signal.aborted) return { kind: 'aborted' };
    const bytes = await readFully(file, chunk, base);
    if (bytes === 0) break;
    const view = chunk.subarray(0, bytes);
    if (base === 0) {
      const sniff = sniffBinary(view, bytes < chunk.length);
      if (sniff.binary) return { kind: 'binary', reason: sniff.reason };
    }
    for (let i = view.indexOf(NEWLINE); i !== -1; i = view.indexOf(NEWLINE, i + 1)) {
      if (++line === offset) return { kind: 'found', position: base + i + 1 };
    }
    lastByte = view[bytes - 1] as number;
    base += bytes;
  }
  if (base === 0) return { kind: 'empty' };
  // `line - 1` newlines were seen; a last line without a newline counts too.
  return { kind: 'past-end', totalLines: line - 1 + (lastByte !== NEWLINE ? 1 : 0) };
}

/** Fill `buffer` from `position`, fewer bytes only at the end of the file. */
async function readFully(file: ByteSource, buffer: Buffer, position: number): Promise<number> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

function stripLineEnd(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

function stripBom(text: string, atFileStart: boolean): string {
  return atFileStart && text.startsWith(BOM) ? text.slice(BOM.length) : text;
}
