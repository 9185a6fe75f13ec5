/**
 * The ripgrep engine: `rg --json` walks, applies the ignore files and searches (parallel, SIMD
 * literals), and its output is the result — match and context lines with their line numbers and
 * byte offsets — fed into the same collector and renderer as the fallback (results.ts). Files are
 * not read a second time and the tree is not walked a second time.
 *
 * The choice of files is the project walker's, given as flags by the shared search code
 * (sdk/search-common/ripgrep-selection.ts: ignore files, hidden directories, no links followed).
 * Encoding: ripgrep's default, which the fallback follows (text-reader.ts): a UTF-8 byte-order
 * mark is removed (its offsets then start after it), a UTF-16 one makes ripgrep transcode the
 * file; such a file's lines cannot be checked against its bytes (below), so the fallback searches
 * it (UTF-16 files are rare; only those with a match cost a second read).
 * - binary files: ripgrep reports where it saw a NUL byte (`binary_offset`); such a file is left
 *   out, as the fallback leaves out every file with a NUL byte. Every mode reads matching files
 *   to their end (no `--max-count 1`, unlike `rg -l`), so a NUL byte after the first match still
 *   makes the file binary, in files_with_matches mode too (as `rg -c` decides).
 * - the `glob` filter is given to ripgrep only as a file-name type filter when that is a superset
 *   (`*.ts`), and every file is filtered again with the same matcher the fallback uses, which
 *   also drops the files a read rule denies.
 *
 * Links: ripgrep opens files by path, so a directory swapped for a symlink while it
 * runs could make it read a file outside the project. Before a file's lines are used they are
 * checked against the file itself, opened through a descriptor verified to be exactly that path
 * (exact-open.ts, no link anywhere on it, not a multi-link file outside a package directory): the
 * bytes of every line that will be stored (and of the first and last match, which back the
 * counts) must be there at the offsets ripgrep gave. A file that fails the check — swapped, or
 * simply changed since ripgrep read it — is searched again by re2js through that verified
 * descriptor, which gives its current content; one that can no longer be opened is counted
 * unreadable. Outside content can never reach the result.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { inPackageDirectory } from '../../config/project-file.js';
import { openExactSync } from '../../sdk/search-common/exact-open.js';
import { spawnRipgrep } from '../../sdk/search-common/find-ripgrep.js';
import { withSelectionArgs } from '../../sdk/search-common/ripgrep-selection.js';
import { joinRoot } from '../../sdk/search-common/walker.js';
import { displayName } from '../../sdk/search-common/display-name.js';
import type { CompiledPattern } from './pattern.js';
import { searchOneFile, type EngineOutcome } from './re2js-engine.js';
import { FileHitBudget, type LineHit, type ResultCollector } from './results.js';
import { sniffEncoding } from './text-reader.js';

export interface RipgrepSearchOptions {
  rgPath: string;
  root: string;
  /** The start relative to the root (`''` for the root). */
  startRel: string;
  /** The compiled pattern; `.ripgrep` is the Rust spelling given to ripgrep (see pattern.ts). */
  pattern: CompiledPattern & { ripgrep: string };
  /** Honour ignore files (the tools' default). */
  respectIgnore: boolean;
  /** The user's home directory: a repository holding it gives no rules from above the project (outer-ignore.ts). */
  homeDir?: string;
  /** The start is one file (searched whatever the ignore files say). */
  startIsFile: boolean;
  /** File-name glob for `--type-add` (a superset of `accept`), if any. */
  typeGlob: string | undefined;
  /** Final filter on paths relative to the root (the `glob` filter and read denies). */
  accept: (relPath: string) => boolean;
  collector: ResultCollector;
  signal: AbortSignal;
  deadline: number;
}

/** `failed: 'size'`: ripgrep refused the pattern as too large; the fallback would search it for minutes, so the call is refused. */
export type RipgrepOutcome = (EngineOutcome & { failed?: undefined }) | { failed: 'pattern' | 'engine' | 'size'; message: string };

const PATTERN_ERROR = /regex parse error|error parsing regex|not allowed in a regex|multiline mode is enabled/i;
const SIZE_ERROR = /exceeds size limit|size limit of \d+/i;
const ENGINE_ERROR = /unrecognized|unexpected argument|Found argument|invalid value|error: /i;
const STDERR_CAP = 64 * 1024;
/** Lines whose offsets lie within this many bytes of each other are checked with one read. */
const VERIFY_SPAN_BYTES = 256 * 1024;

export function ripgrepArgs(options: Pick<RipgrepSearchOptions, 'startRel' | 'typeGlob' | 'collector'> & { pattern: string; wholeFile?: boolean }, selection: string[]): string[] {
  const args = [...selection, '--json', '--no-mmap'];
  // Only a pattern that can consume a newline is searched over whole files (pattern.ts spansLines): ripgrep decides so too.
  if (options.wholeFile) args.push('--multiline', '--multiline-dotall');
  const { mode, before, after } = options.collector.request;
  if (mode === 'content' && before > 0) args.push(`--before-context=${before}`);
  if (mode === 'content' && after > 0) args.push(`--after-context=${after}`);
  if (options.typeGlob) args.push(`--type-add=mewcodeglob:${options.typeGlob}`, '--type=mewcodeglob');
  args.push(`--regexp=${options.pattern}`, '--', options.startRel === '' ? '.' : options.startRel);
  return args;
}

export function searchWithRipgrep(options: RipgrepSearchOptions): Promise<RipgrepOutcome> {
  // Ignore files above the start count only when the start is a directory (a named file is searched).
  return withSelectionArgs(options.root, options.startRel, options.respectIgnore && !options.startIsFile, options.homeDir, (selection) =>
    run(options, ripgrepArgs({ ...options, pattern: options.pattern.ripgrep, wholeFile: options.pattern.spansLines }, selection)),
  );
}

/** ripgrep's JSON spelling of bytes: `{text}` when valid UTF-8, else `{bytes}` (base64). */
interface JsonData {
  text?: string;
  bytes?: string;
}

function rawOf(data: JsonData | undefined): Buffer {
  if (!data) return Buffer.alloc(0);
  return data.text !== undefined ? Buffer.from(data.text, 'utf8') : Buffer.from(data.bytes ?? '', 'base64');
}

/** A line ripgrep reported, as far as it is kept: its first bytes and where they are in the file. */
interface Span {
  offset: number;
  raw: Buffer;
}

interface FileState {
  /** Name bytes relative to ripgrep's working directory (the root), `./` removed. */
  name: Buffer;
  matches: number;
  hits: LineHit[];
  /** The stored hits' bytes, checked against the file before they are used. */
  spans: Span[];
  firstMatch: Span | undefined;
  lastMatch: Span | undefined;
  budget: FileHitBudget;
}

/** Lines in a run of whole lines (the last may lack its newline). */
function lineCount(raw: Buffer): number {
  let count = 0;
  for (let nl = raw.indexOf(10); nl !== -1; nl = raw.indexOf(10, nl + 1)) count++;
  return raw.length > 0 && raw[raw.length - 1] !== 10 ? count + 1 : Math.max(count, 1);
}

function stripDotSlash(name: Buffer): Buffer {
  let at = 0;
  while (name[at] === 0x2e && name[at + 1] === 0x2f) at += 2;
  return at === 0 ? name : name.subarray(at);
}

function run(options: RipgrepSearchOptions, args: string[]): Promise<RipgrepOutcome> {
  const { collector } = options;
  const { mode, limit, keepChars } = collector.request;
  const after = mode === 'content' ? collector.request.after : 0;
  // Bytes kept of a line: enough for `keepChars` UTF-16 units of complete characters.
  const keepBytes = 4 * keepChars + 4;
  const wholeFile = options.pattern.spansLines;
  const files = new Map<string, FileState>();
  /** Files to search again with re2js (changed since ripgrep read them), once ripgrep is done. */
  const recheck: { shown: string; absolute: string | Buffer }[] = [];
  let unreadable = 0;
  let sawOutput = false;

  const keep = (raw: Buffer): Buffer => (raw.length > keepBytes ? Buffer.from(raw.subarray(0, keepBytes)) : raw);

  const onMessage = (message: { type: string; data: Record<string, unknown> }): void => {
    const data = message.data;
    const key = JSON.stringify(data.path);
    if (message.type === 'begin') {
      files.set(key, { name: stripDotSlash(rawOf(data.path as JsonData)), matches: 0, hits: [], spans: [], firstMatch: undefined, lastMatch: undefined, budget: new FileHitBudget(limit, after) });
      return;
    }
    const file = files.get(key);
    if (!file) return;
    if (message.type === 'match' || message.type === 'context') {
      const match = message.type === 'match';
      const line = data.line_number as number;
      const offset = data.absolute_offset as number;
      const all = rawOf(data.lines as JsonData);
      const raw = keep(all);
      if (match) {
        // Multiline: one message holds the lines of adjacent matches. Counts are matches (as `rg -c`);
        // content counts the match lines shown (what its cap and notes are about).
        file.matches += !wholeFile ? 1 : mode === 'content' ? lineCount(all) : Math.max(1, (data.submatches as unknown[] | undefined)?.length ?? 1);
        const span = { offset, raw };
        file.firstMatch ??= span;
        file.lastMatch = span;
      }
      if (mode !== 'content') return;
      // Each line of a multiline match is a match line of its own, as rg prints it.
      let from = 0;
      for (let n = line; from < all.length || n === line; n++) {
        const nl = wholeFile ? all.indexOf(10, from) : -1;
        const end = nl === -1 ? all.length : nl + 1;
        if (!file.budget.accept(n, match)) break;
        const piece = wholeFile ? Buffer.from(all.subarray(from, Math.min(end, from + keepBytes))) : raw;
        file.hits.push({ line: n, text: piece.toString('utf8'), match });
        file.spans.push({ offset: offset + from, raw: piece });
        from = end;
      }
      return;
    }
    if (message.type === 'end') {
      files.delete(key);
      const binary = (data.binary_offset ?? null) !== null;
      if (binary || file.matches === 0) return;
      finish(file);
    }
  };

  const finish = (file: FileState): void => {
    const rel = file.name.toString('utf8');
    if (!options.accept(rel)) return;
    const lossless = Buffer.from(rel, 'utf8').equals(file.name);
    const absolute = lossless ? joinRoot(options.root, rel) : Buffer.concat([Buffer.from(`${options.root}/`), file.name]);
    // Results are keyed by the shown name, which is distinct for distinct bytes (display-name.ts).
    const shown = displayName(rel, lossless ? undefined : file.name);
    const verdict = verify(absolute, options.root, [file.firstMatch, file.lastMatch, ...file.spans]);
    if (verdict === 'same') collector.addFile(shown, file.matches, mode === 'content' ? file.hits : undefined);
    else if (verdict === 'changed') recheck.push({ shown, absolute });
    else unreadable++;
  };

  return new Promise((resolve) => {
    const child = spawnRipgrep(options.rgPath, options.root, args);
    let stderr = '';
    let stopped: 'deadline' | 'aborted' | undefined;
    let spawnError: Error | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    // Output not yet split into lines; only the newest chunk is scanned for a newline, so a
    // line of many megabytes (a minified file's) costs linear time.
    let pending: Buffer[] = [];

    const stop = (why: 'deadline' | 'aborted'): void => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 2000);
      killTimer.unref();
    };
    const onAbort = (): void => stop('aborted');
    if (options.signal.aborted) stop('aborted');
    options.signal.addEventListener('abort', onAbort, { once: true });
    // A deadline already past stops it now: a timer of 0 ms could fire after a fast ripgrep closed.
    if (Date.now() >= options.deadline) stop('deadline');
    const deadlineTimer = setTimeout(() => stop('deadline'), Math.max(0, options.deadline - Date.now()));

    const handleLine = (line: Buffer): void => {
      if (line.length === 0 || stopped) return;
      sawOutput = true;
      let message;
      try {
        message = JSON.parse(line.toString('utf8')) as { type: string; data: Record<string, unknown> };
      } catch {
        return;
      }
      onMessage(message);
    };

    child.stdout.on('data', (chunk: Buffer) => {
      let from = 0;
      let nl = chunk.indexOf(10);
      while (nl !== -1) {
        const piece = chunk.subarray(from, nl);
        if (pending.length > 0) {
          pending.push(piece);
          handleLine(Buffer.concat(pending));
          pending = [];
        } else handleLine(piece);
        from = nl + 1;
        nl = chunk.indexOf(10, from);
      }
      if (from < chunk.length) pending.push(chunk.subarray(from));
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_CAP) stderr += chunk;
    });
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code) => {
      clearTimeout(deadlineTimer);
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener('abort', onAbort);
      if (pending.length > 0) handleLine(Buffer.concat(pending));
      if (spawnError) return resolve({ failed: 'engine', message: spawnError.message });
      if (stopped) return resolve({ unreadable, stopped });
      if (recheck.length > 0) {
        const search = { root: options.root, pattern: options.pattern, collector, signal: options.signal, deadline: options.deadline };
        void (async () => {
          for (const file of recheck) if (!(await searchOneFile(file.shown, search, file.absolute))) unreadable++;
          finishRun(code);
        })();
        return;
      }
      finishRun(code);
    });
    const finishRun = (code: number | null): void => {
      const errors = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
      if (code === 2 && !sawOutput && SIZE_ERROR.test(stderr)) return resolve({ failed: 'size', message: stderr.trim() });
      if (code === 2 && !sawOutput && PATTERN_ERROR.test(stderr)) return resolve({ failed: 'pattern', message: stderr.trim() });
      if (code !== 0 && code !== 1 && !sawOutput && errors.length > 0 && ENGINE_ERROR.test(errors[0]!) && !/os error/.test(errors[0]!)) {
        return resolve({ failed: 'engine', message: stderr.trim() });
      }
      if (code === null) return resolve({ failed: 'engine', message: 'ripgrep was killed' });
      resolve({ unreadable: unreadable + errors.filter((l) => /os error|Permission denied|I\/O error/i.test(l)).length });
    };
  });
}

/**
 * Whether the file at `absolute` (opened without following any link) holds `spans` where
 * ripgrep said: 'same'; 'changed' when it does not (swapped or edited since, or a UTF-16 file,
 * whose lines ripgrep transcoded); 'unreadable' when it cannot be opened as exactly that path, or
 * is a multi-link file outside a package directory.
 */
export function verify(absolute: string | Buffer, root: string, spans: readonly (Span | undefined)[]): 'same' | 'changed' | 'unreadable' {
  let fd: number;
  try {
    fd = openExactSync(absolute);
  } catch {
    return 'unreadable';
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return 'unreadable';
    // A file with other hard links may be a file outside the project under a second name: as
    // read_file, only package directories (pnpm's store links) are searched (config/project-file.ts).
    if (info.nlink > 1 && !inPackageDirectory(absolute.toString(), root)) return 'unreadable';
    const head = Buffer.alloc(3);
    const encoding = sniffEncoding(head.subarray(0, readSync(fd, head, 0, 3, 0)));
    if (encoding === 'utf16le' || encoding === 'utf16be') return 'changed';
    // ripgrep's offsets start after a UTF-8 byte-order mark, which it removed.
    const shift = encoding === 'utf8-bom' ? 3 : 0;
    const sorted = spans.filter((s): s is Span => s !== undefined).sort((a, b) => a.offset - b.offset);
    let k = 0;
    while (k < sorted.length) {
      // One read for a run of nearby lines.
      const start = sorted[k]!.offset + shift;
      let end = start + sorted[k]!.raw.length;
      let j = k + 1;
      while (j < sorted.length && sorted[j]!.offset + shift + sorted[j]!.raw.length - start <= VERIFY_SPAN_BYTES) {
        end = Math.max(end, sorted[j]!.offset + shift + sorted[j]!.raw.length);
        j++;
      }
      if (end > info.size) return 'changed';
      const buffer = Buffer.allocUnsafe(end - start);
      let filled = 0;
      while (filled < buffer.length) {
        const read = readSync(fd, buffer, filled, buffer.length - filled, start + filled);
        if (read === 0) return 'changed';
        filled += read;
      }
      for (; k < j; k++) {
        const span = sorted[k]!;
        const at = span.offset + shift - start;
        if (!buffer.subarray(at, at + span.raw.length).equals(span.raw)) return 'changed';
      }
    }
    return 'same';
  } catch {
    return 'unreadable';
  } finally {
    closeSync(fd);
  }
}
