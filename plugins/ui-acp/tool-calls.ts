/**
 * How a MewCode tool call looks in the editor: an ACP `tool_call` with a title, a kind (which
 * icon and treatment the editor gives it), the files it touches, and once it ended its result,
 * with a diff for a file edit. Built from the call's own input and result, like the terminal UI's
 * view of it.
 */
import os from 'node:os';
import path from 'node:path';
import type { ToolCall as AcpToolCall, ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { ToolCall, ToolResult } from '../../types/messages.js';
import type { Tool } from '../../types/tools.js';
import { expandHome, isWithin } from '../../sdk/path-containment.js';
import { lineCount, titleLine } from './visible-text.js';

/** The built-in tools' kinds; other tools are judged by what they declare (see toolKind). */
const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  bash: 'execute',
  glob: 'search',
  grep: 'search',
  agent: 'think',
  todo_write: 'think',
  web_fetch: 'fetch',
  fetch: 'fetch',
};

export function toolKind(name: string, tool: Pick<Tool, 'readOnly'> | undefined): ToolKind {
  const known = KINDS[name];
  if (known) return known;
  // An MCP or plugin tool: only a declared read-only tool is shown as a read.
  return tool?.readOnly === true && !name.startsWith('mcp__') ? 'read' : 'other';
}

export function parseInput(call: Pick<ToolCall, 'input'>): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.input || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A path the model wrote as the file tools resolve it: relative to the project, `~` for home. */
export function absolutePath(file: string, projectRoot: string, homeDir: string = os.homedir()): string {
  return path.resolve(projectRoot, expandHome(file, homeDir));
}


/**
 * A path as a title shows it: relative inside the project; outside it absolute, or `~/…` in the
 * home (a `../../etc/x` says nothing the editor can open).
 */
function shownPath(file: string, projectRoot: string, homeDir: string = os.homedir()): string {
  const absolute = absolutePath(file, projectRoot, homeDir);
  if (absolute === projectRoot) return file;
  if (isWithin(projectRoot, absolute)) return path.relative(projectRoot, absolute);
  return absolute !== homeDir && isWithin(homeDir, absolute) ? `~/${path.relative(homeDir, absolute)}` : absolute;
}

/**
 * One line whose start neither the model nor an MCP server chooses: what the call does and to
 * what (the file, the command's own first characters), or the tool's real name. A bash call's
 * `description` and an MCP tool's declared title are the caller's words about the call, not the
 * call: they are shown in an approval question, labelled (approval-question.ts), never as its title.
 * Line breaks and invisible characters are shown escaped, a long value cut with `…`.
 */
export function toolTitle(call: Pick<ToolCall, 'name' | 'input'>, projectRoot: string, _tool?: Pick<Tool, 'hints'>, homeDir?: string): string {
  const input = parseInput(call);
  const file = str(input.file_path) ?? str(input.path);
  const shown = file ? titleLine(shownPath(file, projectRoot, homeDir), 100) : undefined;
  switch (call.name) {
    case 'read_file':
      return shown ? `Read ${shown}` : 'Read a file';
    case 'write_file':
      return shown ? `Write ${shown}` : 'Write a file';
    case 'edit_file':
      return shown ? `Edit ${shown}` : 'Edit a file';
    case 'bash': {
      const command = str(input.command);
      if (!command) return 'Run a command';
      const lines = lineCount(command);
      return `Run \`${titleLine(command)}\`${lines > 1 ? ` (${lines} lines)` : ''}`;
    }
    case 'glob':
      return str(input.pattern) ? `Find ${titleLine(String(input.pattern))}` : 'Find files';
    case 'grep':
      return str(input.pattern) ? `Search for ${titleLine(String(input.pattern))}` : 'Search';
    case 'agent':
      return str(input.description) ? `Agent: ${titleLine(String(input.description))}` : 'Run a sub-agent';
    default:
      // An MCP tool's `mcp__server__tool`, a plugin tool's name: what the permission rules name.
      return titleLine(call.name, 100);
  }
}

const LOCATED_BY_PATH: ReadonlySet<string> = new Set(['read_file', 'write_file', 'edit_file', 'grep', 'glob']);

export function toolLocations(call: Pick<ToolCall, 'name' | 'input'>, projectRoot: string, homeDir?: string): ToolCallLocation[] {
  const input = parseInput(call);
  // The file tools name their file; grep and glob the file or folder they search, when they name one.
  const file = str(input.file_path) ?? (LOCATED_BY_PATH.has(call.name) ? str(input.path) : undefined);
  if (!file) return [];
  const location: ToolCallLocation = { path: absolutePath(file, projectRoot, homeDir) };
  if (call.name === 'read_file' && typeof input.offset === 'number' && Number.isInteger(input.offset) && input.offset >= 1) location.line = input.offset;
  return [location];
}

/** The `tool_call` that announces a call (status pending before approval, in_progress once it runs). */
export function announceToolCall(call: ToolCall, status: 'pending' | 'in_progress', context: { projectRoot: string; homeDir?: string; tool: Tool | undefined }): AcpToolCall {
  return {
    toolCallId: call.id,
    title: toolTitle(call, context.projectRoot, context.tool, context.homeDir),
    kind: toolKind(call.name, context.tool),
    status,
    locations: toolLocations(call, context.projectRoot, context.homeDir),
    rawInput: parseInput(call),
  };
}

/** What an edit changed, when the call is one: the whole file when its text before is known, else the replaced part. */
export function editDiff(call: Pick<ToolCall, 'name' | 'input'>, projectRoot: string, before: string | undefined, homeDir?: string): ToolCallContent | undefined {
  const input = parseInput(call);
  const file = str(input.file_path);
  if (!file) return undefined;
  const target = absolutePath(file, projectRoot, homeDir);
  if (call.name === 'write_file' && typeof input.content === 'string') {
    return before === undefined ? { type: 'diff', path: target, newText: input.content } : { type: 'diff', path: target, oldText: before, newText: input.content };
  }
  if (call.name === 'edit_file' && typeof input.old_string === 'string' && typeof input.new_string === 'string') {
    const whole = before !== undefined && input.old_string !== '' ? applyEdit(before, input.old_string, input.new_string, input.replace_all === true) : undefined;
    if (whole !== undefined) return { type: 'diff', path: target, oldText: before!, newText: whole };
    // An empty old_string creates the file.
    return input.old_string === '' && before === undefined ? { type: 'diff', path: target, newText: input.new_string } : { type: 'diff', path: target, oldText: input.old_string, newText: input.new_string };
  }
  return undefined;
}

/** The file after the edit as the tool makes it, or undefined when the text is not found as written (line endings the tool normalised). */
function applyEdit(text: string, oldString: string, newString: string, all: boolean): string | undefined {
  const at = text.indexOf(oldString);
  if (at < 0) return undefined;
  return all ? text.split(oldString).join(newString) : `${text.slice(0, at)}${newString}${text.slice(at + oldString.length)}`;
}

/**
 * The `tool_call_update` that reports how a call ended. Its content replaces what the call showed,
 * so the editor terminals it showed (`shown`) stay first: an editor shows a released terminal's
 * output as long as the call names it.
 */
export function toolResultUpdate(call: ToolCall, result: ToolResult, diff: ToolCallContent | undefined, shown: readonly ToolCallContent[] = []): { toolCallId: string; status: 'completed' | 'failed'; content: ToolCallContent[]; rawOutput: Record<string, unknown> } {
  const failed = result.isError;
  const text: ToolCallContent = { type: 'content', content: { type: 'text', text: result.content } };
  const content = [...shown, ...(!failed && diff ? [diff] : [text])];
  return { toolCallId: call.id, status: failed ? 'failed' : 'completed', content, rawOutput: { content: result.content, isError: failed } };
}
