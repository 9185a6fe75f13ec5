/**
 * What a finished call is to Claude Code's hooks: a failure (PostToolUseFailure, with `error`) or a
 * success (PostToolUse, with `tool_response`). Claude Code's Bash fails on a non-zero exit, so a
 * command that exited non-zero is a failure here too, though MewCode's model reads its output as a
 * normal result (the compiler's errors are what it needs). `tool_response` carries Claude Code's
 * fields for its tools beside MewCode's `output` and `is_error`, so a script reading
 * `.tool_response.stdout` or `.tool_response.filePath` finds them.
 */
import type { PostToolUseContext } from '../../types/hooks.js';
import type { ToolResult } from '../../types/messages.js';

/** The error a failed call reports, or undefined for a call that succeeded. */
export function callFailure(result: ToolResult, context: Pick<PostToolUseContext, 'exitCode'>): string | undefined {
  if (result.isError) return result.content;
  if (context.exitCode !== undefined && context.exitCode !== 0) return `Exit code ${context.exitCode}\n${result.content}`;
  return undefined;
}

/** PostToolUse's `tool_response`: MewCode's fields, and Claude Code's for the tools it has. */
export function toolResponse(tool: string, claudeInput: Record<string, unknown>, result: ToolResult): Record<string, unknown> {
  const ours = { output: result.content, is_error: false };
  // The output as the model reads it: stdout and stderr interleaved, so `stderr` stays empty.
  if (tool === 'bash') return { ...ours, stdout: result.content, stderr: '', interrupted: false, isImage: false };
  if ((tool === 'write_file' || tool === 'edit_file') && typeof claudeInput.file_path === 'string') return { ...ours, filePath: claudeInput.file_path, success: true };
  return ours;
}
