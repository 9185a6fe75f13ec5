/** The file a read_file call names (`file_path`, or its older name `path`), or undefined when it names none. */
import type { ToolCall } from '../../types/messages.js';
import { filePathOf } from '../../sdk/file-tool-support/file-fields.js';

export function readFileTarget(call: ToolCall): string | undefined {
  if (call.name !== 'read_file') return undefined;
  try {
    return filePathOf(JSON.parse(call.input) as Record<string, unknown>);
  } catch {
    return undefined; // not JSON: the tool refused it
  }
}
