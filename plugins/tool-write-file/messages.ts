/** The texts write_file returns. Each error says what to do next (K1, T3). */
export const messages = {
  directory: (display: string) => `${display} is a directory; write_file writes files. Choose a file path inside it, e.g. ${display}/<name>.`,
  notRegular: (display: string) => `${display} is not a regular file; write_file only writes regular files.`,
  /** The read-first rule (the FileReadTracker decides; see types/file-reads.ts). */
  notRead: (display: string) =>
    `Refusing to overwrite ${display}: it already exists and has not been read in this session. Call read_file on ${display} first to see what you would replace, then call write_file again. To change part of a file, use edit_file instead of rewriting it.`,
  changedSinceRead: (display: string) =>
    `Refusing to overwrite ${display}: it has changed on disk since you last read it (someone else may have edited it). Call read_file on ${display} again and base your new content on what it contains now.`,
  textChanged: (display: string) =>
    `Refusing to overwrite ${display}: its text in the editor has changed since you last read it (the user may have unsaved edits there). Call read_file on ${display} again and base your new content on what it contains now.`,
  aborted: (display: string) => `write_file of ${display} was cancelled before anything was written.`,
  outside: (display: string, real: string) =>
    `Refusing to write ${display}: ${display === real ? 'it is' : `it resolves to ${real},`} outside the project root and the allowed directories (a symbolic link points there, or was changed during the call). Nothing was written. write_file writes inside the project only; additional directories can be allowed in settings: permissions.additional_directories.`,
  raced: (display: string) =>
    `${display} changed during the call (a symbolic link appeared where a file or directory was), so nothing was written. Check the path and call write_file again.`,
};
