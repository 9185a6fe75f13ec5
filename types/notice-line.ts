/**
 * A message for the user on standard error, as every front end without a view of its own says it
 * (headless runs, the programmatic API's `stderr`, an editor that takes no notices, the CLI's own
 * messages).
 *
 * A message quotes names a repository chose (a file, a settings key, a server): one holding a line
 * break must not print a line that poses as MewCode's own (`mewcode: this project is trusted…`).
 * So only the first line carries the `mewcode:` prefix and every later line is indented: `\r`,
 * `\r\n` and `\n` all break a line here (the terminal filter turns a lone `\r` into a newline), and
 * the filter replaces every other control character. Loaders quote such names with
 * `terminalSafe(name)` too, so they stay on their line; this is the guard for any that do not.
 */
import type { NotificationPayload } from './hooks.js';

/** `prefix` + `message` + a newline, each continuation line indented (one already indented is kept). */
export function messageLines(prefix: string, message: string): string {
  return `${prefix}${message.replace(/\r\n?|\n/g, '\n').replace(/\n(?![ \t])/g, '\n  ')}\n`;
}

export function noticeLine(payload: Pick<NotificationPayload, 'kind' | 'message'>): string {
  return messageLines(payload.kind === 'warning' ? 'mewcode: warning: ' : 'mewcode: ', payload.message);
}
