/**
 * One gitignore glob (git's wildmatch with WM_PATHNAME, plus ripgrep's `{a,b}`) translated into
 * a JavaScript regular expression body (`u` flag), and whether V8's backtracking engine may run
 * that expression: a `.gitignore` is written by whoever wrote the repository, and a line such as
 * `*a*a*a*a*a*a*a*b` against a name of 200 `a`s keeps V8 busy for hours (exponential in the
 * number of stars), synchronously, past every deadline and signal.
 *
 * V8 is used only for shapes whose backtracking is proven linear (`backtrackSafe`); every other
 * rule is matched by LinearRegExp (sdk/linear-regex), which gives the same answer for the same
 * expression in linear time. Safe shape: no braces, at most one `*` run per path segment, and at
 * most one `**` directory run (`(?:.*\/)?`, which an unanchored rule has in front of it). Why that
 * suffices: `*`, `?` and classes never match `/`, so a segment's one star has exactly one extent
 * that reaches the segment's end (a `/` or the end of the path) — each wrong extent fails within
 * the segment; the one `**` then has one candidate per `/` of the path, each followed by such
 * single-choice segments: O(path length × pattern length) in all. A trailing `/**` (`.*` to the
 * end) never backtracks. Two stars in one segment, two `**`, or a brace group multiply the
 * choices, which is where the time explodes; those go to the linear engine.
 */

export interface GlobTranslation {
  /** The regex body (no anchors) over the path, `u` flag. */
  source: string;
  /** Brace groups were read. */
  braces: boolean;
  /** The most `*` runs in one path segment. */
  segmentStars: number;
  /** `**` runs that span directories (`**\/` in front or in the middle). */
  globDirs: number;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r\\f\\v',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
};

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

function escapeRegexChar(ch: string): string {
  return REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch;
}

/** Whether V8 may run the rule built from `translation` (see the file comment). `anchored`: the rule has no `(?:.*\/)?` in front. */
export function backtrackSafe(translation: GlobTranslation, anchored: boolean): boolean {
  return !translation.braces && translation.segmentStars <= 1 && translation.globDirs + (anchored ? 0 : 1) <= 1;
}

/** Translates one gitignore glob (no leading `/`, no trailing `/`) into a regex body. Throws on a malformed glob. */
export function translateGlob(glob: string): GlobTranslation {
  let out = '';
  const chars = Array.from(glob);
  let i = 0;
  let braces = 0;
  const shape = { braces: false, segmentStars: 0, globDirs: 0 };
  let stars = 0; // `*` runs in the current segment
  const star = (): void => {
    stars++;
    shape.segmentStars = Math.max(shape.segmentStars, stars);
  };
  while (i < chars.length) {
    const ch = chars[i]!;
    // `{a,b}` is an alternation, as ripgrep reads ignore files (git would take it literally): the
    // search tools follow ripgrep so that its engine and the walker skip the same files.
    if (ch === '{') {
      out += '(?:';
      braces++;
      shape.braces = true;
      i++;
      continue;
    }
    if (ch === ',' && braces > 0) {
      out += '|';
      i++;
      continue;
    }
    if (ch === '}' && braces > 0) {
      out += ')';
      braces--;
      i++;
      continue;
    }
    if (ch === '*') {
      let j = i;
      while (chars[j] === '*') j++;
      const run = j - i;
      const segmentStart = i === 0 || chars[i - 1] === '/';
      const segmentEnd = j === chars.length || chars[j] === '/';
      if (run >= 2 && segmentStart && segmentEnd) {
        if (j === chars.length) {
          out += '.*'; // trailing `/**`: everything inside
          i = j;
        } else {
          out += '(?:.*/)?'; // `**/`: zero or more directories
          shape.globDirs++;
          stars = 0;
          i = j + 1;
        }
      } else {
        out += '[^/]*';
        star();
        i = j;
      }
      continue;
    }
    if (ch === '?') {
      out += '[^/]';
      i++;
      continue;
    }
    if (ch === '[') {
      const parsed = parseBracket(chars, i);
      if (parsed) {
        out += parsed.source;
        i = parsed.next;
        continue;
      }
      out += '\\[';
      i++;
      continue;
    }
    if (ch === '\\') {
      const next = chars[i + 1];
      if (next === undefined) throw new Error('trailing backslash');
      out += escapeRegexChar(next);
      if (next === '/') stars = 0;
      i += 2;
      continue;
    }
    if (ch === '/') stars = 0;
    out += escapeRegexChar(ch);
    i++;
  }
  if (braces > 0) throw new Error('unclosed {');
  return { source: out, ...shape };
}

/** The regex body of one gitignore glob (translateGlob without the shape). */
export function globToRegexSource(glob: string): string {
  return translateGlob(glob).source;
}

function parseBracket(chars: string[], start: number): { source: string; next: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (chars[i] === '!' || chars[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  while (i < chars.length) {
    const ch = chars[i]!;
    if (ch === ']' && !first) {
      return { source: negate ? `[^/${body}]` : `(?!/)[${body}]`, next: i + 1 };
    }
    first = false;
    if (ch === '[' && chars[i + 1] === ':') {
      const close = chars.indexOf(':', i + 2);
      if (close !== -1 && chars[close + 1] === ']') {
        const name = chars.slice(i + 2, close).join('');
        const cls = POSIX_CLASSES[name];
        if (cls === undefined) return undefined;
        body += cls;
        i = close + 2;
        continue;
      }
    }
    let lo = ch;
    if (ch === '\\') {
      const next = chars[i + 1];
      if (next === undefined) return undefined;
      lo = next;
      i++;
    }
    i++;
    if (chars[i] === '-' && chars[i + 1] !== undefined && chars[i + 1] !== ']') {
      let hi = chars[i + 1]!;
      i += 2;
      if (hi === '\\') {
        const next = chars[i];
        if (next === undefined) return undefined;
        hi = next;
        i++;
      }
      if (hi.codePointAt(0)! < lo.codePointAt(0)!) {
        body += ''; // an empty range matches nothing, like git
        continue;
      }
      body += `${classChar(lo)}-${classChar(hi)}`;
      continue;
    }
    body += classChar(lo);
  }
  // No closing bracket: ripgrep refuses the line ("unclosed character class") and git's
  // wildmatch matches nothing with it, so the rule is dropped (parseIgnoreLine catches this).
  throw new Error('unclosed [');
}

function classChar(ch: string): string {
  return /[\\\]^[-]/.test(ch) ? `\\${ch}` : ch;
}
