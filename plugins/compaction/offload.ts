/**
 * Layer 1 of compaction (SPEC C5), the decisions: which tool results of one tool message leave the
 * request for a file, and the preview that takes their place. Pure; sizes are UTF-8 bytes.
 */
import { cutBytes } from '../../sdk/text-cuts.js';
import type { ToolResult } from '../../types/messages.js';

export const RESULT_MAX_BYTES = 50_000;
export const MESSAGE_MAX_BYTES = 200_000;
export const PREVIEW_LINES = 20;
export const PREVIEW_BYTES = 2048;

/**
 * Every result over RESULT_MAX_BYTES; then, while the results left in the message total more than
 * MESSAGE_MAX_BYTES, the largest of them (ties: the earlier call first).
 */
export function resultsToOffload(results: readonly ToolResult[]): Set<string> {
  const sizes = results.map((result, index) => ({ id: result.toolCallId, index, bytes: Buffer.byteLength(result.content, 'utf8') }));
  const chosen = new Set(sizes.filter((size) => size.bytes > RESULT_MAX_BYTES).map((size) => size.id));
  let kept = sizes.filter((size) => !chosen.has(size.id)).reduce((total, size) => total + size.bytes, 0);
  const largestFirst = sizes.filter((size) => !chosen.has(size.id)).sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  for (const size of largestFirst) {
    if (kept <= MESSAGE_MAX_BYTES) break;
    chosen.add(size.id);
    kept -= size.bytes;
  }
  return chosen;
}

/** What the model sees instead of a saved result: its size, where it is, its start, and what to do. */
export function previewOf(content: string, displayPath: string): string {
  const bytes = Buffer.byteLength(content, 'utf8');
  const head = firstLines(content, PREVIEW_LINES, PREVIEW_BYTES);
  return [
    `[This tool result was ${bytes.toLocaleString('en-US')} bytes, too large to keep in the conversation; it is saved in full to ${displayPath}.]`,
    `[The first ${head.lines} line${head.lines === 1 ? '' : 's'} (${Buffer.byteLength(head.text, 'utf8').toLocaleString('en-US')} bytes) follow. Read the file for the rest; do not guess what it says.]`,
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
