/** The file a read_file call names (its `path`, or Claude's `file_path`), or undefined when it names none. */
import type { ToolCall } from '../../types/messages.js';

export function readFileTarget(call: ToolCall): string | undefined {
  if (call.name !== 'read_file') return undefined;
  try {
    const input = JSON.parse(call.input) as { path?: unknown; file_path?: unknown };
    return typeof input.path === 'string' ? input.path : typeof input.file_path === 'string' ? input.file_path : undefined;
  } catch {
    return undefined; // not JSON: the tool refused it
  }
}
