/**
 * A git configuration file's text read exactly as git reads it (git's config.c, `git_parse_source`
 * and its helpers), for the code that judges what a configuration makes git run. A reader that
 * differs from git anywhere is a way to hide a key: a comment line ending in a backslash (git
 * ends a comment at the newline whatever precedes it), a comment after a value or a section
 * header, a NUL byte in a subsection (git's key is the C string up to it, so
 * `[core "fsmonitor\0"]` + `x = prog` is `core.fsmonitor`). So this is a character-by-character
 * port, not a line reader, and test/sdk/git-config-syntax.test.ts compares it with
 * `git config --list` on many generated spellings.
 *
 * Where git refuses the file (a bad line: git dies at every command in that repository), the
 * result says so and holds the entries git had read before that line, as git does; callers that
 * judge a file treat a refused one as unknown, never as empty.
 */

export interface GitConfigEntry {
  /** `section.subsection.name` as git spells it: section and name lower-cased, subsection as written. */
  key: string;
  /** Null for a key written without `=` (git's boolean "true" with no value). */
  value: string | null;
}

export interface GitConfigRead {
  /** The entries git reads, in order (up to the refused line when `refused` is set). */
  entries: GitConfigEntry[];
  /** Git refuses the file ("bad config line"): the line (1-based) and its text. */
  refused?: { line: number; text: string };
}

const NL = 10;
const CR = 13;
const TAB = 9;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const DOT = 46;
const SEMICOLON = 59;
const EQUALS = 61;
const OPEN = 91;
const BACKSLASH = 92;
const CLOSE = 93;

// git's own ctype (sane_ctype), not the C library's: only these four are spaces (no \v, \f), and
// only ASCII letters and digits count; every other character, bytes above 127 included, is none.
const isSpace = (c: number): boolean => c === SPACE || c === TAB || c === NL || c === CR;
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isKeyChar = (c: number): boolean => isAlpha(c) || (c >= 48 && c <= 57) || c === 45;
const lower = (c: number): string => String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
/** Git passes keys and values on as C strings: a NUL byte ends them. */
const cString = (text: string): string => {
  const nul = text.indexOf('\0');
  return nul === -1 ? text : text.slice(0, nul);
};

/** git's get_next_char: CR LF reads as LF, and the end of the text as a LF (with `eof` set). */
class Source {
  pos = 0;
  eof = false;
  constructor(readonly text: string) {}
  next(): number {
    if (this.pos >= this.text.length) {
      this.eof = true;
      return NL;
    }
    const c = this.text.charCodeAt(this.pos++);
    if (c === CR && this.text.charCodeAt(this.pos) === NL) {
      this.pos++;
      return NL;
    }
    return c;
  }
}

/** `[name]`, `[name.sub]` (all lower-cased) or `[name "sub"]` after the `[`; undefined where git refuses. */
function sectionName(src: Source): string | undefined {
  let name = '';
  for (;;) {
    const c = src.next();
    if (src.eof) return undefined;
    if (c === CLOSE) return name;
    if (isSpace(c)) return quotedSubsection(src, name, c);
    if (!isKeyChar(c) && c !== DOT) return undefined;
    name += lower(c);
  }
}

/** The ` "sub"]` part: spaces, a quoted name where `\` takes the next character as it is, then `]` at once. */
function quotedSubsection(src: Source, name: string, first: number): string | undefined {
  let c = first;
  do {
    if (c === NL) return undefined;
    c = src.next();
  } while (isSpace(c));
  if (c !== QUOTE) return undefined;
  let sub = '';
  for (;;) {
    c = src.next();
    if (c === NL) return undefined;
    if (c === QUOTE) break;
    if (c === BACKSLASH) {
      c = src.next();
      if (c === NL) return undefined;
    }
    sub += String.fromCharCode(c);
  }
  return src.next() === CLOSE ? `${name}.${sub}` : undefined;
}

/**
 * git's parse_value, after the `=`: quotes toggle, `#`/`;` outside quotes start a comment that
 * runs to the end of the line (a backslash in it escapes nothing), `\` newline continues the value
 * (in quotes too), `\t \b \n \\ \"` are the only escapes, unquoted spaces at either end are
 * dropped and unquoted ones within become plain spaces. Undefined where git refuses (an unknown
 * escape, a quote open at the end of the line).
 */
function value(src: Source): string | undefined {
  let quote = false;
  let comment = false;
  let out = '';
  // Where trailing unquoted space began (0: none, as in git, which keeps no leading space anyway).
  let trimAt = 0;
  for (;;) {
    let c = src.next();
    if (c === NL) {
      if (quote) return undefined;
      return trimAt ? out.slice(0, trimAt) : out;
    }
    if (comment) continue;
    if (isSpace(c) && !quote) {
      // Kept inside the value as one plain space each, whatever the space was (a tab, a lone CR).
      if (!trimAt) trimAt = out.length;
      if (out.length) out += ' ';
      continue;
    }
    if (!quote && (c === SEMICOLON || c === HASH)) {
      comment = true;
      continue;
    }
    trimAt = 0;
    if (c === BACKSLASH) {
      c = src.next();
      if (c === NL) continue;
      if (c === 116) c = TAB; // t
      else if (c === 98) c = 8; // b
      else if (c === 110) c = NL; // n
      else if (c !== BACKSLASH && c !== QUOTE) return undefined;
      out += String.fromCharCode(c);
      continue;
    }
    if (c === QUOTE) {
      quote = !quote;
      continue;
    }
    out += String.fromCharCode(c);
  }
}

/** git's get_value, from a key's first letter: the name, spaces or tabs, then the end of the line or `=` and a value. */
function entry(src: Source, section: string, first: number): GitConfigEntry | undefined {
  let name = lower(first);
  let c: number;
  for (;;) {
    c = src.next();
    if (src.eof || !isKeyChar(c)) break;
    name += lower(c);
  }
  while (c === SPACE || c === TAB) c = src.next();
  const key = cString(section + name);
  if (c === NL) return { key, value: null };
  if (c !== EQUALS) return undefined;
  const text = value(src);
  return text === undefined ? undefined : { key, value: cString(text) };
}

/** The line git names when it refuses, with its text, from the last character read. */
function refusedLine(text: string, pos: number): { line: number; text: string } {
  let at = Math.min(pos, text.length) - 1;
  // The error came on reading a line's end: the line is the one that end closes.
  if (at >= 0 && text.charCodeAt(at) === NL) at--;
  if (at >= 0 && text.charCodeAt(at) === CR && text.charCodeAt(at + 1) === NL) at--;
  const start = text.lastIndexOf('\n', at) + 1;
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) line++;
  return { line, text: text.slice(start, end).replace(/\r$/, '') };
}

/** The entries git reads from a configuration file's text, and whether git refuses the file. */
export function readGitConfig(text: string): GitConfigRead {
  const src = new Source(text);
  const entries: GitConfigEntry[] = [];
  // A byte order mark at the very start is skipped (a partial one is refused: it is no letter).
  if (text.charCodeAt(0) === 0xfeff) src.pos = 1;
  let section = '';
  let comment = false;
  for (;;) {
    const c = src.next();
    if (c === NL) {
      if (src.eof) return { entries };
      comment = false;
      continue;
    }
    if (comment) continue;
    if (isSpace(c)) continue;
    if (c === HASH || c === SEMICOLON) {
      comment = true;
      continue;
    }
    if (c === OPEN) {
      // A key may follow the header on the same line (`[core] fsmonitor = x`).
      const name = sectionName(src);
      if (name === undefined || name === '') break;
      section = `${name}.`;
      continue;
    }
    // A key before any section is `name` alone, as git reads it.
    const got = isAlpha(c) ? entry(src, section, c) : undefined;
    if (!got) break;
    entries.push(got);
  }
  return { entries, refused: refusedLine(text, src.pos) };
}

/**
 * The entries as `{ key, value }` with a value-less key's value as `"true"`. `unparsed`, when
 * given, receives the line where git refuses the file, if it does: a caller judging the file must
 * then treat it as unknown (git reads nothing past it, but another git version might).
 */
export function parseGitConfig(text: string, unparsed?: string[]): { key: string; value: string }[] {
  const read = readGitConfig(text);
  if (read.refused) unparsed?.push(read.refused.text);
  return read.entries.map(({ key, value }) => ({ key, value: value ?? 'true' }));
}
