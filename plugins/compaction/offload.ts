/**
 * Layer 1 of compaction (C5), the decisions: which tool results of one tool message leave the
 * request for a file, and the preview that takes their place. Pure; sizes are UTF-8 bytes.
 */
import { cutBytes } from '../../sdk/text-cuts.js';
import type { ToolResult } from '../../types/messages.js';
import { groupDigits } from '../../sdk/plain-intl.js';

export const RESULT_MAX_BYTES = 50_000;
export const MESSAGE_MAX_BYTES = 200_000;
export const PREVIEW_LINES = 20;
export const PREVIEW_BYTES = 2048;

/**
 * The positions (in the message) of every result over RESULT_MAX_BYTES; then, while the results
 * left total more than MESSAGE_MAX_BYTES, of the largest of them (ties: the earlier call first).
 * Positions, not call ids: a server may repeat an id.
 */
export function resultsToOffload(results: readonly ToolResult[]): Set<number> {
  const sizes = results.map((result, index) => ({ index, bytes: Buffer.byteLength(result.content, 'utf8') }));
  const chosen = new Set(sizes.filter((size) => size.bytes > RESULT_MAX_BYTES).map((size) => size.index));
  let kept = sizes.filter((size) => !chosen.has(size.index)).reduce((total, size) => total + size.bytes, 0);
  const largestFirst = sizes.filter((size) => !chosen.has(size.index)).sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  for (const size of largestFirst) {
    if (kept <= MESSAGE_MAX_BYTES) break;
    chosen.add(size.index);
    kept -= size.bytes;
  }
  return chosen;
}

/** read_file prefixes each line with its number (`%6d\t`). */
const LINE_NUMBER_BYTES = 8;

/**
 * What the model sees instead of a saved result: its size, where it is, how to read it in parts
 * that stay under the limit (a whole read would come back as another preview), and its start.
 */
export function previewOf(content: string, displayPath: string, what = 'This tool result'): string {
  const bytes = Buffer.byteLength(content, 'utf8');
  const lines = content.split('\n').length;
  const perRead = Math.max(1, Math.min(2000, Math.floor((RESULT_MAX_BYTES * 0.8) / (bytes / lines + LINE_NUMBER_BYTES))));
  const head = firstLines(content, PREVIEW_LINES, PREVIEW_BYTES);
  return [
    `[${what} was ${groupDigits(bytes)} bytes (${groupDigits(lines)} lines), too large to keep in the conversation; it is saved in full to ${displayPath}.]`,
    `[Read it with read_file in parts of at most ${groupDigits(perRead)} lines (offset and limit); do not guess what it says. The first ${head.lines} line${head.lines === 1 ? '' : 's'} (${groupDigits(Buffer.byteLength(head.text, 'utf8'))} bytes) follow.]`,
    head.text,
  ].join('\n');
}

function firstLines(content: string, lines: number, maxBytes: number): { text: string; lines: number } {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of content.split('\n').slice(0, lines)) {
    const cost = Buffer.byteLength(line, 'utf8') + (kept.length > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) {
      // The line that crosses the budget is cut at a character boundary, so the preview uses it all.
      const room = maxBytes - bytes - (kept.length > 0 ? 1 : 0);
      if (room > 0) kept.push(cutBytes(line, room).text);
      break;
    }
    kept.push(line);
    bytes += cost;
  }
  return { text: kept.join('\n'), lines: kept.length };
}
