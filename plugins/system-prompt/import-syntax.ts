/**
 * Where Claude Code's `@path` imports are in a memory file: `@` at a line's or word's start
 * (after whitespace) followed by a path, outside fenced and indented code blocks and code
 * spans, as Claude Code's Markdown reading skips those. An e-mail address (`user@example.com`) is no import: its `@` follows a letter.
 * Whether a candidate is a file is the reader's business (only existing files are imported).
 */

export interface ImportMention {
  /** The path as written, `\ ` read as a space; trailing sentence punctuation kept (see `candidates`). */
  target: string;
  /** 1-based line of the importing file. */
  line: number;
}

/** An opening fence: three or more backticks or tildes, up to three spaces in (CommonMark). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A code span: a run of backticks, then the same run again (CommonMark, on one line). */
const CODE_SPAN = /(`+)(?:(?!\1)[\s\S])*?\1(?!`)/g;
/** `@` at the start or after whitespace; the path runs to the next unescaped whitespace. */
const MENTION = /(^|\s)@((?:\\ |[^\s\\])+)/g;

/** Four columns of indentation (a tab counts as reaching them): an indented code line, outside a paragraph or list. */
const INDENTED = /^(?: {4}| {0,3}\t)/;
/** A list item's start (`- `, `* `, `+ `, `1. `, `1) `), up to three spaces in. */
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

export function importMentions(text: string): ImportMention[] {
  const found: ImportMention[] = [];
  let fence: string | undefined;
  // What the previous line was: an indented code block starts only after a blank line (it cannot
  // interrupt a paragraph) and not inside a list, where indented lines continue the item.
  let previous: 'blank' | 'text' | 'code' = 'blank';
  let inList = false;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const opening = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      // A fence closes with at least as many of the same character, and nothing else on the line.
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening) fence = undefined;
      return;
    }
    if (line.trim() === '') {
      if (previous !== 'code') previous = 'blank';
      return;
    }
    if (INDENTED.test(line) && (previous === 'code' || (previous === 'blank' && !inList))) {
      previous = 'code';
      return;
    }
    if (!INDENTED.test(line)) inList = LIST_ITEM.test(line) || (inList && previous === 'text');
    previous = 'text';
    if (opening !== undefined) {
      fence = opening;
      return;
    }
    const prose = line.replace(CODE_SPAN, (span) => ' '.repeat(span.length));
    for (const match of prose.matchAll(MENTION)) {
      const target = match[2]!.replace(/\\ /g, ' ');
      found.push({ target, line: index + 1 });
    }
  });
  return found;
}

/**
 * The paths a mention may mean, longest first: as written, then without the punctuation that
 * ends a sentence or a bracket (`see @README.md.`, `(@docs/a.md)`).
 */
export function candidates(target: string): string[] {
  const stripped = target.replace(/[.,;:!?)\]}'"]+$/, '');
  return stripped !== target && stripped !== '' ? [target, stripped] : [target];
}

/**
 * Whether a mention that names no file was surely meant as a file, so its absence is worth a
 * warning: it starts like a path (`./`, `../`, `~/`, `/`) or its last part has an extension.
 * `@alice`, `@types/node` and `@babel/core` are names, not paths: they are left alone quietly.
 */
export function looksLikeFile(target: string): boolean {
  if (/^(\.{1,2}|~)?\//.test(target)) return true;
  const last = target.split('/').pop() ?? '';
  return /^[^@]*[^.@]\.[A-Za-z0-9]{1,8}$/.test(last);
}
