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
