/**
 * What both grep engines produce and how it is shown. Engines hand over, per file, the matching
 * line count and (in content mode) the match and context lines; everything after that — order,
 * limits, line cuts, separators, markers — is this module's, so the output is the same whichever
 * engine ran.
 */
import type { OutputLimits } from '../../types/services.js';
import { cutUtf16 } from '../../sdk/text-cuts.js';

export type OutputMode = 'content' | 'files_with_matches' | 'count';

export interface LineHit {
  line: number;
  /** Raw line text; a trailing `\n` / `\r\n` is removed when shown. */
  text: string;
  match: boolean;
}

export interface SearchRequest {
  mode: OutputMode;
  before: number;
  after: number;
  /** Results shown at most (limits.searchMaxResults). */
  limit: number;
  /**
   * Characters of a line worth keeping: enough for the shown cut (limits.grepLineMaxChars code
   * points, ≤ 2 UTF-16 units each, plus a BOM), so a minified 5 MB line is not held in memory.
   */
  keepChars: number;
  /** Shown before each root-relative path: '' in the project, `<dir>/` in an additional directory. */
  prefix?: string;
  /**
   * Claude Code's `offset` / `head_limit` (`| tail -n +offset | head -n head`): entries skipped,
   * then entries shown at most — files in files_with_matches and count modes, output lines in
   * content mode. Absent: the first `limit` matching lines or files are shown.
   */
  window?: { offset: number; head: number };
  /** The name a path is shown by: under a start reached through a symlink, the name given (search-path.ts givenNames). */
  rename?: (rel: string) => string;
}

/**
 * Which hits of ONE file are worth storing: output shows at most `limit` matching lines (sorted
 * by path, then line), so a file's matches after its first `limit`, and context after the last
 * of those, can never be shown. Both engines use this, so memory stays bounded by the limit, not
 * by the number of matches, and their output stays identical. Counts are not affected.
 */
export class FileHitBudget {
  private stored = 0;
  private lastMatchLine = 0;
  private full = false;

  constructor(
    private readonly limit: number,
    private readonly after: number,
  ) {}

  accept(line: number, match: boolean): boolean {
    if (this.full) return false;
    if (this.stored >= this.limit && (match || line > this.lastMatchLine + this.after)) {
      this.full = true;
      return false;
    }
    if (match) {
      this.stored++;
      this.lastMatchLine = line;
    }
    return true;
  }
}

export interface SearchIncomplete {
  /** Paths that could not be read. */
  unreadable: number;
  /** Files a multiline pattern could not search whole in the fallback engine (whole-file-search.ts). */
  tooLarge?: number;
  stoppedByDeadline: boolean;
}

/**
 * Collects per-file results. Memory stays bounded: once the files seen so far hold `limit`
 * matches, the lines of files sorting after them are dropped (only their counts are kept), and
 * files that sort after that point never store lines.
 */
export class ResultCollector {
  private readonly counts = new Map<string, number>();
  private readonly lines = new Map<string, LineHit[]>();
  private keptLines = 0;
  private cutoff: string | undefined;

  constructor(readonly request: SearchRequest) {}

  get fileCount(): number {
    return this.counts.size;
  }

  addFile(path: string, matches: number, hits?: LineHit[]): void {
    if (matches <= 0) return;
    this.counts.set(path, matches);
    if (this.request.mode !== 'content' || !hits) return;
    if (this.cutoff !== undefined && path > this.cutoff) return;
    const keep = this.request.keepChars;
    for (const hit of hits) if (hit.text.length > keep) hit.text = cutUtf16(hit.text, keep);
    this.lines.set(path, hits);
    this.keptLines += hits.length;
    if (this.keptLines > 4 * (this.request.limit + 1) * (1 + this.request.before + this.request.after)) this.prune();
  }

  private prune(): void {
    const paths = [...this.lines.keys()].sort(compare);
    let total = 0;
    let index = 0;
    for (; index < paths.length; index++) {
      total += this.counts.get(paths[index]!)!;
      if (total > this.request.limit) break;
    }
    if (index >= paths.length) return;
    this.cutoff = paths[index];
    this.keptLines = 0;
    for (let k = 0; k < paths.length; k++) {
      if (k > index) this.lines.delete(paths[k]!);
      else this.keptLines += this.lines.get(paths[k]!)!.length;
    }
  }

  render(limits: OutputLimits, incomplete: SearchIncomplete, noMatch: string): string {
    const { mode, limit } = this.request;
    const prefix = this.request.prefix ?? '';
    const rename = this.request.rename;
    const nameOf = (p: string): string => prefix + (rename ? rename(p) : p);
    const paths = [...this.counts.keys()].sort(compare);
    const totalMatches = paths.reduce((sum, p) => sum + this.counts.get(p)!, 0);
    const out: string[] = [];
    const notes: string[] = [];
    let cutLines = 0;

    if (paths.length === 0) {
      out.push(incomplete.stoppedByDeadline ? `${noMatch.replace(/\.$/, '')} before the search stopped.` : noMatch);
    } else if (this.request.window && mode !== 'content') {
      const { offset, head } = this.request.window;
      const window = paths.slice(offset, offset + head);
      for (const p of window) out.push(mode === 'count' ? `${nameOf(p)}:${this.counts.get(p)!}` : nameOf(p));
      notes.push(...windowNote(offset, window.length, paths.length, plural(paths.length, 'file'), mode === 'count' ? `; ${plural(totalMatches, 'matching line')} in all` : ''));
    } else if (mode === 'files_with_matches') {
      out.push(...paths.slice(0, limit).map(nameOf));
      if (paths.length > limit) {
        notes.push(`[… ${plural(paths.length - limit, 'more file')} with matches not shown (showing ${limit} of ${paths.length}, sorted by path); narrow the pattern, path or glob]`);
      }
    } else if (mode === 'count') {
      for (const p of paths.slice(0, limit)) out.push(`${nameOf(p)}:${this.counts.get(p)!}`);
      if (paths.length > limit) {
        notes.push(`[… ${plural(paths.length - limit, 'more file')} with matches not shown (showing ${limit} of ${paths.length} files; ${plural(totalMatches, 'matching line')} in all); narrow the pattern, path or glob]`);
      }
    } else {
      const contextual = this.request.before > 0 || this.request.after > 0;
      let shown = 0;
      for (const p of paths) {
        if (shown >= limit) break;
        const hits = this.lines.get(p) ?? [];
        const quota = limit - shown;
        const matchLines = hits.filter((h) => h.match).map((h) => h.line);
        let lastLine = Number.POSITIVE_INFINITY;
        if (matchLines.length > quota) {
          const lastShown = matchLines[quota - 1]!;
          lastLine = Math.min(lastShown + this.request.after, matchLines[quota]! - 1);
        }
        if (contextual && out.length > 0) out.push('--');
        let previous: number | undefined;
        for (const hit of hits) {
          if (hit.line > lastLine) break;
          if (contextual && previous !== undefined && hit.line > previous + 1) out.push('--');
          previous = hit.line;
          let text = hit.text;
          if (text.endsWith('\n')) text = text.slice(0, -1);
          if (text.endsWith('\r')) text = text.slice(0, -1);
          // No BOM is removed here: both readers removed the file's one (a second is text, as in ripgrep).
          const cut = limits.cutLine(text, limits.grepLineMaxChars);
          if (cut.truncated) cutLines++;
          out.push(`${nameOf(p)}:${hit.line}${hit.match ? ':' : '-'} ${cut.text}`);
          if (hit.match) shown++;
        }
      }
      if (this.request.window) {
        // The window is over output lines (context and `--` included), as `| tail | head` cuts rg's.
        const { offset, head } = this.request.window;
        const all = out.length;
        const window = out.splice(0, all).slice(offset, offset + head);
        out.push(...window);
        // The store holds offset + head matches: with more matches than that, the total of lines is unknown ("more").
        const total = totalMatches > shown ? undefined : all;
        notes.push(...windowNote(offset, window.length, total, `${plural(totalMatches, 'matching line')} in all`, ''));
      } else if (totalMatches > shown) {
        let filesWithMore = 0;
        let seen = 0;
        for (const p of paths) {
          const count = this.counts.get(p)!;
          if (seen + count > shown) filesWithMore++;
          seen += count;
        }
        notes.push(
          `[… ${plural(totalMatches - shown, 'more matching line')} in ${plural(filesWithMore, 'file')} not shown (showing the first ${shown} of ${totalMatches}, sorted by path and line); narrow the pattern, path or glob, or use output_mode "count" for per-file totals]`,
        );
      }
      if (cutLines > 0) {
        notes.push(`[${plural(cutLines, 'line')} cut at ${limits.grepLineMaxChars} characters; read the file with read_file to see ${cutLines === 1 ? 'it' : 'them'} whole]`);
      }
    }
    if (incomplete.stoppedByDeadline) {
      notes.push('[search stopped at its time limit: results are incomplete; narrow the path, glob or pattern]');
    }
    if (incomplete.unreadable > 0) {
      notes.push(`[${plural(incomplete.unreadable, 'path')} could not be read (permission denied, an I/O error, or several hard links outside a package directory) and ${incomplete.unreadable === 1 ? 'was' : 'were'} not searched]`);
    }
    const tooLarge = incomplete.tooLarge ?? 0;
    if (tooLarge > 0) {
      notes.push(`[${plural(tooLarge, 'file')} too large to search whole with this multiline pattern ${tooLarge === 1 ? 'was' : 'were'} not searched (install ripgrep, narrow the pattern, or search without multiline)]`);
    }
    if (notes.length > 0 && out.length > 0) out.push('');
    return [...out, ...notes].join('\n');
  }
}

/**
 * The note of an offset / head_limit window: which entries are shown and the offset of the next
 * ones. `total`: entries in all (undefined when more exist than were kept: then "more").
 */
function windowNote(offset: number, shown: number, total: number | undefined, totalWords: string, extra: string): string[] {
  const end = offset + shown;
  if (total !== undefined && end >= total && offset === 0) return [];
  if (shown === 0) return [`[no entries at offset ${offset}: there ${total === 1 ? 'is' : 'are'} ${total ?? 'fewer'} (${totalWords}${extra})]`];
  const more = total === undefined || end < total;
  return [`[showing entries ${offset + 1}–${end}${total !== undefined ? ` of ${total}` : ''} (${totalWords}${extra}, sorted by path${more ? `); pass offset ${end} for the next ones` : ')'}]`];
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}
