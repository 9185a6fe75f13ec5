/**
 * Text the model, a tool or an MCP server chose, as the editor shows it in a tool call's title or
 * an approval question: every character that would hide or change what the user reads (control
 * characters, escape sequences, carriage returns, zero-width and other format or default-ignorable
 * code points, bidi overrides, line separators) is written as a visible escape (`\r`, `\u001b`,
 * `\u200b`), never sent raw and never dropped: the user sees that something is there. The
 * terminal UI's dialog keeps the same characters off the screen (ui-tui terminal-safe.ts).
 */

const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\r': '\\r', '\u000b': '\\v', '\f': '\\f', '\b': '\\b', '\u0000': '\\0' };

function escape(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every line kept (newlines and tabs stay); every hidden character escaped. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, escape);
}

/**
 * One line for a title: `visibleText`, with line breaks and tabs written as `\n` and `\t` (never
 * collapsed: `ls\n\ntouch x` must not read as `ls touch x`), cut at `max` characters with `…`.
 */
export function titleLine(text: string, max = 80): string {
  const line = visibleText(text).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  const chars = [...line];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : line;
}

/** How many lines the text has (a trailing line break ends a line, it does not start one). */
export function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

/**
 * Markdown that shows `text` literally: a code span on one line, a fenced block for several. The
 * fence is longer than any run of backticks in the text, so the text cannot end it and write
 * markdown of its own (a link, a heading, "approved").
 */
export function literal(text: string): string {
  const shown = visibleText(text);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  if (!shown.includes('\n')) {
    const ticks = '`'.repeat(longest + 1);
    // A space inside the ticks only where markdown needs one (text that starts or ends with a backtick).
    const pad = /^`|`$/.test(shown) ? ' ' : '';
    return `${ticks}${pad}${shown}${pad}${ticks}`;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `\n${fence}\n${shown}\n${fence}`;
}

/** A fenced block, always (a command, a path, arguments): its text whole, every line. */
export function block(text: string): string {
  const shown = visibleText(text);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${shown}\n${fence}`;
}
