/**
 * A small, fast gitignore matcher (git's pattern rules, `wildmatch` with WM_PATHNAME).
 *
 * Why not the `ignore` package: the walker needs "does this rule set match this path itself"
 * (it prunes ignored directories, so parent checks are redundant, and a search started inside an
 * ignored directory must not see every entry as ignored through that parent), and it tests every
 * entry of the tree once: `ignore` checks each parent as well and measured ≈ 7 µs per path on a
 * cold cache (250 ms for 36,000 paths); one precompiled alternation per file is ≈ 0.3 µs.
 *
 * Semantics (gitignore(5)): blank lines and `#` comments are skipped; trailing spaces are dropped
 * unless escaped; `!` re-includes; a trailing `/` matches directories only; a pattern with a `/`
 * at the start or in the middle is anchored to the file's directory, any other pattern matches a
 * name at any depth; `*` and `?` never match `/`; `**` as a whole segment matches any number of
 * directories; `[...]` classes (with `!`/`^` negation, ranges and `[:alpha:]` names); `\` escapes;
 * `{a,b}` alternation (ripgrep's reading; git takes braces literally).
 * Within one file the last matching rule wins.
 */

export interface IgnoreRule {
  negate: boolean;
  dirOnly: boolean;
  source: string;
  regex: RegExp;
}

/** The verdict of one ignore file for one path: ignored, re-included, or no opinion. */
export type IgnoreVerdict = 'ignore' | 'include' | undefined;

export class IgnoreFile {
  readonly rules: readonly IgnoreRule[];
  /** `''` for the project root, else the directory (relative to the root) followed by `/`. */
  readonly prefix: string;
  private readonly anyRule: RegExp | undefined;
  private readonly anyFileRule: RegExp | undefined;

  constructor(text: string, baseDir: string) {
    this.prefix = baseDir === '' ? '' : `${baseDir}/`;
    this.rules = parseIgnoreText(text);
    this.anyRule = combine(this.rules);
    this.anyFileRule = combine(this.rules.filter((r) => !r.dirOnly));
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** `path` is relative to the project root and lies below this file's directory. */
  verdict(path: string, isDir: boolean): IgnoreVerdict {
    const quick = isDir ? this.anyRule : this.anyFileRule;
    if (!quick) return undefined;
    const relative = this.prefix === '' ? path : path.slice(this.prefix.length);
    if (!quick.test(relative)) return undefined;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(relative)) return rule.negate ? 'include' : 'ignore';
    }
    return undefined;
  }
}

function combine(rules: readonly IgnoreRule[]): RegExp | undefined {
  if (rules.length === 0) return undefined;
  return new RegExp(rules.map((r) => `(?:${r.source})`).join('|'), 'u');
}

export function parseIgnoreText(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split('\n')) {
    const rule = parseIgnoreLine(rawLine);
    if (rule) rules.push(rule);
  }
  return rules;
}

export function parseIgnoreLine(rawLine: string): IgnoreRule | undefined {
  let line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
  if (line === '' || line.startsWith('#')) return undefined;
  line = trimTrailingSpaces(line);
  if (line === '') return undefined;
  let negate = false;
  if (line.startsWith('!')) {
    negate = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }
  let dirOnly = false;
  while (line.endsWith('/') && !line.endsWith('\\/')) {
    dirOnly = true;
    line = line.slice(0, -1);
  }
  if (line === '') return undefined;
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  if (line === '') return undefined;
  let body: string;
  try {
    body = globToRegexSource(line);
  } catch {
    return undefined; // a malformed pattern matches nothing, as in git
  }
  const source = anchored ? `^${body}$` : `^(?:.*/)?${body}$`;
  return { negate, dirOnly, source, regex: new RegExp(source, 'u') };
}

/** A line without its trailing spaces, except an escaped one (`\ `), as gitignore(5) says. */
export function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    // An escaped space ends the trimming: count the backslashes before it.
    let slashes = 0;
    for (let k = end - 2; k >= 0 && line[k] === '\\'; k--) slashes++;
    if (slashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
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

/** Translates one gitignore glob (no leading `/`, no trailing `/`) into a regex body. */
export function globToRegexSource(glob: string): string {
  let out = '';
  const chars = Array.from(glob);
  let i = 0;
  let braces = 0;
  while (i < chars.length) {
    const ch = chars[i]!;
    // `{a,b}` is an alternation, as ripgrep reads ignore files (git would take it literally): the
    // search tools follow ripgrep so that its engine and the walker skip the same files.
    if (ch === '{') {
      out += '(?:';
      braces++;
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
      const stars = j - i;
      const segmentStart = i === 0 || chars[i - 1] === '/';
      const segmentEnd = j === chars.length || chars[j] === '/';
      if (stars >= 2 && segmentStart && segmentEnd) {
        if (j === chars.length) {
          out += '.*'; // trailing `/**`: everything inside
          i = j;
        } else {
          out += '(?:.*/)?'; // `**/`: zero or more directories
          i = j + 1;
        }
      } else {
        out += '[^/]*';
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
      i += 2;
      continue;
    }
    out += escapeRegexChar(ch);
    i++;
  }
  if (braces > 0) throw new Error('unclosed {');
  return out;
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
  return undefined; // no closing bracket: `[` is literal
}

function classChar(ch: string): string {
  return /[\\\]^[-]/.test(ch) ? `\\${ch}` : ch;
}

/** Escapes a literal path for use as an anchored gitignore-syntax line (ripgrep's --ignore-file). */
export function anchoredIgnoreLine(relPath: string, isDir: boolean): string {
  let escaped = relPath.replace(/[\\*?[\]{}!#]/g, (c) => `\\${c}`);
  if (escaped.endsWith(' ')) escaped = `${escaped.slice(0, -1)}\\ `;
  return `/${escaped}${isDir ? '/' : ''}`;
}

/**
 * The lines of an ignore file that lies in directory `baseRel` (relative to the project root),
 * rewritten so that the same rules hold when matched relative to the root (ripgrep's
 * `--ignore-file` matches relative to its working directory): `*.log` in `a/` becomes
 * `/a/**\/*.log`, `/out` becomes `/a/out`, `!keep` becomes `!/a/**\/keep`. Comments and blank
 * lines are dropped; the order (last rule wins) is kept.
 */
export function reanchorIgnoreText(text: string, baseRel: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.split('\n')) {
    let line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line === '' || line.startsWith('#')) continue;
    if (baseRel === '') {
      out.push(line);
      continue;
    }
    let bang = '';
    if (line.startsWith('!')) {
      bang = '!';
      line = line.slice(1);
    }
    // A pattern with a `/` before its (optional) trailing one is anchored to its file's directory.
    const body = line.replace(/\/+$/, '');
    if (body === '') continue;
    const anchored = body.includes('/');
    const base = baseRel.replace(/[\\*?[\]{}!#]/g, (c) => `\\${c}`);
    out.push(`${bang}/${base}/${anchored ? line.replace(/^\/+/, '') : `**/${line}`}`);
  }
  return out;
}
