/**
 * The names of files a piece of code spells out, in any language: what a loader, a runner or a
 * child process may be handed (`runpy.run_path("util.py")`, `fork('./w.mjs')`, `spawn('node',
 * ['worker.js'])`, `exec(open("x.py").read())`, `require_relative`, `dofile`, `include`…), found
 * without knowing the call that takes it, so a new way to load a file needs no new rule here:
 *
 *   - every quoted literal (`'…'`, `"…"`, a template's static parts), each of its blank-separated
 *     words, and runs of literals joined by `,` `+` `/` (`path.join(__dirname, 'lib', 'w.js')`,
 *     `Path(__file__).parent / "lib" / "u.py"`, `__dirname + '/u.js'`) joined into one path;
 *   - every bare word of the text ending in a code extension (`load 'util.rb'`, `. lib.sh`).
 *
 * Trust-code-loads keeps the candidates that name an existing regular file inside the project,
 * from the file's folder or the project root (a child process's current folder is most often the
 * root), with a code extension, or, for a path with a folder in it, a script by its mode or `#!`.
 * Over-inclusion only makes trust asked again more often; a name built at run time is not seen.
 */

/** Extensions of code an interpreter or a loader runs. */
const EXTENSIONS = '(?:py|pyw|[mc]?[jt]s|[jt]sx|node|sh|bash|zsh|ksh|dash|rb|pl|pm|lua|php)';
export const CODE_EXTENSION = new RegExp(`\\.${EXTENSIONS}$`, 'i');
/** A code extension ending a word, wherever it stands (the word is then read backwards: linear in the text). */
const EXTENSION_IN_TEXT = new RegExp(`\\.${EXTENSIONS}(?![\\w])`, 'gi');

/** Literals joined into one path at most (a longer run is read as its last pieces). */
const MAX_JOINED = 8;
/** A literal longer than this is data (a template of a page), not a file's name. */
const MAX_NAME_LENGTH = 4096;

interface Literal {
  value: string;
  start: number;
  end: number;
}

/** The rest of a quoted literal after its opening quote, up to its closing one (a single-quoted one stays on its line). */
const REST: Record<string, RegExp> = {
  '"': /(?:[^"\\\n]|\\[\s\S])*"/y,
  "'": /(?:[^'\\\n]|\\[\s\S])*'/y,
  '`': /(?:[^`\\]|\\[\s\S])*`/y,
};

/** Where the quote opened at `start` closes (escapes skipped), or -1. */
function closingQuote(text: string, start: number, quote: string): number {
  const rest = REST[quote]!;
  rest.lastIndex = start + 1;
  return rest.test(text) ? rest.lastIndex - 1 : -1;
}

/** Where the `${` at `start` closes (braces counted; strings inside are not looked into). */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The quoted literals of a text, a template's static parts as literals of their own. */
export function quotedLiterals(text: string): Literal[] {
  const found: Literal[] = [];
  const quotes = /["'`]/g;
  for (let i = 0; i < text.length; i++) {
    quotes.lastIndex = i;
    const next = quotes.exec(text);
    if (next === null) break;
    i = next.index;
    const c = next[0];
    const close = closingQuote(text, i, c);
    // An unmatched quote (an apostrophe in a comment) opens nothing: the scan goes on after it.
    if (close < 0) continue;
    if (c !== '`') {
      found.push({ value: text.slice(i + 1, close), start: i, end: close + 1 });
      i = close;
      continue;
    }
    let pieceStart = i + 1;
    let j = i + 1;
    for (; j < close; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '$' && text[j + 1] === '{') {
        const end = closingBrace(text, j + 1);
        if (end < 0 || end > close) break;
        found.push({ value: text.slice(pieceStart, j), start: pieceStart - 1, end: j });
        pieceStart = end + 1;
        j = end;
      }
    }
    found.push({ value: text.slice(pieceStart, close), start: pieceStart - 1, end: close + 1 });
    i = close;
  }
  return found.filter((literal) => literal.value.length <= MAX_NAME_LENGTH);
}

/**
 * JavaScript without its comments (strings and templates kept as they are), so that a comment
 * between a loader and its name (`import(/* x *\/ './m.js')`) hides nothing. A regex literal
 * holding a quote can mislead it: callers read the text as written too.
 */
export function withoutComments(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const close = closingQuote(text, i, c);
      if (close >= 0) i = close;
      continue;
    }
    if (c !== '/' || (text[i + 1] !== '/' && text[i + 1] !== '*')) continue;
    const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
    out += text.slice(from, i) + ' ';
    from = end < 0 ? text.length : text[i + 1] === '/' ? end : end + 2;
    i = from - 1;
  }
  return out + text.slice(from);
}

const JOINER = /^\s*[,+/]\s*$/;
const WORD_CHAR = /[\w.\/@~-]/;

/** Every name of a file the text may spell out (see the file's comment): not yet checked against the disk. */
export function pathCandidates(text: string): Set<string> {
  const names = new Set<string>();
  const literals = quotedLiterals(text);
  let run: string[] = [];
  for (const [index, literal] of literals.entries()) {
    const previous = literals[index - 1];
    if (previous === undefined || !JOINER.test(text.slice(previous.end, literal.start))) run = [];
    run.push(literal.value);
    if (run.length > MAX_JOINED) run.shift();
    const value = literal.value.trim();
    if (value !== '') names.add(value);
    for (const word of value.split(/\s+/)) if (word !== '') names.add(word);
    for (let first = run.length - 2; first >= 0; first--) names.add(run.slice(first).join('/').replace(/\/{2,}/g, '/'));
  }
  for (const match of text.matchAll(EXTENSION_IN_TEXT)) {
    let start = match.index;
    while (start > 0 && WORD_CHAR.test(text[start - 1]!)) start--;
    if (start < match.index) names.add(text.slice(start, match.index + match[0].length));
  }
  return names;
}
