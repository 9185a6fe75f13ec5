/**
 * Character-safe cuts, the one implementation every tool uses (T2, T8): never split a UTF-8
 * sequence (byte cuts: bash output, read_file's long-line cut, spill files) or a UTF-16
 * surrogate pair (string cuts: line caps, grep's kept line text).
 */
import type { CutText } from '../types/services.js';

/** Appended to a line cut by `cutLine`. */
export const LINE_CUT_MARKER = '… [line truncated]';

/** A UTF-8 sequence has at most three continuation bytes (10xxxxxx). */
const MAX_CONTINUATIONS = 3;

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/**
 * The largest character boundary ≤ `index`: steps back over the continuation bytes of the
 * character `index` falls into (at most three, so invalid input never costs more).
 */
export function utf8BoundaryAtOrBefore(bytes: Uint8Array, index: number): number {
  const start = Math.max(0, Math.min(index, bytes.length));
  let i = start;
  while (i > 0 && i < bytes.length && start - i < MAX_CONTINUATIONS && isContinuation(bytes[i])) i--;
  return isContinuation(bytes[i]) && i < bytes.length ? start : i;
}

/** The smallest character boundary ≥ `index` (steps forward over at most three continuation bytes). */
export function utf8BoundaryAtOrAfter(bytes: Uint8Array, index: number): number {
  const start = Math.max(0, Math.min(index, bytes.length));
  let i = start;
  while (i < bytes.length && i - start < MAX_CONTINUATIONS && isContinuation(bytes[i])) i++;
  return i;
}

/** The first `maxBytes` bytes (fewer, to end on a character boundary) decoded as UTF-8. */
export function decodeUtf8Prefix(bytes: Uint8Array, maxBytes: number): string {
  const end = utf8BoundaryAtOrBefore(bytes, maxBytes);
  return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('utf8');
}

/** At most `maxUnits` UTF-16 units of `text`, one fewer rather than half a surrogate pair. */
export function cutUtf16(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const end = Math.max(0, maxUnits);
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/** At most `maxChars` characters (code points), then LINE_CUT_MARKER. */
export function cutLine(line: string, maxChars: number): CutText {
  // Fast path: UTF-16 length bounds the code-point count from above.
  if (line.length <= maxChars) return { text: line, truncated: false };
  let chars = 0;
  let index = 0;
  while (index < line.length && chars < maxChars) {
    const code = line.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < line.length ? 2 : 1;
    chars++;
  }
  if (index >= line.length) return { text: line, truncated: false };
  return { text: line.slice(0, index) + LINE_CUT_MARKER, truncated: true };
}

/** At most `maxBytes` bytes of UTF-8, cut on a character boundary. */
export function cutBytes(text: string, maxBytes: number): CutText {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { text, truncated: false };
  const buffer = Buffer.from(text, 'utf8');
  return { text: buffer.toString('utf8', 0, utf8BoundaryAtOrBefore(buffer, maxBytes)), truncated: true };
}
