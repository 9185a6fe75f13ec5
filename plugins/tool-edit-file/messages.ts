/** The texts edit_file returns. Each error says how to fix the call (K1, T4). */

/** At most this many line numbers are listed for multiple matches or replacements. */
const MAX_LISTED_LINES = 10;

export function listLines(lines: number[]): string {
  const shown = lines.slice(0, MAX_LISTED_LINES).join(', ');
  return lines.length > MAX_LISTED_LINES ? `${shown}, … and ${lines.length - MAX_LISTED_LINES} more` : shown;
}

export const messages = {
  identical: () =>
    'edit_file: old_string and new_string are identical, so there is nothing to change. Put the new text in new_string.',
  notFound: (display: string) =>
    `File not found: ${display}. Check the path (glob can find a file by name). To create a new file, use write_file.`,
  directory: (display: string) => `${display} is a directory; edit_file edits one file. Give the path of a file inside it.`,
  notRegular: (display: string) => `${display} is not a regular file; edit_file only edits regular files.`,
  notRead: (display: string) =>
    `Refusing to edit ${display}: it has not been read in this session. Call read_file on ${display} first, then retry edit_file with old_string copied exactly from what you read.`,
  changedSinceRead: (display: string) =>
    `Refusing to edit ${display}: it has changed on disk since you last read it (someone else may have edited it). Call read_file on ${display} again, then retry edit_file with old_string copied from its current content.`,
  textChanged: (display: string) =>
    `Refusing to edit ${display}: its text in the editor has changed since you last read it (the user may have unsaved edits there). Call read_file on ${display} again, then retry edit_file with old_string copied from its current content.`,
  notUtf8: (display: string) =>
    `${display} is not valid UTF-8 text (a binary file or another encoding); edit_file could corrupt it, so nothing was changed. Use bash if you must change it.`,
  tooLarge: (display: string, bytes: number, max: number) =>
    `${display} is too large to edit (${bytes} bytes; edit_file handles up to ${max} bytes). Use bash (e.g. sed) for this file.`,
  emptyOldOnNonEmpty: (display: string) =>
    `edit_file: old_string is empty, but ${display} is not: an empty old_string only creates a new file or fills an empty one. Give the exact text to replace (copied from read_file, without line numbers), or use write_file to replace the whole file.`,
  multiple: (display: string, count: number, lines: number[]) =>
    `old_string occurs ${count} times in ${display} (at lines ${listLines(lines)}), and edit_file replaces exactly one occurrence unless replace_all is true. Include more surrounding lines in old_string so that it matches only the occurrence you mean, or set replace_all: true to change every occurrence.`,
  aborted: (display: string) => `edit_file of ${display} was cancelled before anything was written.`,
  outside: (display: string, real: string) =>
    `Refusing to edit ${display}: ${display === real ? 'it is' : `it resolves to ${real},`} outside the project root and the allowed directories (a symbolic link points there, or was changed during the call). Nothing was changed. edit_file edits inside the project only; additional directories can be allowed in settings: permissions.additional_directories.`,
  raced: (display: string) =>
    `${display} changed during the call (a symbolic link appeared where a file or directory was), so nothing was changed. Call read_file on ${display} again, then retry edit_file.`,
  permission: (display: string) =>
    `Permission denied: ${display} cannot be read or written by this process. Do not retry; ask the user to change its permissions.`,
  failed: (display: string, reason: string) => `Could not edit ${display}: ${reason}. Nothing was changed.`,
};
