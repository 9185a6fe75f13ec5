/**
 * The fallback engine: the project walker + re2js (a linear-time RE2 port), used when ripgrep is
 * not installed or cannot take a pattern. It follows ripgrep's rules exactly so that both produce
 * the same results: lines end at `\n` (a `\r` stays part of the line), a final empty line after
 * the last `\n` does not exist, text is decoded as UTF-8 (invalid bytes are shown as U+FFFD and
 * can be matched by nothing, as in ripgrep — see pattern.ts), a byte-order mark is read as
 * ripgrep reads it (a UTF-8 one removed, UTF-16 transcoded: text-reader.ts), and a file containing
 * a NUL byte anywhere is binary and skipped (ripgrep reports such files with `binary_offset` and
 * the rg engine drops them).
 *
 * Speed: a file is first tested as a whole with the multi-line form of the pattern (re2js' DFA,
 * ≈ 300 MB/s on plain text); only files that may match are split, sixteen ways at a time over
 * line ranges, down to the lines that really match. Files are read in ≤ 16 MiB slices of whole lines, so a
 * huge file never becomes one string. The loop yields to the event loop every ≈ 10 ms.
 */
import { closeSync, fstatSync } from 'node:fs';
import { inPackageDirectory } from '../../config/project-file.js';
import { openExactSync } from '../../sdk/search-common/exact-open.js';
import { INVALID_BYTE, type CompiledPattern } from './pattern.js';
import { FileHitBudget, type LineHit, type ResultCollector } from './results.js';
import { openTextReader, type TextReader } from './text-reader.js';
import { searchWholeFile } from './whole-file-search.js';
import { joinRoot, joinRootBytes } from '../../sdk/search-common/walker.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';
import { displayName } from '../../sdk/search-common/display-name.js';

const SLICE_BYTES = 16 * 1024 * 1024;
/**
 * Work between two looks at the clock, in bytes × program instructions: re2js falls back from
 * its DFA to its NFA on a large program, whose cost per byte grows with the instructions, so a
 * larger program reads smaller slices (≥ 1 KiB; a 10-instruction literal ≈ 200 KiB; measured:
 * `(?i)[\p{L}\p{N}]{600}x` costs re2js ≈ 50 µs a byte). Between slices the deadline and cancellation are checked and the event loop
 * gets a turn (every ≈ 10 ms), so a heavy pattern on a big file cannot block the process past its
 * deadline. (One line longer than a slice is still matched in one call.)
 */
const SLICE_WORK = 2 * 1024 * 1024;
const MIN_SLICE_BYTES = 1024;
const YIELD_MS = 10;

function sliceBytesFor(instructions: number): number {
  return Math.max(MIN_SLICE_BYTES, Math.min(SLICE_BYTES, Math.floor(SLICE_WORK / Math.max(1, instructions))));
}
const LEAF_LINES = 16;
const FANOUT = 16;

export interface FileSearchOutcome {
  matches: number;
  hits: LineHit[] | undefined;
  binary: boolean;
  /** The deadline passed or the call was cancelled while this (huge) file was being read. */
  stopped?: boolean;
  /** Multiline: too large to be searched whole with this pattern (whole-file-search.ts), not searched. */
  tooLarge?: boolean;
}

interface SearchState {
  pattern: CompiledPattern;
  before: number;
  after: number;
  wantLines: boolean;
  /** files_with_matches: one match is enough (the rest of the file is still checked for NUL). */
  firstOnly: boolean;
  deadline: number;
  signal: AbortSignal;
  /** Matching lines shown at most (per-file store budget, see FileHitBudget). */
  limit: number;
  /** The real root the files lie in: where a file with several hard links may be searched is judged below it. */
  root: string;
  /** When the event loop last had a turn (monotonic ms), shared by the files of one search. */
  clock: { sliceStart: number };
}

/**
 * Gives the event loop a turn when this search has held it for ≈ 10 ms. Through a timer, not
 * setImmediate: a continuation resumed from the check phase would start the next slice before
 * the loop reaches its timers phase again, so the kernel's timers would starve.
 */
async function breathe(state: SearchState): Promise<void> {
  if (monotonicMs() - state.clock.sliceStart > YIELD_MS) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    state.clock.sliceStart = monotonicMs();
  }
}

/**
 * Matching line numbers (1-based, ascending) in `text`, a run of complete lines. `invalid` holds,
 * for lines with bytes that are not valid UTF-8, the line decoded with INVALID_BYTE for them.
 */
export function matchingLines(text: string, pattern: CompiledPattern, starts: number[], firstOnly: boolean, invalid?: Map<number, string>): number[] {
  const found: number[] = [];
  const lineCount = starts.length;
  // End of the text without its final line terminator.
  const textEnd = text.endsWith('\n') ? text.length - 1 : text.length;
  const lineText = (k: number): string => {
    const end = k + 1 < lineCount ? starts[k + 1]! - 1 : textEnd;
    return text.slice(starts[k]!, end);
  };
  const testLine = (k: number): boolean => {
    const marked = invalid?.get(k);
    return marked !== undefined && pattern.barrier ? pattern.barrier.test(marked) : pattern.line.test(lineText(k));
  };
  const testLines = (lo: number, hi: number): boolean => {
    for (let k = lo; k < hi; k++) {
      if (testLine(k)) {
        found.push(k + 1);
        if (firstOnly) return true;
      }
    }
    return false;
  };
  const block = pattern.block;
  if (!block) {
    testLines(0, lineCount);
    return found;
  }
  // Lines [lo, hi) may match: test them in FANOUT groups with the multi-line pattern and descend
  // only into groups that may match; small groups are tested line by line.
  const visit = (lo: number, hi: number): boolean => {
    if (hi - lo <= LEAF_LINES) return testLines(lo, hi);
    const step = Math.ceil((hi - lo) / FANOUT);
    for (let a = lo; a < hi; a += step) {
      const b = Math.min(hi, a + step);
      const end = b < lineCount ? starts[b]! - 1 : textEnd;
      if (block.test(text.slice(starts[a]!, end)) && visit(a, b)) return true;
    }
    return false;
  };
  if (lineCount > 0 && block.test(text)) visit(0, lineCount);
  return found;
}

/** Start offsets of the lines of `text` (complete lines; a trailing `\n` opens no new line). */
export function lineStarts(text: string): number[] {
  const starts: number[] = [];
  if (text.length === 0) return starts;
  let at = 0;
  while (at < text.length) {
    starts.push(at);
    const nl = text.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return starts;
}

/** UTF-8 decoding in which every byte that is not part of a well-formed sequence is INVALID_BYTE. */
export function decodeMarkingInvalid(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    let need = 0;
    let cp = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0x0f;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x07;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    }
    let j = i + 1;
    let ok = need > 0;
    for (let k = 0; ok && k < need; k++, j++) {
      const c = bytes[j];
      if (c === undefined || c < (k === 0 ? lo : 0x80) || c > (k === 0 ? hi : 0xbf)) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    if (!ok) {
      out += INVALID_BYTE;
      i++;
      continue;
    }
    out += String.fromCodePoint(cp);
    i = j;
  }
  return out;
}

/** Lines (by index in the slice) that hold invalid UTF-8, decoded with INVALID_BYTE; else undefined. */
function invalidLines(buffer: Buffer, length: number, text: string, starts: number[]): Map<number, string> | undefined {
  if (!text.includes('\uFFFD')) return undefined;
  const raw = buffer.subarray(0, length);
  if (Buffer.byteLength(text) === length && Buffer.from(text).equals(raw)) return undefined; // real U+FFFD characters
  const marked = new Map<number, string>();
  let at = 0;
  for (let k = 0; k < starts.length; k++) {
    const nl = raw.indexOf(10, at);
    const end = nl === -1 ? length : nl;
    const lineEnd = k + 1 < starts.length ? starts[k + 1]! - 1 : text.length;
    if (text.lastIndexOf('\uFFFD', lineEnd) >= starts[k]!) {
      const bytes = raw.subarray(at, end);
      if (!Buffer.from(bytes.toString('utf8')).equals(bytes)) marked.set(k, decodeMarkingInvalid(bytes));
    }
    at = end + 1;
  }
  return marked.size > 0 ? marked : undefined;
}

/**
 * Searches one file; undefined when it cannot be read. `absolute` is a real path from the walk:
 * it is opened only if the descriptor is exactly that file (no link followed, A15).
 */
export async function searchFile(absolute: string | Buffer, state: SearchState): Promise<FileSearchOutcome | undefined> {
  let fd: number;
  try {
    fd = openExactSync(absolute);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    // A file with other hard links may be a file outside the project under a second name: as
    // read_file, only package directories (pnpm's store links) are searched (config/project-file.ts).
    if (info.nlink > 1 && !inPackageDirectory(absolute.toString(), state.root)) return undefined;
    const size = info.size;
    const reader = openTextReader(fd);
    if (state.pattern.spansLines) return await searchWhole(reader, size, state);
    let buffer = Buffer.allocUnsafe(Math.min(Math.max(size, 1), sliceBytesFor(state.pattern.instructions)) + 1);
    let carry = 0; // bytes of an unfinished line kept at the start of `buffer`
    let firstLine = 1;
    let matches = 0;
    const hits: LineHit[] = [];
    const budget = new FileHitBudget(state.limit, state.after);
    // context state across slices
    let lastEmitted = 0;
    let pendingAfterUntil = 0;
    let tail: { line: number; text: string }[] = [];
    let eof = false;
    while (!eof) {
      if (carry === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, carry);
        buffer = bigger;
      }
      const read = reader.read(buffer, carry, buffer.length - carry);
      if (read === 0) eof = true;
      const filled = carry + read;
      if (buffer.subarray(carry, filled).indexOf(0) !== -1) return { matches: 0, hits: undefined, binary: true };
      if (filled === 0) break;
      let usable: number;
      if (eof) usable = filled;
      else {
        const nl = buffer.lastIndexOf(10, filled - 1);
        if (nl === -1) {
          carry = filled; // one line longer than the buffer: read more
          continue;
        }
        usable = nl + 1;
      }
      const text = buffer.toString('utf8', 0, usable);
      const starts = lineStarts(text);
      const found =
        state.firstOnly && matches > 0
          ? []
          : matchingLines(text, state.pattern, starts, state.firstOnly, invalidLines(buffer, usable, text, starts)).map((k) => k + firstLine - 1);
      matches += found.length;
      if (state.wantLines) {
        const lastLine = firstLine + starts.length - 1;
        const lineAt = (n: number): string => {
          const k = n - firstLine;
          const end = k + 1 < starts.length ? starts[k + 1]! : text.length;
          return text.slice(starts[k]!, end);
        };
        const emit = (n: number, match: boolean): void => {
          if (n <= lastEmitted) return;
          if (!budget.accept(n, match)) {
            lastEmitted = n;
            return;
          }
          hits.push({ line: n, text: n >= firstLine ? lineAt(n) : tail.find((t) => t.line === n)!.text, match });
          lastEmitted = n;
        };
        // after-context of a match in the previous slice
        for (let n = Math.max(lastEmitted + 1, firstLine); n <= Math.min(pendingAfterUntil, lastLine); n++) {
          if (found.length > 0 && n >= found[0]!) break;
          emit(n, false);
        }
        for (let index = 0; index < found.length; index++) {
          const m = found[index]!;
          for (let n = Math.max(lastEmitted + 1, m - state.before, 1); n < m; n++) emit(n, false);
          emit(m, true);
          const nextMatch = index + 1 < found.length ? found[index + 1]! : Number.POSITIVE_INFINITY;
          for (let n = m + 1; n <= Math.min(m + state.after, lastLine) && n < nextMatch; n++) emit(n, false);
          pendingAfterUntil = Math.max(pendingAfterUntil, m + state.after);
        }
        if (state.before > 0) {
          const keep: { line: number; text: string }[] = [];
          for (let n = Math.max(firstLine, lastLine - state.before + 1); n <= lastLine; n++) keep.push({ line: n, text: lineAt(n) });
          tail = [...tail, ...keep].slice(-state.before);
        }
        firstLine = lastLine + 1;
      } else {
        firstLine += starts.length;
      }
      buffer.copy(buffer, 0, usable, filled);
      carry = filled - usable;
      if (!eof) {
        await breathe(state);
        if (Date.now() >= state.deadline || state.signal.aborted) return { matches, hits: undefined, binary: false, stopped: true };
      }
    }
    return { matches, hits: state.wantLines ? hits : undefined, binary: false };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A multiline pattern that can consume a newline is searched over the whole file, as ripgrep -U does. */
async function searchWhole(reader: TextReader, size: number, state: SearchState): Promise<FileSearchOutcome> {
  const pause = async (): Promise<boolean> => {
    await breathe(state);
    return Date.now() >= state.deadline || state.signal.aborted;
  };
  const outcome = await searchWholeFile(reader, size, { ...state, pause }, decodeMarkingInvalid);
  switch (outcome.kind) {
    case 'binary':
      return { matches: 0, hits: undefined, binary: true };
    case 'too-large':
      return { matches: 0, hits: undefined, binary: false, tooLarge: true };
    case 'stopped':
      return { matches: 0, hits: undefined, binary: false, stopped: true };
    case 'done':
      return { matches: outcome.matches, hits: outcome.hits, binary: false };
  }
}

/** A file to search: its path relative to the root, with its bytes when they are not valid UTF-8 (opened as they are). */
export type FileToSearch = string | { rel: string; bytes: Buffer };

export interface Re2jsSearchOptions {
  root: string;
  files: readonly FileToSearch[];
  pattern: CompiledPattern;
  collector: ResultCollector;
  signal: AbortSignal;
  deadline: number;
}

export interface EngineOutcome {
  unreadable: number;
  /** Files too large to be searched whole with a multiline pattern (not searched). */
  tooLarge?: number;
  stopped?: 'deadline' | 'aborted';
}

function stateFor(options: Omit<Re2jsSearchOptions, 'files'>): SearchState {
  const { collector } = options;
  const { mode, before, after } = collector.request;
  return {
    pattern: options.pattern,
    before: mode === 'content' ? before : 0,
    after: mode === 'content' ? after : 0,
    wantLines: mode === 'content',
    firstOnly: mode === 'files_with_matches',
    deadline: options.deadline,
    signal: options.signal,
    limit: collector.request.limit,
    root: options.root,
    clock: { sliceStart: monotonicMs() },
  };
}

/**
 * One file searched by this engine into the collector (the ripgrep engine's answer for a file
 * that changed after ripgrep read it, or that ripgrep transcoded): false when it cannot be read.
 * `shown`: its name as results show it (display-name.ts); `absolute`: its path as bytes when its
 * name is not valid UTF-8.
 */
export async function searchOneFile(shown: string, options: Omit<Re2jsSearchOptions, 'files'>, absolute: string | Buffer = joinRoot(options.root, shown)): Promise<boolean> {
  const outcome = await searchFile(absolute, stateFor(options));
  if (!outcome || outcome.stopped) return outcome !== undefined;
  if (!outcome.binary && outcome.matches > 0) options.collector.addFile(shown, outcome.matches, outcome.hits);
  return true;
}

export async function searchWithRe2js(options: Re2jsSearchOptions): Promise<EngineOutcome> {
  const { collector } = options;
  const state = stateFor(options);
  let unreadable = 0;
  let tooLarge = 0;
  for (let i = 0; i < options.files.length; i++) {
    await breathe(state);
    if (options.signal.aborted) return { unreadable, tooLarge, stopped: 'aborted' };
    if (Date.now() >= options.deadline) return { unreadable, tooLarge, stopped: 'deadline' };
    const file = options.files[i]!;
    const rel = typeof file === 'string' ? file : file.rel;
    const bytes = typeof file === 'string' ? undefined : file.bytes;
    const outcome = await searchFile(bytes ? joinRootBytes(options.root, bytes) : joinRoot(options.root, rel), state);
    if (!outcome) {
      unreadable++;
      continue;
    }
    if (outcome.stopped) return { unreadable, tooLarge, stopped: options.signal.aborted ? 'aborted' : 'deadline' };
    if (outcome.tooLarge) tooLarge++;
    if (outcome.binary || outcome.matches === 0) continue;
    // Keyed by the shown name: distinct bytes never share an entry (display-name.ts).
    collector.addFile(displayName(rel, bytes), outcome.matches, outcome.hits);
  }
  return { unreadable, tooLarge };
}
