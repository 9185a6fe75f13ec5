/** Cheap input checks (the kernel passes the parsed JSON object as is): each error names the field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export interface EditFileInput {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

export function checkEditFileInput(input: Record<string, unknown>): Checked<EditFileInput> {
  const { file_path: filePath, old_string: oldString, new_string: newString, replace_all: replaceAll } = input;
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    return fail(`"file_path" is required and must be a non-empty string: the file to edit, relative to the project root or absolute.`);
  }
  if (typeof oldString !== 'string') return fail(`"old_string" is required and must be a string: the exact text to replace; got ${typeName(oldString)}.`);
  if (typeof newString !== 'string') return fail(`"new_string" is required and must be a string: the text to put in its place; got ${typeName(newString)}.`);
  if (replaceAll !== undefined && replaceAll !== null && typeof replaceAll !== 'boolean') {
    return fail(`"replace_all" must be true or false; got ${JSON.stringify(replaceAll)}.`);
  }
  return { ok: true, value: { filePath, oldString, newString, replaceAll: replaceAll === true } };
}

function typeName(value: unknown): string {
  return value === undefined ? 'nothing' : value === null ? 'null' : typeof value;
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error: `edit_file: ${error}` };
}
