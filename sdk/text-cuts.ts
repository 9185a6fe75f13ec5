/** Character-safe cuts: never split a UTF-8 sequence or a surrogate pair. */
import type { CutText } from '../types/services.js';

/** Appended to a line cut by `cutLine`. */
export const LINE_CUT_MARKER = '… [line truncated]';

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

export function cutBytes(text: string, maxBytes: number): CutText {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { text, truncated: false };
  const buffer = Buffer.from(text, 'utf8');
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((buffer[end] as number) & 0xc0) === 0x80) end--;
  return { text: buffer.subarray(0, end).toString('utf8'), truncated: true };
}
