/**
 * Text from the model, tools, files, MCP servers and hooks goes to the terminal only through
 * `terminalSafe`: a hostile string must not reach the terminal as a control sequence (OSC 52
 * writes the clipboard, OSC 0 the title, CSI moves the cursor or clears the screen) nor reorder
 * what the user reads (bidi overrides, e.g. in a command shown for approval). Complete escape
 * sequences are removed, as everywhere else (config/terminal-safe.ts); an escape character left
 * over becomes a visible `␛`; other control characters are dropped; tabs become spaces; `\r` (a
 * progress bar's carriage return) starts a new line instead of overwriting the line on screen.
 */
import { ESCAPE_SEQUENCE, UNSAFE_KEEPING_LINES } from '../../../config/terminal-safe.js';

/** The project's one list of sequences and unsafe characters (config/terminal-safe.ts), shown the UI's way. */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(/\u001B/g, '\u241B').replace(UNSAFE_KEEPING_LINES, '');
}
