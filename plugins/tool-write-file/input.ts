/** Cheap input checks (the kernel passes the parsed JSON object as is): each error names the field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export interface WriteFileInput {
  path: string;
  content: string;
}

export function checkWriteFileInput(input: Record<string, unknown>): Checked<WriteFileInput> {
  const { path, content } = input;
  if (typeof path !== 'string' || path.trim() === '') {
    return { ok: false, error: 'write_file: "path" is required and must be a non-empty string: the file to write, relative to the project root or absolute.' };
  }
  if (typeof content !== 'string') {
    return { ok: false, error: `write_file: "content" is required and must be a string (the complete new file content); got ${content === undefined ? 'nothing' : typeof content}.` };
  }
  return { ok: true, value: { path, content } };
}
