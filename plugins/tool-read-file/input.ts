/**
 * Cheap input checks: each error names the field. The kernel runs them (with the old field name
 * `path` renamed to `file_path`) before anything else sees the call; `execute` runs them again for
 * callers that skip the kernel.
 */
import { filePathOf } from '../../sdk/file-tool-support/file-fields.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ReadFileInput {
  filePath: string;
  offset: number;
  limit: number;
}

export function checkReadFileInput(input: Record<string, unknown>, maxLines: number): Checked<ReadFileInput> {
  const { offset, limit } = input;
  const filePath = filePathOf(input);
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    return fail(`"file_path" is required and must be a non-empty string: the file to read, relative to the project root or absolute`);
  }
  const first = optionalInteger(offset, 'offset', 0, '1 is the first line');
  if (!first.ok) return first;
  const count = optionalInteger(limit, 'limit', 1, `at most ${maxLines}`);
  if (!count.ok) return count;
  return {
    ok: true,
    // offset 0 is read as 1: models often count from 0, and the numbered output shows where they are.
    value: { filePath, offset: Math.max(1, first.value ?? 1), limit: Math.min(maxLines, count.value ?? maxLines) },
  };
}

function optionalInteger(value: unknown, field: string, min: number, hint: string): Checked<number | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    return fail(`"${field}" must be an integer ≥ ${Math.max(1, min)} (${hint}); got ${JSON.stringify(value)}`);
  }
  return { ok: true, value };
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
