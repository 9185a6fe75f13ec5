/** Streamed assistant text is committed to the scrollback a paragraph at a time. */

/**
 * Where streamed text can be cut so the finished part goes to the scrollback: after the last
 * blank line that follows some text and is outside a code fence. 0 when there is none yet.
 */
export function committablePrefix(text: string): number {
  let inFence = false;
  let cut = 0;
  let offset = 0;
  let content = false; // a blank line cuts only after some text
  for (const line of text.split('\n')) {
    const end = offset + line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && end <= text.length && content) cut = end;
    if (line.trim() !== '') content = true;
    offset = end;
  }
  return cut;
}

/**
 * Streamed text that stays live past this size (one huge paragraph or code block) is committed
 * at its last line anyway: the live text is re-rendered on every delta, so it must stay small.
 */
export const MAX_LIVE_CHARS = 4000;

/** The fence line (```ts) a text ends inside of, or undefined when it is outside any fence. */
export function openFence(text: string): string | undefined {
  let fence: string | undefined;
  for (const line of text.split('\n')) if (/^\s*(```|~~~)/.test(line)) fence = fence === undefined ? line.trim() : undefined;
  return fence;
}

/**
 * Split streamed text into what goes to the scrollback now and what stays live. Paragraphs are
 * cut at blank lines outside code fences; past MAX_LIVE_CHARS the text is cut at its last line,
 * a code fence closed in the finished part and opened again in the live one.
 */
export function splitStream(text: string): { done: string; live: string } {
  const cut = committablePrefix(text);
  let done = text.slice(0, cut);
  let live = text.slice(cut);
  const lastLine = live.lastIndexOf('\n');
  if (live.length > MAX_LIVE_CHARS && lastLine > 0) {
    const head = live.slice(0, lastLine + 1);
    const fence = openFence(head);
    done += fence ? `${head}${fence.startsWith('~') ? '~~~' : '```'}\n` : head;
    live = fence ? `${fence}\n${live.slice(lastLine + 1)}` : live.slice(lastLine + 1);
  }
  return { done, live };
}
