/**
 * Cheap input checks: each error names the field. The kernel runs them (with the old field name
 * `path` renamed to `file_path`) before anything else sees the call; `execute` runs them again for
 * callers that skip the kernel.
 */
import { filePathOf } from '../../sdk/file-tool-support/file-fields.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export interface WriteFileInput {
  filePath: string;
  content: string;
}

export function checkWriteFileInput(input: Record<string, unknown>): Checked<WriteFileInput> {
  const { content } = input;
  const filePath = filePathOf(input);
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    return { ok: false, error: '"file_path" is required and must be a non-empty string: the file to write, relative to the project root or absolute' };
  }
  if (typeof content !== 'string') {
    return { ok: false, error: `"content" is required and must be a string (the complete new file content); got ${content === undefined ? 'nothing' : typeof content}` };
  }
  return { ok: true, value: { filePath, content } };
}
