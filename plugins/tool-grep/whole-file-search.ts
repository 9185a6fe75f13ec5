/**
 * The fallback's multiline search (`multiline: true` with a pattern that can consume a newline,
 * pattern.ts `spansLines`): ripgrep `-U --multiline-dotall` searches such a pattern over the
 * whole file, so this does too — re2js (linear-time, no backtracking) run over the file's text
 * with `^`/`$` at line breaks and `.` matching a newline, iterating matches as Rust's regex does
 * (an empty match right after a match is skipped). As in rg:
 * - every line a match touches is a match line (`path:N: text` for each, the first being the
 *   line the match starts on); a match ending with a newline ends on that newline's line;
 * - `count` counts matches, not lines (rg -c in multiline mode); content mode counts the match
 *   lines it can show (its cap of 100 is on lines);
 * - an empty match after the final newline is no match (there is no line there).
 * A file is read whole (a multiline match can span any distance), so a file is searched this way
 * only while its size times the pattern's program stays within a bound: the deadline and
 * cancellation are checked between matches, and no single re2js call may run far past them
 * (re2js falls back to an NFA whose cost per byte grows with the program). A larger file is
 * reported, not searched.
 */
import type { RE2JS } from 're2js';
import { INVALID_BYTE, type CompiledPattern } from './pattern.js';
import { FileHitBudget, type LineHit } from './results.js';
import type { TextReader } from './text-reader.js';

/** No file over this is read whole (a string this long is held twice: bytes and text). */
export const WHOLE_FILE_MAX_BYTES = 64 * 1024 * 1024;
/**
 * Bytes × program instructions one re2js search may cover (≈ 1–2 s at the NFA's measured
 * ≈ 5–8 ns per byte and instruction): a file whose size times the program exceeds it is not
 * searched whole. A 20-instruction pattern covers ≈ 13 MiB.
 */
export const WHOLE_FILE_MAX_WORK = 256 * 1024 * 1024;

export interface WholeFileState {
  pattern: CompiledPattern;
  before: number;
  after: number;
  wantLines: boolean;
  firstOnly: boolean;
  limit: number;
  /** Gives the event loop a turn when due, then tells whether to stop (deadline or cancellation). */
  pause(): Promise<boolean>;
}

export type WholeFileOutcome =
  | { kind: 'binary' }
  | { kind: 'too-large' }
  | { kind: 'stopped' }
  | { kind: 'done'; matches: number; hits: LineHit[] | undefined };

/** Whether a file of `size` bytes may be searched whole with this pattern. */
export function fitsWholeFile(size: number, pattern: CompiledPattern): boolean {
  return size <= WHOLE_FILE_MAX_BYTES && size * Math.max(1, pattern.instructions) <= WHOLE_FILE_MAX_WORK;
}

/** The file's (transcoded) bytes, read whole; undefined when it grows past what fits (a UTF-16 file, one appended to). */
function readWhole(reader: TextReader, size: number, pattern: CompiledPattern): Buffer | undefined {
  let buffer = Buffer.allocUnsafe(Math.max(size, 1) + 1);
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (!fitsWholeFile(buffer.length, pattern)) return undefined;
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const read = reader.read(buffer, filled, buffer.length - filled);
    if (read === 0) break;
    filled += read;
  }
  return fitsWholeFile(filled, pattern) ? buffer.subarray(0, filled) : undefined;
}

/** Start offsets of the lines of `text` (a trailing `\n` opens no new line). */
function lineStarts(text: string): number[] {
  const starts: number[] = [];
  for (let at = 0; at < text.length; ) {
    starts.push(at);
    const nl = text.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return starts;
}

/** Line numbers (1-based) of ascending positions, counted forward from the last one asked. */
function lineCounter(text: string): (pos: number) => number {
  let at = 0;
  let line = 1;
  return (pos) => {
    for (let nl = text.indexOf('\n', at); nl !== -1 && nl < pos; nl = text.indexOf('\n', nl + 1)) {
      line++;
      at = nl + 1;
    }
    if (at < pos) at = pos;
    return line;
  };
}

/**
 * Searches a file's text whole. `reader` reads it from its start; `size` is its size on disk.
 * `decodeMarked` decodes bytes with INVALID_BYTE for each byte that is not UTF-8 (re2js-engine.ts).
 */
export async function searchWholeFile(reader: TextReader, size: number, state: WholeFileState, decodeMarked: (bytes: Uint8Array) => string): Promise<WholeFileOutcome> {
  const { pattern } = state;
  if (!fitsWholeFile(size, pattern)) return { kind: 'too-large' };
  const bytes = readWhole(reader, size, pattern);
  if (!bytes) return { kind: 'too-large' };
  if (bytes.indexOf(0) !== -1) return { kind: 'binary' };
  const shown = bytes.toString('utf8');
  // A byte that is not UTF-8 is matched by nothing, as in ripgrep (pattern.ts barrier).
  let text = shown;
  let re: RE2JS | undefined = pattern.whole;
  if (shown.includes('\uFFFD') && !Buffer.from(shown, 'utf8').equals(bytes)) {
    text = decodeMarked(bytes);
    re = text.includes(INVALID_BYTE) ? pattern.wholeBarrier : re;
  }
  if (!re) return { kind: 'done', matches: 0, hits: undefined };

  const matcher = re.matcher(text);
  const lineOf = lineCounter(text);
  const matchLines: number[] = []; // ascending, distinct
  let matches = 0;
  let from = 0;
  let lastMatchEnd = -1;
  const endsWithNewline = text.length === 0 || text.endsWith('\n');
  while (from <= text.length) {
    if (await state.pause()) return { kind: 'stopped' };
    if (!matcher.find(from)) break;
    const start = matcher.start();
    const end = matcher.end();
    if (start === end) {
      // Rust's iteration: the next search starts one character on; an empty match right after a match does not count.
      from = end + (text.codePointAt(end)! > 0xffff ? 2 : 1);
      if (end === lastMatchEnd) continue;
      if (start >= text.length && endsWithNewline) break;
    } else from = end;
    lastMatchEnd = end;
    matches++;
    if (state.firstOnly) break;
    if (!state.wantLines) continue;
    const first = lineOf(start);
    const last = end > start && text[end - 1] === '\n' ? lineOf(end - 1) : lineOf(end);
    for (let n = Math.max(first, (matchLines[matchLines.length - 1] ?? 0) + 1); n <= last; n++) matchLines.push(n);
  }
  if (!state.wantLines) return { kind: 'done', matches, hits: undefined };
  // Content counts match lines (what its cap and notes are about), as the ripgrep engine does.
  return { kind: 'done', matches: matchLines.length, hits: withContext(shown, matchLines, state) };
}

/** The match lines with their context, as the line-by-line search stores them (FileHitBudget bounds them). */
function withContext(shown: string, matchLines: readonly number[], state: WholeFileState): LineHit[] {
  const hits: LineHit[] = [];
  if (matchLines.length === 0) return hits;
  const starts = lineStarts(shown);
  const lineCount = starts.length;
  const lineAt = (n: number): string => shown.slice(starts[n - 1]!, n < lineCount ? starts[n]! : shown.length);
  const budget = new FileHitBudget(state.limit, state.after);
  let lastEmitted = 0;
  const emit = (n: number, match: boolean): void => {
    if (n <= lastEmitted || n > lineCount) return;
    lastEmitted = n;
    if (budget.accept(n, match)) hits.push({ line: n, text: lineAt(n), match });
  };
  for (let index = 0; index < matchLines.length; index++) {
    const m = matchLines[index]!;
    for (let n = Math.max(lastEmitted + 1, m - state.before, 1); n < m; n++) emit(n, false);
    emit(m, true);
    const next = matchLines[index + 1] ?? Number.POSITIVE_INFINITY;
    for (let n = m + 1; n <= m + state.after && n < next; n++) emit(n, false);
  }
  return hits;
}
