/**
 * grep's pattern: RE2 syntax, validated and compiled once by re2js (the linear-time engine of
 * the fallback), and re-spelled for ripgrep so that both engines accept the same language with
 * the same meaning.
 *
 * Why re-spell: ripgrep's Rust regex differs from RE2 in small ways that change results —
 * `\d \w \s \b` are Unicode-aware there and ASCII in RE2; escaping punctuation such as `\/` or
 * `\:` is an error in older Rust regex; `\Q…\E`, octal escapes and `(?<name>` are not
 * supported; `[[]`, `[a&&b]`, `[a--b]` and `a{,3}` parse differently. `toRipgrepRegex` walks the
 * pattern with RE2's own parsing rules (after re2js accepted it) and emits an equivalent Rust
 * regex: ASCII classes spelled out, `\b` as `(?-u:\b)`, every escaped or punctuation literal as
 * `\x{..}`, classes rebuilt item by item. A pattern without a faithful spelling (`\B`) or one
 * ripgrep still rejects (one that names `\n`, which never matches within a line) is searched
 * with re2js for that call.
 */
import { RE2JS } from 're2js';

export interface CompiledPattern {
  source: string;
  caseInsensitive: boolean;
  /** Matches one line (no line terminator). */
  line: RE2JS;
  /**
   * A superset prefilter over many lines at once (multi-line mode, so `^`/`$` also match at line
   * breaks). Undefined when the pattern needs per-line evaluation only (`\A`, `\z`, `(?-m)`).
   */
  block: RE2JS | undefined;
  /** Instructions of the compiled program: the re2js engine reads smaller slices of a file for a larger one. */
  instructions: number;
  /** The equivalent Rust regex for ripgrep, or undefined if it could not be re-spelled. */
  ripgrep: string | undefined;
  /**
   * For lines holding bytes that are not valid UTF-8: the pattern with U+FFFF (which those bytes
   * are decoded to) made unmatchable, as ripgrep can never match such bytes.
   */
  barrier: RE2JS | undefined;
  /** Claude Code's `multiline: true` (ripgrep `-U --multiline-dotall`): a match may span lines, `.` matches a newline. */
  multiline: boolean;
  /**
   * Multiline and able to consume a newline: then ripgrep searches the file as a whole (matches
   * spanning lines, counted as matches); otherwise it matches line by line, as without `-U`
   * (its `non_matching_bytes` test), and so does the fallback.
   */
  spansLines: boolean;
  /** The multiline pattern over a whole file (MULTILINE | DOTALL), for the fallback; undefined unless spansLines. */
  whole: RE2JS | undefined;
  /** `whole` with U+FFFF made unmatchable (see `barrier`), for a file holding bytes that are not UTF-8. */
  wholeBarrier: RE2JS | undefined;
}

/** What an invalid UTF-8 byte becomes when a line is matched (see `toBarrierPattern`). */
export const INVALID_BYTE = '\uFFFF';

export type Compiled = { ok: true; value: CompiledPattern } | { ok: false; error: string };

/**
 * The largest program grep searches, in byte ranges (see `patternWeight`): 700 000, ripgrep 13's
 * default regex size limit (100 MiB of compiled automaton) at the ≈ 150 bytes ripgrep's automaton
 * takes per UTF-8 byte range, a little below it (ripgrep refuses `[\p{L}\p{N}]{937}`, this limit
 * `[\p{L}\p{N}]{899}`), so a pattern ripgrep cannot take is refused the same way in both engines
 * instead of being searched by re2js for minutes.
 */
export const PATTERN_SIZE_LIMIT = 700_000;

/** The refusal of a pattern over the limit (also given for ripgrep's own size-limit error). */
export function tooLargeError(source: string, weight?: number): string {
  const size = weight === undefined ? '' : ` (about ${weight.toLocaleString('en-US')} character ranges; the limit is ${PATTERN_SIZE_LIMIT.toLocaleString('en-US')}, ripgrep's regex size limit)`;
  return `grep: the pattern is too large to search${size}: "${source.length > 80 ? `${source.slice(0, 80)}…` : source}". A large repetition of a wide class (such as [\\p{L}\\p{N}]{1000}) compiles to a huge automaton; use a smaller count or a range ({1,50}), a narrower class ([a-z]), or search a literal part of the text.`;
}

interface ProgramShape {
  re2(): { prog?: { inst?: readonly { op: number; runes?: ArrayLike<number> }[] } };
  programSize(): number;
}

// re2js instruction codes (its Inst class): a class of ranges, any character, any but newline.
const INST_RUNE = 8;
const INST_RUNE1 = 9;
const INST_RUNE_ANY = 10;
const INST_RUNE_ANY_NOT_NL = 11;

/**
 * The size of a compiled pattern in UTF-8 byte ranges, the measure ripgrep's limit counts in
 * effect: a character class counts its ranges (a Unicode class has hundreds), `.` counts 8
 * (its UTF-8 byte sequences), every other instruction 1.
 */
export function patternWeight(re: RE2JS): number {
  const program = re as unknown as ProgramShape;
  const inst = program.re2?.().prog?.inst;
  if (!Array.isArray(inst)) return program.programSize();
  let weight = 0;
  for (const i of inst) {
    if (i.op === INST_RUNE) weight += Math.max(1, (i.runes?.length ?? 0) / 2);
    else if (i.op === INST_RUNE_ANY || i.op === INST_RUNE_ANY_NOT_NL) weight += 8;
    else weight += 1;
  }
  return weight;
}

/**
 * Whether some instruction of the program consumes a newline (a class or literal holding it, or
 * `.` under `(?s)`): ripgrep's test for searching a multiline pattern as a whole file.
 */
export function consumesNewline(re: RE2JS): boolean {
  const program = re as unknown as { re2(): { prog?: { inst?: readonly { op: number; matchRune?(r: number): boolean }[] } } };
  const inst = program.re2?.().prog?.inst;
  if (!Array.isArray(inst)) return true; // unknown shape: search the whole file, always correct for a multiline pattern
  return inst.some((i) => i.op === INST_RUNE_ANY || ((i.op === INST_RUNE || i.op === INST_RUNE1) && i.matchRune?.(10) === true));
}

const SYNTAX_HINT = 'grep uses RE2 syntax (as in Go and ripgrep): escape the literal characters ( ) [ ] { } . * + ? ^ $ | \\ with a backslash';

export function compilePattern(source: string, caseInsensitive: boolean, multiline = false): Compiled {
  const flags = caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0;
  const wholeFlags = flags | RE2JS.MULTILINE | RE2JS.DOTALL;
  let line: RE2JS;
  let whole: RE2JS | undefined;
  try {
    line = RE2JS.compile(source, flags);
    if (multiline) whole = RE2JS.compile(source, wholeFlags);
  } catch (error) {
    return { ok: false, error: explainSyntaxError(source, error) };
  }
  const weight = patternWeight(whole ?? line);
  if (weight > PATTERN_SIZE_LIMIT) return { ok: false, error: tooLargeError(source, weight) };
  const spansLines = whole !== undefined && consumesNewline(whole);
  if (!spansLines) whole = undefined;
  const perLineOnly = /\\[Az]/.test(source) || /\(\?[imsU]*-[imsU]*m/.test(source);
  let ripgrep: string | undefined;
  try {
    ripgrep = (caseInsensitive ? '(?i)' : '') + toRipgrepRegex(source, spansLines);
  } catch {
    ripgrep = undefined;
  }
  // `block` and `barrier` serve the re2js engine only: compiled on first use, so a search that
  // ripgrep answers does not pay for them.
  let block: RE2JS | undefined | null = null;
  let barrier: RE2JS | undefined | null = null;
  let wholeBarrier: RE2JS | undefined | null = null;
  const value: CompiledPattern = {
    source,
    caseInsensitive,
    line,
    instructions: (whole ?? line).programSize(),
    ripgrep,
    multiline,
    spansLines,
    whole,
    get wholeBarrier() {
      if (wholeBarrier === null) {
        try {
          wholeBarrier = spansLines ? RE2JS.compile(toBarrierPattern(source, true), wholeFlags) : undefined;
        } catch {
          wholeBarrier = undefined;
        }
      }
      return wholeBarrier;
    },
    get block() {
      if (block === null) block = perLineOnly ? undefined : RE2JS.compile(source, flags | RE2JS.MULTILINE);
      return block;
    },
    get barrier() {
      if (barrier === null) {
        try {
          barrier = RE2JS.compile(toBarrierPattern(source), flags);
        } catch {
          barrier = undefined;
        }
      }
      return barrier;
    },
  };
  return { ok: true, value };
}

function explainSyntaxError(source: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw.replace(/^error parsing regexp:\s*/, '');
  const backreference = /`(\\[1-9]|\\k)/.exec(message) ?? /(\\[1-9]|\\k<)/.exec(source);
  if (backreference && /invalid escape sequence/.test(message)) {
    return `grep: the pattern uses a backreference (${backreference[1]}), which grep does not support: it matches with a linear-time RE2 engine (no backtracking), so that no pattern can hang the search. Search for the repeated text itself, or narrow with two searches.`;
  }
  const lookaround = /\(\?<?[=!]/.exec(source);
  if (lookaround) {
    return `grep: the pattern uses a lookahead or lookbehind (${lookaround[0]}), which grep does not support: it matches with a linear-time RE2 engine (no backtracking). Match the surrounding text instead, e.g. "foo\\(" rather than "foo(?=\\()".`;
  }
  if (/\(\?>/.test(source)) {
    return 'grep: atomic groups "(?>…)" are not supported (RE2 syntax, linear-time matching); use a plain group "(?:…)".';
  }
  return `grep: invalid regular expression: ${message}. ${SYNTAX_HINT}.`;
}

// ---------------------------------------------------------------------------------------------
// RE2 → Rust regex (ripgrep). Follows Go's regexp/syntax parser (which re2js ports) for the
// Perl flags RE2 uses by default. Assumes the pattern is valid RE2 (re2js compiled it).

const ASCII_CLASS: Record<string, string> = {
  d: '0-9',
  w: '0-9A-Za-z_',
  s: '\\x{9}\\x{A}\\x{C}\\x{D}\\x{20}',
};

function isAlnum(cp: number): boolean {
  return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122);
}

/** A literal rune in Rust syntax, safe both inside and outside a class. */
function literal(cp: number): string {
  if (isAlnum(cp)) return String.fromCharCode(cp);
  if (cp < 0x80) return `\\x{${cp.toString(16).toUpperCase()}}`;
  return String.fromCodePoint(cp);
}

function codePointAt(p: string, i: number): { cp: number; next: number } {
  const cp = p.codePointAt(i);
  if (cp === undefined) throw new Error('unexpected end of pattern');
  return { cp, next: i + (cp > 0xffff ? 2 : 1) };
}

const isOctal = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '7';
const HEX = /^[0-9A-Fa-f]$/;

/** An ordinary escape (Go's parseEscape) at `i` (the backslash): one rune. */
function parseEscape(p: string, i: number): { cp: number; next: number } {
  const c = p[i + 1];
  if (c === undefined) throw new Error('trailing backslash');
  if ((c >= '1' && c <= '7' && isOctal(p[i + 2])) || c === '0') {
    let value = 0;
    let j = i + 1;
    for (let digits = 0; digits < 3 && isOctal(p[j]); digits++, j++) value = value * 8 + (p.charCodeAt(j) - 48);
    return { cp: value, next: j };
  }
  if (c === 'x') {
    if (p[i + 2] === '{') {
      const close = p.indexOf('}', i + 3);
      if (close < 0) throw new Error('bad hex escape');
      return { cp: Number.parseInt(p.slice(i + 3, close), 16), next: close + 1 };
    }
    const hex = p.slice(i + 2, i + 4);
    if (hex.length !== 2 || !HEX.test(hex[0]!) || !HEX.test(hex[1]!)) throw new Error('bad hex escape');
    return { cp: Number.parseInt(hex, 16), next: i + 4 };
  }
  const controls: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
  if (controls[c] !== undefined) return { cp: controls[c]!, next: i + 2 };
  const { cp, next } = codePointAt(p, i + 1);
  if (cp < 0x80 && !isAlnum(cp)) return { cp, next };
  throw new Error(`unsupported escape \\${c}`);
}

/** `\pL`, `\p{Greek}`, `\P{^Greek}` at `i`. */
function unicodeClass(p: string, i: number): { text: string; next: number } {
  let negate = p[i + 1] === 'P';
  let name: string;
  let next: number;
  if (p[i + 2] === '{') {
    const close = p.indexOf('}', i + 3);
    if (close < 0) throw new Error('bad unicode class');
    name = p.slice(i + 3, close);
    next = close + 1;
  } else {
    const rune = codePointAt(p, i + 2);
    name = String.fromCodePoint(rune.cp);
    next = rune.next;
  }
  if (name.startsWith('^')) {
    negate = !negate;
    name = name.slice(1);
  }
  return { text: `\\${negate ? 'P' : 'p'}{${name}}`, next };
}

function perlClass(letter: string): string | undefined {
  const body = ASCII_CLASS[letter.toLowerCase()];
  if (body === undefined) return undefined;
  return letter === letter.toLowerCase() ? body : `[^${body}]`;
}

function classRune(p: string, i: number): { cp: number; next: number } {
  return p[i] === '\\' ? parseEscape(p, i) : codePointAt(p, i);
}

/** A bracket class at `i` (Go's parseClass), rebuilt item by item. */
function bracketClass(p: string, i: number): { text: string; next: number } {
  let j = i + 1;
  let negate = false;
  if (p[j] === '^') {
    negate = true;
    j++;
  }
  let items = '';
  let first = true;
  for (;;) {
    if (j >= p.length) throw new Error('unterminated class');
    if (p[j] === ']' && !first) {
      j++;
      break;
    }
    first = false;
    if (p[j] === '[' && p[j + 1] === ':') {
      const close = p.indexOf(':]', j + 2);
      if (close >= 0) {
        items += p.slice(j, close + 2);
        j = close + 2;
        continue;
      }
    }
    if (p[j] === '\\' && (p[j + 1] === 'p' || p[j + 1] === 'P')) {
      const cls = unicodeClass(p, j);
      items += cls.text;
      j = cls.next;
      continue;
    }
    if (p[j] === '\\') {
      const cls = perlClass(p[j + 1] ?? '');
      if (cls !== undefined) {
        items += cls;
        j += 2;
        continue;
      }
    }
    const lo = classRune(p, j);
    j = lo.next;
    if (p[j] === '-' && j + 1 < p.length && p[j + 1] !== ']') {
      const hi = classRune(p, j + 1);
      j = hi.next;
      items += `${literal(lo.cp)}-${literal(hi.cp)}`;
    } else {
      items += literal(lo.cp);
    }
  }
  return { text: `[${negate ? '^' : ''}${items}]`, next: j };
}

/** `{n}`, `{n,}`, `{n,m}` per Go's parseRepeat (no leading zeros), else undefined (a literal `{`). */
function repeatAt(p: string, i: number): string | undefined {
  const match = /^\{(\d+)(?:,(\d*))?\}/.exec(p.slice(i, i + 24));
  if (!match) return undefined;
  const leadingZero = (digits: string | undefined): boolean => digits !== undefined && digits.length > 1 && digits.startsWith('0');
  if (leadingZero(match[1]) || leadingZero(match[2])) return undefined;
  return match[0];
}

/**
 * `wholeFile`: the pattern is searched over a whole file (multiline), where `\A` and `\z` mean
 * its start and end, as in Rust; line by line they mean a line's (ripgrep sees a buffer of lines).
 */
export function toRipgrepRegex(p: string, wholeFile = false): string {
  let out = '';
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\') {
      const next = p[i + 1];
      if ((next === 'A' || next === 'z') && wholeFile) {
        out += `\\${next}`;
        i += 2;
      } else if (next === 'A') {
        out += '(?m:^)';
        i += 2;
      } else if (next === 'z') {
        out += '(?m:$)';
        i += 2;
      } else if (next === 'b') {
        out += '(?-u:\\b)'; // ASCII word boundary, as in RE2; never true inside a UTF-8 sequence
        i += 2;
      } else if (next === 'B') {
        // Rust's ASCII `(?-u:\B)` is also true between the bytes of one non-ASCII character, so
        // there is no faithful spelling: such a pattern is searched with re2js.
        throw new Error('\\B has no exact ripgrep equivalent');
      } else if (next === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const text = end < 0 ? p.slice(i + 2) : p.slice(i + 2, end);
        for (const ch of text) out += literal(ch.codePointAt(0)!);
        i = end < 0 ? p.length : end + 2;
      } else if (next === 'p' || next === 'P') {
        const cls = unicodeClass(p, i);
        out += cls.text;
        i = cls.next;
      } else if (next !== undefined && perlClass(next) !== undefined) {
        const cls = perlClass(next)!;
        out += cls.startsWith('[') ? cls : `[${cls}]`;
        i += 2;
      } else {
        const rune = parseEscape(p, i);
        out += literal(rune.cp);
        i = rune.next;
      }
      continue;
    }
    if (c === '[') {
      const cls = bracketClass(p, i);
      out += cls.text;
      i = cls.next;
      continue;
    }
    if (c === '(') {
      if (p.startsWith('(?P<', i) || p.startsWith('(?<', i)) {
        const open = p.indexOf('<', i);
        const close = p.indexOf('>', open);
        if (close < 0) throw new Error('bad group name');
        out += `(?P<${p.slice(open + 1, close)}>`;
        i = close + 1;
      } else if (p.startsWith('(?', i)) {
        let j = i + 2;
        while (j < p.length && /[imsU-]/.test(p[j]!)) j++;
        if (p[j] !== ':' && p[j] !== ')') throw new Error('bad flags');
        out += p.slice(i, j + 1);
        i = j + 1;
      } else {
        out += '(';
        i++;
      }
      continue;
    }
    if (c === '{') {
      const repeat = repeatAt(p, i);
      out += repeat ?? literal(123);
      i += repeat ? repeat.length : 1;
      continue;
    }
    if ('.^$|)*+?'.includes(c)) {
      out += c;
      i++;
      continue;
    }
    const rune = codePointAt(p, i);
    out += literal(rune.cp);
    i = rune.next;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Invalid UTF-8. ripgrep matches raw bytes, and in its Unicode mode no construct matches a byte
// that is not part of valid UTF-8: `.`, `[^a]`, `\W` or `\P{L}` never consume one. The fallback
// decodes such bytes to U+FFFF (a noncharacter that no text contains) and matches those lines
// with this variant of the pattern, in which every construct that could match U+FFFF excludes
// it. The displayed text is decoded as ripgrep's is (U+FFFD), so only the matching differs.

const X = '\\x{FFFF}';

/** `\P{Name}` → a class without U+FFFF; `\p{Name}` likewise (`\p{Any}`, `\pC` contain it). */
function barrierUnicode(p: string, i: number): { text: string; next: number } {
  const cls = unicodeClass(p, i); // `\p{Name}` or `\P{Name}`, negation folded in
  const name = cls.text.slice(3, -1);
  const inverse = cls.text[1] === 'p' ? 'P' : 'p';
  return { text: `[^\\${inverse}{${name}}${X}]`, next: cls.next };
}

function barrierClass(p: string, i: number): { text: string; next: number } {
  let j = i + 1;
  const negate = p[j] === '^';
  if (negate) j++;
  const bodyStart = j;
  const positive: string[] = [];
  const alternatives: string[] = [];
  let first = true;
  const hex = (cp: number): string => `\\x{${cp.toString(16).toUpperCase()}}`;
  for (;;) {
    if (j >= p.length) throw new Error('unterminated class');
    if (p[j] === ']' && !first) break;
    first = false;
    if (p[j] === '[' && p[j + 1] === ':') {
      const close = p.indexOf(':]', j + 2);
      if (close >= 0) {
        const item = p.slice(j, close + 2);
        if (item[2] === '^') alternatives.push(`[^[:${item.slice(3, -2)}:]${X}]`);
        else positive.push(item);
        j = close + 2;
        continue;
      }
    }
    if (p[j] === '\\' && (p[j + 1] === 'p' || p[j + 1] === 'P')) {
      const cls = barrierUnicode(p, j);
      alternatives.push(cls.text);
      j = cls.next;
      continue;
    }
    if (p[j] === '\\' && p[j + 1] !== undefined && 'dwsDWS'.includes(p[j + 1]!)) {
      const letter = p[j + 1]!;
      if (letter === letter.toLowerCase()) positive.push(`\\${letter}`);
      else alternatives.push(`[^\\${letter.toLowerCase()}${X}]`);
      j += 2;
      continue;
    }
    const lo = classRune(p, j);
    j = lo.next;
    let hi = lo;
    if (p[j] === '-' && j + 1 < p.length && p[j + 1] !== ']') {
      hi = classRune(p, j + 1);
      j = hi.next;
    }
    if (lo.cp <= 0xffff && hi.cp >= 0xffff) {
      if (lo.cp <= 0xfffe) positive.push(`${hex(lo.cp)}-${hex(0xfffe)}`);
      if (hi.cp >= 0x10000) positive.push(`${hex(0x10000)}-${hex(hi.cp)}`);
    } else {
      positive.push(lo.cp === hi.cp ? hex(lo.cp) : `${hex(lo.cp)}-${hex(hi.cp)}`);
    }
  }
  const next = j + 1;
  if (negate) return { text: `[^${p.slice(bodyStart, j)}${X}]`, next };
  const parts = [...(positive.length > 0 ? [`[${positive.join('')}]`] : []), ...alternatives];
  if (parts.length === 0) return { text: '[^\\x{0}-\\x{10FFFF}]', next };
  return { text: parts.length === 1 ? parts[0]! : `(?:${parts.join('|')})`, next };
}

/** The RE2 pattern with every construct that could match U+FFFF made to exclude it (`dotAll`: `.` also matches a newline). */
export function toBarrierPattern(p: string, dotAll = false): string {
  let out = '';
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\') {
      const next = p[i + 1];
      if (next === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const stop = end < 0 ? p.length : end + 2;
        out += p.slice(i, stop);
        i = stop;
      } else if (next === 'p' || next === 'P') {
        const cls = barrierUnicode(p, i);
        out += cls.text;
        i = cls.next;
      } else if (next === 'D' || next === 'W' || next === 'S') {
        out += `[^\\${next.toLowerCase()}${X}]`;
        i += 2;
      } else if (next !== undefined && 'AzbBdws'.includes(next)) {
        out += `\\${next}`;
        i += 2;
      } else {
        const rune = parseEscape(p, i);
        out += p.slice(i, rune.next);
        i = rune.next;
      }
      continue;
    }
    if (c === '[') {
      const cls = barrierClass(p, i);
      out += cls.text;
      i = cls.next;
      continue;
    }
    if (c === '.') {
      out += dotAll ? `[^${X}]` : `[^\\n${X}]`;
      i++;
      continue;
    }
    if (c === '(' && (p.startsWith('(?P<', i) || p.startsWith('(?<', i) || p.startsWith('(?', i))) {
      const close = p.startsWith('(?P<', i) || p.startsWith('(?<', i) ? p.indexOf('>', i) : (() => {
        let j = i + 2;
        while (j < p.length && /[imsU-]/.test(p[j]!)) j++;
        return j;
      })();
      out += p.slice(i, close + 1);
      i = close + 1;
      continue;
    }
    const rune = codePointAt(p, i);
    out += p.slice(i, rune.next);
    i = rune.next;
  }
  return out;
}
