/**
 * What a finished call is to Claude Code's hooks: a failure (PostToolUseFailure, with `error`) or a
 * success (PostToolUse, with `tool_response`). Claude Code's Bash fails on a non-zero exit, so a
 * command that exited non-zero is a failure here too, though MewCode's model reads its output as a
 * normal result (the compiler's errors are what it needs). `tool_response` carries Claude Code's
 * fields for its tools beside MewCode's `output` and `is_error`, so a script reading
 * `.tool_response.stdout` or `.tool_response.filePath` finds them.
 */
import type { PostToolUseContext } from '../../types/hooks.js';
import type { CommandStreams, ToolResult } from '../../types/messages.js';

/** The error a failed call reports, or undefined for a call that succeeded. */
export function callFailure(result: ToolResult, context: Pick<PostToolUseContext, 'exitCode'>): string | undefined {
  if (result.isError) return result.content;
  if (context.exitCode !== undefined && context.exitCode !== 0) return `Exit code ${context.exitCode}\n${result.content}`;
  return undefined;
}

/**
 * PostToolUse's `tool_response`: MewCode's fields, and Claude Code's for the tools it has, made
 * from the result the model read (the tools return text): never more of a file than that result
 * held, and a fact it does not tell left out rather than guessed.
 */
export function toolResponse(tool: string, claudeInput: Record<string, unknown>, result: ToolResult, durationMs = 0, streams?: CommandStreams): Record<string, unknown> {
  const ours = { output: result.content, is_error: false };
  // The command's own streams, apart (each cut to a cap, the tool's stream-copies.ts). A command
  // an editor's terminal ran has one merged stream: the result without the `exit_code: N` line the
  // model reads first (a hook piping stdout to a JSON parser must get the command's text).
  if (tool === 'bash') return { ...ours, stdout: streams ? withoutLastNewline(streams.stdout) : result.content.replace(EXIT_CODE_LINE, ''), stderr: withoutLastNewline(streams?.stderr ?? ''), interrupted: false, isImage: false };
  if ((tool === 'write_file' || tool === 'edit_file') && typeof claudeInput.file_path === 'string') return { ...ours, filePath: claudeInput.file_path, success: true };
  if (tool === 'read_file' && typeof claudeInput.file_path === 'string') return { ...ours, type: 'text', file: readFileShape(claudeInput.file_path, result.content) };
  if (tool === 'glob') return { ...ours, ...globFiles(result.content), durationMs: Math.round(durationMs) };
  if (tool === 'grep') return { ...ours, ...grepMatches(typeof claudeInput.output_mode === 'string' ? claudeInput.output_mode : 'content', result.content) };
  return ours;
}

/** A stream's last newline, left out as the model's result leaves it out. */
const withoutLastNewline = (text: string): string => text.replace(/\n$/, '');

/** The first line of a bash result (plugins/tool-bash/bash-tool.ts). */
const EXIT_CODE_LINE = /^exit_code: [^\n]*\n?/;

/** read_file's lines are `%6d<TAB>text`; anything else is one of its notes (`[… more lines follow …]`, `[x is empty …]`). */
const NUMBERED = /^ *(\d+)\t(.*)$/;

/** Claude's Read `file`: the lines read, unnumbered; `totalLines` only when the read reached the end. */
function readFileShape(filePath: string, content: string): Record<string, unknown> {
  const lines: string[] = [];
  let startLine: number | undefined;
  let notes = false;
  for (const line of content.split('\n')) {
    const numbered = NUMBERED.exec(line);
    if (numbered) {
      startLine ??= Number(numbered[1]);
      lines.push(numbered[2]!);
    } else notes = true;
  }
  if (startLine === undefined) return { filePath, content: '', numLines: 0, startLine: 1, ...(/ is empty \(0 bytes\)\.\]$/.test(content) ? { totalLines: 0 } : {}) };
  // Without a note the read reached the file's end; a note says more lines follow (or a line was
  // cut), and the file's length is then not known from the result.
  return { filePath, content: lines.join('\n'), numLines: lines.length, startLine, ...(notes ? {} : { totalLines: startLine + lines.length - 1 }) };
}

/** A search tool's note (`[… 3 more …]`, `[search stopped …]`), or the sentence it writes when nothing matched. */
const isNote = (line: string): boolean => line.startsWith('[');
const NOTHING = /^(No files match |No file "|No matches for |"[^"]*" is a directory)/;

/** Claude's Glob: the paths the tool listed; `truncated` when it said the list was cut or incomplete. */
function globFiles(content: string): Record<string, unknown> {
  const lines = content.split('\n');
  if (NOTHING.test(lines[0] ?? '')) return { filenames: [], numFiles: 0, truncated: lines.some((line) => /stopped|could not be read/.test(line) && isNote(line)) };
  const filenames = lines.filter((line) => line !== '' && !isNote(line));
  return { filenames, numFiles: filenames.length, truncated: lines.some(isNote) };
}

/** A content-mode line: `path:line: text` (a match) or `path:line- text` (context). */
const HIT = /^(.*?):(\d+)[:-] /;

/** Claude's Grep: the mode that ran, the files named in the result, and in content and count modes what it showed. */
function grepMatches(mode: string, content: string): Record<string, unknown> {
  const lines = content.split('\n');
  if (NOTHING.test(lines[0] ?? '')) return { mode, filenames: [], numFiles: 0, ...(mode === 'files_with_matches' ? {} : { content: '', numLines: 0 }) };
  const shown = lines.filter((line) => line !== '' && !isNote(line));
  if (mode === 'files_with_matches') return { mode, filenames: shown, numFiles: shown.length };
  if (mode === 'count') {
    const counts = shown.flatMap((line) => {
      const match = /^(.*):(\d+)$/.exec(line);
      return match ? [{ file: match[1]!, count: Number(match[2]) }] : [];
    });
    return { mode, filenames: counts.map((entry) => entry.file), numFiles: counts.length, content: shown.join('\n'), numLines: shown.length, numMatches: counts.reduce((sum, entry) => sum + entry.count, 0) };
  }
  const filenames: string[] = [];
  let numLines = 0;
  for (const line of shown) {
    const hit = HIT.exec(line);
    if (!hit) continue; // a `--` between groups of context
    numLines++;
    if (filenames.at(-1) !== hit[1]) filenames.push(hit[1]!);
  }
  return { mode, filenames, numFiles: filenames.length, content, numLines };
}
