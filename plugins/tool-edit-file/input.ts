/**
 * Cheap input checks: each error names the field. The kernel runs them (with the old field name
 * `path` renamed to `file_path`) before anything else sees the call; `execute` runs them again for
 * callers that skip the kernel.
 */
import { filePathOf } from '../../sdk/file-tool-support/file-fields.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export interface EditFileInput {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

export function checkEditFileInput(input: Record<string, unknown>): Checked<EditFileInput> {
  const filePath = filePathOf(input);
  const { old_string: oldString, new_string: newString, replace_all: replaceAll } = input;
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    return fail(`"file_path" is required and must be a non-empty string: the file to edit, relative to the project root or absolute`);
  }
  if (typeof oldString !== 'string') return fail(`"old_string" is required and must be a string: the exact text to replace; got ${typeName(oldString)}`);
  if (typeof newString !== 'string') return fail(`"new_string" is required and must be a string: the text to put in its place; got ${typeName(newString)}`);
  if (replaceAll !== undefined && replaceAll !== null && typeof replaceAll !== 'boolean') {
    return fail(`"replace_all" must be true or false; got ${JSON.stringify(replaceAll)}`);
  }
  return { ok: true, value: { filePath, oldString, newString, replaceAll: replaceAll === true } };
}

function typeName(value: unknown): string {
  return value === undefined ? 'nothing' : value === null ? 'null' : typeof value;
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
