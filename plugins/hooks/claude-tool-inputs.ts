/**
 * A built-in tool's input as Claude Code's hooks read it, and back: one table per tool that a
 * Claude Code hook matches under Claude's name (sdk/claude-tool-names.ts). A Claude Code script
 * reads `.tool_input.skill`, `.tool_input["-i"]`, `.tool_input.subagent_type == "Explore"`; given
 * MewCode's names it would read null and a guard would fail open. So the payload carries Claude's
 * field names and value shapes, with MewCode's own fields kept beside them (MewCode-aware
 * scripts read those), and an `updatedInput` comes back in MewCode's names. A field of a rewrite
 * that neither MewCode's tool nor Claude's knows is refused: dropping it would run a call the
 * hook did not ask for (`run_in_background: true` run in the foreground, say).
 *
 * The payloads of PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure,
 * PermissionDenied, PostToolBatch and the Claude-shaped transcript's tool_use blocks all come
 * from `claudeToolInput`.
 */
import path from 'node:path';
import { toolPathAbsolute } from '../../sdk/file-tool-support/tool-path.js';
import { claudeAgentType } from '../../types/subagents.js';

/** Where relative paths are resolved (Claude Code gives paths absolute). */
interface Where {
  projectRoot: string;
  homeDir?: string;
}

/** One value of a tool's input, as Claude names it. */
interface Field {
  /** Claude Code's name. */
  claude: string;
  /** MewCode's names for the same value, when they differ (the first the call carries is read, and a rewrite goes back under it). */
  ours?: readonly string[];
  /** Claude's shape of MewCode's value (a path absolute, a sub-agent type as Claude spells it). */
  toClaude?: (value: unknown, where: Where) => unknown;
  /** Claude's value when the call gave none, where Claude requires one or its default is not MewCode's. */
  absent?: unknown;
}

interface ToolTable {
  fields: readonly Field[];
  /** MewCode's fields Claude's tool has not: kept in the payload, taken back from a rewrite. */
  ownOnly?: readonly string[];
  /** Claude's fields MewCode's tool has not, with the one value that asks nothing of it (taken back as nothing; any other value is refused). */
  claudeOnly?: Readonly<Record<string, unknown>>;
}

const absolute = (value: unknown, where: Where): unknown => {
  if (typeof value !== 'string') return value;
  return where.homeDir === undefined ? path.resolve(where.projectRoot, value) : toolPathAbsolute(value, where.projectRoot, where.homeDir);
};

const same = (name: string): Field => ({ claude: name });

/** The file tools' path: `file_path`, or the older `path` a stored call or another implementation may carry. */
const FILE_PATH: Field = { claude: 'file_path', ours: ['file_path', 'path'], toClaude: absolute };

/** Claude's TodoWrite items always have `activeForm`; MewCode's may leave it out (the step itself is then shown). */
function claudeTodos(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const todo = item as Record<string, unknown>;
    return 'activeForm' in todo || typeof todo.content !== 'string' ? todo : { content: todo.content, status: todo.status, activeForm: todo.content, ...todo };
  });
}

/** MewCode's tool name → how its input reads to Claude Code's hooks. */
const TABLES: Readonly<Record<string, ToolTable>> = {
  bash: {
    fields: [same('command'), same('description'), same('timeout')],
    ownOnly: ['workdir'],
    // MewCode's bash runs no call in the background (`cmd &` does) and has no sandbox switch for the model.
    claudeOnly: { run_in_background: false, dangerouslyDisableSandbox: false },
  },
  read_file: { fields: [FILE_PATH, same('offset'), same('limit')] },
  write_file: { fields: [FILE_PATH, same('content')] },
  edit_file: { fields: [FILE_PATH, same('old_string'), same('new_string'), same('replace_all')] },
  glob: { fields: [same('pattern'), { claude: 'path', toClaude: absolute }] },
  grep: {
    fields: [
      same('pattern'),
      { claude: 'path', toClaude: absolute },
      same('glob'),
      same('type'),
      // Claude's default is files_with_matches, MewCode's content: the mode that runs is said.
      { claude: 'output_mode', absent: 'content' },
      { claude: '-i', ours: ['case_insensitive'] },
      { claude: '-C', ours: ['context'] },
      { claude: '-B', ours: ['before'] },
      { claude: '-A', ours: ['after'] },
      same('-n'),
      same('offset'),
      same('head_limit'),
      same('multiline'),
    ],
  },
  todo_write: { fields: [{ claude: 'todos', toClaude: claudeTodos }] },
  agent: {
    fields: [
      same('description'),
      same('prompt'),
      // Claude requires the type; MewCode's default is its general-purpose.
      { claude: 'subagent_type', toClaude: (value) => (typeof value === 'string' ? claudeAgentType(value) : value), absent: 'general-purpose' },
      same('run_in_background'),
    ],
  },
  load_skill: { fields: [{ claude: 'skill', ours: ['name'] }, { claude: 'args', ours: ['arguments'] }] },
};

/** Every name a field may be under in an input: MewCode's, then Claude's. */
const namesOf = (field: Field): string[] => [...new Set([...(field.ours ?? []), field.claude])];

/** The call's input as Claude Code gives it: Claude's fields, MewCode's kept beside them. */
export function claudeToolInput(tool: string, input: Record<string, unknown>, projectRoot: string, homeDir?: string): Record<string, unknown> {
  const table = Object.hasOwn(TABLES, tool) ? TABLES[tool]! : undefined;
  if (!table) return input;
  const where: Where = homeDir === undefined ? { projectRoot } : { projectRoot, homeDir };
  const out: Record<string, unknown> = { ...input };
  for (const field of table.fields) {
    const source = namesOf(field).find((name) => name in input);
    if (source !== undefined) out[field.claude] = field.toClaude ? field.toClaude(input[source], where) : input[source];
    else if (field.absent !== undefined) out[field.claude] = field.absent;
  }
  return out;
}

/** A rewrite MewCode cannot carry out as asked: the call is refused, the message names the field. */
export class UnknownInputField extends Error {}

/**
 * A hook's `updatedInput` (Claude's names, MewCode's, or both as given) in the call's own names.
 * Claude's field changed from what the hook was given wins; else MewCode's name as the hook left
 * it; a Claude field copied back unchanged restores the call's own value (its relative path, its
 * spelling of the type); a field the hook left out is left out. Throws UnknownInputField for a
 * field neither tool knows, or a Claude-only one asking for something MewCode's tool cannot do.
 */
export function fromClaudeToolInput(tool: string, updated: Record<string, unknown>, original: Record<string, unknown>, projectRoot: string, homeDir?: string): Record<string, unknown> {
  const table = Object.hasOwn(TABLES, tool) ? TABLES[tool]! : undefined;
  if (!table) return updated;
  const shown = claudeToolInput(tool, original, projectRoot, homeDir);
  const out: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const field of table.fields) {
    const names = namesOf(field);
    for (const name of names) known.add(name);
    const own = names.find((name) => name in original);
    const target = own ?? names[0]!;
    const mewcodeName = names.find((name) => name !== field.claude && name in updated);
    if (field.claude in updated && !equal(updated[field.claude], shown[field.claude])) out[target] = updated[field.claude];
    else if (mewcodeName !== undefined) out[target] = updated[mewcodeName];
    else if (field.claude in updated && own !== undefined) out[target] = original[own];
  }
  for (const [name, value] of Object.entries(updated)) {
    if (known.has(name)) continue;
    if (table.ownOnly?.includes(name)) out[name] = value;
    else if (table.claudeOnly && Object.hasOwn(table.claudeOnly, name)) {
      if (!equal(value, table.claudeOnly[name])) throw new UnknownInputField(`its updatedInput sets "${name}" to ${JSON.stringify(value)}, which MewCode's ${tool} cannot do`);
    } else {
      const fields = [...known, ...(table.ownOnly ?? [])].join(', ');
      throw new UnknownInputField(`its updatedInput has a field MewCode's ${tool} does not take: "${name}" (the fields are: ${fields})`);
    }
  }
  return out;
}

/** Structural equality of JSON values (a script may re-serialise what it was given). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
