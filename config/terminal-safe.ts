/**
 * The one filter for text on its way to a terminal. Text from a model, a provider, a file, a
 * server, a hook, a skill, a session file or a subprocess must not reach the terminal as a control
 * sequence (OSC 52 writes the clipboard, OSC 0 the title, CSI erases lines or moves the cursor, DCS
 * queries the terminal) nor reorder or hide what the user reads (bidi overrides and isolates,
 * zero-width characters, line separators). Both the 7-bit forms (ESC …) and the 8-bit C1 forms
 * (0x9b CSI, 0x9d OSC, …) are covered.
 *
 * Writers use it at the point of writing (`terminalWriter`, `terminal`), so what they print needs
 * no filtering of its own; the JSON formats escape the same characters (`terminalSafeJson`), so
 * their values stay exact.
 */
export const UNSAFE_TERMINAL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
export const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * A complete ECMA-48 escape sequence: CSI (ESC [ or 0x9b, parameters, intermediates, final byte);
 * a string control (OSC, DCS, SOS, PM, APC: ESC ] P X ^ _ or 0x9d 0x90 0x98 0x9e 0x9f) up to its
 * terminator (BEL, ESC \ or 0x9c); any other ESC sequence (intermediates, final byte). A string's
 * body stops at the next ESC or C1 character, so an unterminated one costs linear time and leaves
 * its text visible (only the introducer goes).
 */
export const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u0080-\u009f]*(?:\u0007|\u001b\\|\u009c)|\u001b[\u0020-\u002f]*[\u0030-\u007e]/g;

/**
 * One-line text (a name, a command, a path): each unsafe character becomes `?`, as `ls` shows
 * them, so two names that differ only there still look different. Quote a name a repository chose
 * this way before putting it in a warning; `mewcode:` lines are written with messageLines
 * (types/notice-line.ts), which indents any later line, for a name that was not.
 *
 * `keepLines` (prose: the model's answer, a message, a hook's output): newlines and tabs stay;
 * complete escape sequences are removed (they carry nothing to read: a colour, a title, a clipboard
 * payload); `\r\n` and a lone `\r` become a newline (a carriage return would let later text
 * overwrite what the user should read); every other unsafe character becomes `?`.
 */
export function terminalSafe(text: string, keepLines = false): string {
  if (!keepLines) return text.replace(UNSAFE_TERMINAL_CHARACTERS, '?');
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(UNSAFE_KEEPING_LINES, '?');
}

/**
 * Prose a definition file gives for a one-line place (a description in a listing, an argument
 * hint): every run of whitespace, line breaks included, becomes one space, then `terminalSafe`. A
 * line break kept would print a line of the file's choosing under MewCode's own.
 */
export function oneLine(text: string): string {
  return terminalSafe(text.replace(/[\s\u0085]+/g, ' ').trim());
}

/**
 * JSON for stdout: `JSON.stringify` escapes C0 controls but leaves C1 controls, bidi controls and
 * line separators raw; they are written as `\uXXXX` too. The parsed value is unchanged, byte for byte.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_TERMINAL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Anything with a `write(text)`: a process stream, a test's collector. */
export interface TextSink {
  write(text: string): unknown;
}

/** Writes through `terminalSafe(…, keepLines)`: what MewCode itself writes has no control characters to lose. */
export function terminalWriter(sink: TextSink): (text: string) => void {
  return (text) => void sink.write(terminalSafe(text, true));
}

/** stdout and stderr as text writers; every `mewcode <subcommand>` and start-up message prints through these. */
export const terminal = {
  out: (text: string): void => void process.stdout.write(terminalSafe(text, true)),
  err: (text: string): void => void process.stderr.write(terminalSafe(text, true)),
};
