/**
 * Text from the model, tools, files, MCP servers and hooks goes to the terminal only through
 * `terminalSafe`: a hostile string must not reach the terminal as a control sequence (OSC 52
 * writes the clipboard, OSC 0 the title, CSI moves the cursor or clears the screen) nor reorder
 * what the user reads (bidi overrides, e.g. in a command shown for approval). Escape characters
 * become a visible `␛`; other control characters are dropped; tabs become spaces; `\r` (a
 * progress bar's carriage return) starts a new line instead of overwriting the line on screen.
 */
// C0 controls except \t and \n, DEL, C1 controls, bidi embeddings/overrides/isolates and marks.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001A\u001C-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(/\u001B/g, '␛').replace(UNSAFE, '');
}
