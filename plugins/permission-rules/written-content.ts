/**
 * The text a file tool's call would leave in its file, for the checks that judge a file by what it
 * holds (protected-paths.ts, protectedContent): write_file's `content`; edit_file's result, the
 * file as it is now with the replacement made. Undefined when it cannot be known (another tool,
 * a file too large or unreadable while an edit needs it): the caller then counts the write.
 */
import { constants, openSync } from 'node:fs';
import { readSmallFileFd } from '../../types/small-file.js';


export function writtenContent(toolName: string, input: unknown, absolute: string): string | undefined {
  const fields = (input ?? {}) as Record<string, unknown>;
  if (toolName === 'write_file') return typeof fields.content === 'string' ? fields.content : undefined;
  if (toolName !== 'edit_file') return undefined;
  const { old_string: oldString, new_string: newString, replace_all: replaceAll } = fields;
  if (typeof oldString !== 'string' || typeof newString !== 'string') return undefined;
  const current = readCurrent(absolute);
  if (current === 'missing') return newString; // an empty old_string makes a new file
  if (current === undefined) return undefined;
  if (oldString === '') return `${current}\n${newString}`;
  // edit_file matches `\n` in old_string against `\r\n` in a CRLF file, and writes the new text the same way.
  for (const [from, to] of [[oldString, newString], [oldString.replace(/\r?\n/g, '\r\n'), newString.replace(/\r?\n/g, '\r\n')]] as const) {
    if (from !== '' && current.includes(from)) return replaceAll === true ? current.split(from).join(to) : current.replace(from, () => to);
  }
  // No exact match (the tool will refuse, or match more loosely): the new text beside the old errs wide.
  return `${current}\n${newString}`;
}

function readCurrent(absolute: string): string | 'missing' | undefined {
  try {
    // Non-blocking, a regular file only: a FIFO planted where a tool writes must not hold the check (the main thread).
    // readSmallFileFd refuses what is not a regular file or is larger than its cap (the write then counts).
    return readSmallFileFd(openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK), absolute);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined;
  }
}
