/**
 * Claude Code's hook vocabulary (as its hooks documentation defines it), and how it maps onto
 * MewCode: event names, the tool names matchers and payloads speak, `tool_input` field names, the
 * matcher syntax and the default timeouts.
 */
export { claudeToolName, toolNameAliases } from '../../sdk/claude-tool-names.js';
// Each built-in tool's input in Claude's field names, and back: one table per tool.
export { claudeToolInput, fromClaudeToolInput, UnknownInputField } from './claude-tool-inputs.js';
import { displayPath, toolPathAbsolute } from '../../sdk/file-tool-support/tool-path.js';
import { LinearRegExp } from '../../sdk/linear-regex/index.js';
export const CLAUDE_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'Notification',
  'PermissionDenied',
  'StopFailure',
  'PostToolBatch',
  'InstructionsLoaded',
  'UserPromptExpansion',
] as const;
export type ClaudeEvent = (typeof CLAUDE_EVENTS)[number];

/**
 * Claude Code's other documented events, which MewCode does not run (it has no such moment, or
 * not yet): a settings file naming one is told so (naming the file and the event), not that the
 * event is unknown, and its handlers are skipped.
 */
export const UNSUPPORTED_EVENTS: readonly string[] = [
  'Setup',
  'MessageDisplay',
  'TaskCreated',
  'TaskCompleted',
  'TeammateIdle',
  'ConfigChange',
  'CwdChanged',
  'DirectoryAdded',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'Elicitation',
  'ElicitationResult',
];

/** The tool events: a matcher names the tool, a handler may have an `if` (Claude Code's rule). */
export const TOOL_EVENTS: ReadonlySet<ClaudeEvent> = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'PermissionDenied']);

/**
 * The events after a call ran (PostToolUse when it succeeded, PostToolUseFailure when it failed,
 * PostToolBatch when every call of a model turn did): they cannot undo it, so exit 2's stderr and
 * `decision: "block"`'s reason go to the model with the tool's result(s), as does `additionalContext`.
 */
export const AFTER_TOOL: ReadonlySet<string> = new Set(['PostToolUse', 'PostToolUseFailure', 'PostToolBatch']);

/**
 * Events that only tell (Claude Code: no decision control, the exit code ignored): what a hook
 * answers decides nothing and adds nothing to the context; only a JSON `systemMessage` is shown.
 */
export const TELL_ONLY: ReadonlySet<string> = new Set(['InstructionsLoaded']);

/** The file tools, whose path Claude calls `file_path`. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['read_file', 'write_file', 'edit_file']);

/** The tools whose `path` names a file or directory a rule may judge (the file tools' older name, glob's and grep's folder). */
const PATH_TOOLS: ReadonlySet<string> = new Set([...FILE_TOOLS, 'glob', 'grep']);

/**
 * `tool_input` for MewCode's own rule files: the file tools' path also under its older name
 * `path`, so a rule written as `field: tool_input.path` (a deny on `.env` writes) still matches.
 * Every path (`file_path`, `path`) is given as the tools resolve it, relative to the project
 * (normalised, no `./`) or absolute when outside it: a glob on `.env` files judges the file,
 * not the spelling, so `./.env`, `src/../.env` or `/project/.env` cannot pass a rule `.env` fails.
 */
export function ownToolInput(tool: string, input: Record<string, unknown>, projectRoot: string, homeDir: string): Record<string, unknown> {
  if (!PATH_TOOLS.has(tool)) return input;
  const out = { ...input };
  const normal = (value: string): string => displayPath(toolPathAbsolute(value, projectRoot, homeDir), projectRoot);
  for (const field of ['file_path', 'path']) if (typeof out[field] === 'string') out[field] = normal(out[field] as string);
  if (FILE_TOOLS.has(tool) && typeof out.file_path === 'string' && !('path' in input)) out.path = out.file_path;
  return out;
}

/**
 * Claude Code's matcher: '' / '*' / absent → all; only letters, digits, `_`, `-`, spaces, `,`
 * and `|` → exact names separated by `|` or `,`; anything else → an unanchored RegExp. A tool
 * matcher is tested against Claude's name and ours, so `Bash` and `bash` both match bash.
 */
export function matches(matcher: string, subjects: readonly string[]): boolean {
  // Events without a matcher subject (UserPromptSubmit, Stop…): Claude Code ignores the matcher.
  if (subjects.length === 0) return true;
  let test = compiled.get(matcher);
  if (!test) {
    test = compileMatcher(matcher);
    compiled.set(matcher, test);
  }
  return subjects.some(test);
}

/** Compiled once per matcher string: a PreToolUse call checks every rule's matcher. */
const compiled = new Map<string, (subject: string) => boolean>();

function compileMatcher(matcher: string): (subject: string) => boolean {
  const trimmed = matcher.trim();
  if (trimmed === '' || trimmed === '*') return () => true;
  if (/^[A-Za-z0-9_\-\s,|]+$/.test(trimmed)) {
    const names = new Set(trimmed.split(/[|,]/).map((name) => name.trim()).filter(Boolean));
    return (subject) => names.has(subject);
  }
  // A project's settings may hold the matcher: linear time, never V8's backtracking (sdk/linear-regex).
  let pattern: LinearRegExp;
  try {
    pattern = new LinearRegExp(trimmed);
  } catch {
    return () => false; // refused when the settings were read (settings.ts)
  }
  return (subject) => pattern.test(subject);
}

/**
 * Events whose exit 2 / decision can block (or, for Stop, send the agent back to work; for
 * PreCompact, stop a compaction the user asked for — an automatic one is only warned about).
 */
export const BLOCKING: ReadonlySet<ClaudeEvent> = new Set(['PreToolUse', 'UserPromptSubmit', 'UserPromptExpansion', 'Stop', 'SubagentStop', 'PreCompact']);

/** Seconds: Claude Code's defaults (600 s; UserPromptSubmit 30 s; SessionEnd a short budget). */
export function defaultTimeoutSec(event: ClaudeEvent): number {
  if (event === 'UserPromptSubmit') return 30;
  if (event === 'SessionEnd') return 5;
  return 600;
}

/** Claude caps every hook output string at 10,000 characters. */
export const MAX_HOOK_TEXT = 10_000;
