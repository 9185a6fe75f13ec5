/**
 * Text from files, servers and hooks on its way to a terminal: control characters (escape
 * sequences), zero-width and bidirectional controls and line separators are replaced, so nothing
 * a repository or a server wrote can move the cursor, rewrite the screen or reorder what is shown.
 */
export const UNSAFE_TERMINAL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
export const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** `?` for each unsafe character; `keepLines` keeps newlines and tabs (a multi-line notice). */
export function terminalSafe(text: string, keepLines = false): string {
  return text.replace(keepLines ? UNSAFE_KEEPING_LINES : UNSAFE_TERMINAL_CHARACTERS, '?');
}
