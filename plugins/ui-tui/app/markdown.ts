/// <reference path="./marked-terminal.d.ts" />
/**
 * Markdown to ANSI for the terminal: `marked` parses, `marked-terminal` renders (headings, lists,
 * tables, links) and highlights code blocks with `cli-highlight`. It strips control characters
 * from the model's text, so a reply cannot smuggle escape sequences onto the user's terminal.
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
      },
    });
    renderers.set(width, marked);
  }
  return marked;
}

export function renderMarkdown(text: string, width: number): string {
  try {
    const out = rendererFor(Math.max(20, width)).parse(terminalSafe(text), { async: false });
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
