/// <reference path="./marked-terminal.d.ts" />
/**
 * Markdown to ANSI for the terminal: `marked` parses, `marked-terminal` renders (headings, lists,
 * tables, links) and highlights code blocks with `cli-highlight`. It strips control characters
 * from the model's text, so a reply cannot smuggle escape sequences onto the user's terminal.
 *
 * Streamed text is rendered again on every delta, so a code block is often still arriving: only
 * a complete (closed) fence is highlighted — a fence cut at ```pyth would be highlighted as a
 * language that does not exist. The highlighter's own messages (an unknown language, its
 * deprecation notes) go to the console, which the terminal UI shows in the conversation: they are
 * silenced while rendering; a block in a language it does not know is shown unhighlighted.
 */
import { terminalSafe } from './terminal-safe.js';
import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

const renderers = new Map<number, Marked>();

function rendererFor(width: number): Marked {
  let marked = renderers.get(width);
  if (!marked) {
    marked = new Marked(markedTerminal({ width, reflowText: true, tab: 2, emoji: false, showSectionPrefix: false }, { ignoreIllegals: true }), {
      renderer: {
        // marked-terminal 7 prints a tight list item's text token raw (`**bold**` stays); render its
        // inline tokens. Leaf text (no tokens) falls back to marked-terminal, which strips control characters.
        text(token) {
          return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
        },
        // Falls through to marked-terminal (false) with the language it may highlight in.
        code(token) {
          if (!closedFence(token.raw)) token.lang = PLAIN;
          return false;
        },
      },
    });
    renderers.set(width, marked);
  }
  return marked;
}

/** highlight.js's name for "no highlighting": cheap, and never an unknown language. */
const PLAIN = 'plaintext';

/** Whether a fenced code block's source ends with its closing fence (``` or ~~~, at least as long). */
export function closedFence(raw: string): boolean {
  const lines = raw.replace(/\n+$/, '').split('\n');
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0] ?? '');
  if (!open || lines.length < 2) return !open && raw.startsWith('    '); // an indented block has no fence to wait for
  const fence = open[1]!;
  const last = (lines.at(-1) ?? '').trim();
  return last.length >= fence.length && last === fence[0]!.repeat(last.length);
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/** Runs `render` with the console silent (it is synchronous: nothing else can log meanwhile). */
function quietly<T>(render: () => T): T {
  const saved = CONSOLE_METHODS.map((method) => console[method]);
  for (const method of CONSOLE_METHODS) console[method] = () => undefined;
  try {
    return render();
  } finally {
    CONSOLE_METHODS.forEach((method, index) => (console[method] = saved[index]!));
  }
}

export function renderMarkdown(text: string, width: number): string {
  try {
    const out = quietly(() => rendererFor(Math.max(20, width)).parse(terminalSafe(text), { async: false }));
    return out.replace(/\n+$/, '');
  } catch {
    return terminalSafe(text); // a renderer failure must never lose the text
  }
}

/** The last `max` lines of a text, with a note of how many are above. */
export function lastLines(text: string, max: number): string {
  const lines = text.split('\n');
  if (lines.length <= max) return text;
  return [`… ${lines.length - max + 1} lines above`, ...lines.slice(-(max - 1))].join('\n');
}
