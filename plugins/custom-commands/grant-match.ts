/**
 * Which calls a command's `allowed-tools` entries pre-approve, read as Claude Code reads them as
 * allow rules (`Read`, `Bash(git diff:*)`, `Edit(./docs/**)`, `mcp__github`), and always on the
 * narrow side: what cannot be matched with certainty is not pre-approved (it is asked about as it
 * would be without the command).
 *
 * - A bare name covers every call of that tool (`Edit` also covers write_file, as Claude Code's
 *   `Edit` covers every editing tool); `mcp__server` / `mcp__server__*` every tool of a server.
 * - `Bash(…)`: the command line is parsed (sdk/shell-command) and every command it runs must
 *   match one of the entries; a line the parser cannot see through (a parse error, an opaque
 *   construct, a function, a hidden command, a computed command name), a command after a `cd`,
 *   with leading assignments or with a redirection that writes somewhere is not pre-approved.
 *   `*` is any text; a trailing `:*` or ` *` is a prefix on a word boundary.
 * - A path (`Read(…)`, `Edit(…)`, `Write(…)`): the call's real path (links followed) must match:
 *   `//x` absolute, `~/x` home, `/x` and `./x` or `x` from the project root; a trailing `/` is
 *   everything below.
 * - A named call (the tool's target names one thing: `Agent(Explore)` the sub-agent type,
 *   `Skill(commit)` the skill, `Skill(review-pr *)` with any arguments): that name, without
 *   regard to case, as the permission rules match it.
 * - Any other argument (`WebFetch(domain:…)`) pre-approves nothing.
 */
import path from 'node:path';
import { fromClaudeToolName, mcpServerPrefix } from '../../sdk/claude-tool-names.js';
import type { ShellSegment } from '../../sdk/shell-command/index.js';
import { loadOnce } from '../../sdk/load-once.js';
import { LinearRegExp } from '../../sdk/linear-regex/index.js';
import { globMatcher } from '../../sdk/linear-regex/picomatch.js';
import { expandHome, resolveRealSync } from '../../sdk/path-containment.js';
import type { PermissionTarget, ToolInput } from '../../types/tools.js';

// The shell analysis (≈ 100 KB of code) is loaded when a command's `Bash(…)` entry is first
// matched, not at start-up: most runs never use a command's allowed-tools.
const loadShellCommand = loadOnce(() => import('../../sdk/shell-command/index.js'));

export interface GrantCall {
  toolName: string;
  input: ToolInput;
  /** The tool's own permission target for this input (undefined: it names none). */
  target: PermissionTarget | undefined;
  projectRoot: string;
  homeDir: string;
}

/** Claude Code's names for the editing tools: an `Edit` rule covers every one of them. */
const EDITING_NAMES = new Set(['Edit', 'MultiEdit', 'NotebookEdit']);
const EDITING_TOOLS = new Set(['edit_file', 'write_file']);
/** Tools whose target is a path, so a path argument can be matched. */
const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'glob', 'grep']);

/** The registered tools an entry's name covers. */
function namesTool(name: string, toolName: string): boolean {
  const server = mcpServerPrefix(name);
  if (server !== undefined) return toolName.startsWith(server);
  if (EDITING_NAMES.has(name)) return EDITING_TOOLS.has(toolName);
  return fromClaudeToolName(name) === toolName;
}

function splitEntry(entry: string): { name: string; argument: string | undefined } | undefined {
  const match = /^([^()]+?)\s*(?:\((.*)\))?$/s.exec(entry.trim());
  if (!match) return undefined;
  const argument = match[2]?.trim();
  return { name: match[1]!.trim(), argument: argument === '' || argument === '*' ? undefined : argument };
}

/** A `Bash(…)` pattern as an anchored test: `*` any text, `\` escapes, trailing `:*`/` *` a word-boundary prefix. */
export function commandPattern(pattern: string): (command: string) => boolean {
  let body = pattern;
  let tail = '';
  if (/(^|[^\\]):\*$/.test(body) || (/(^|[^\\]) \*$/.test(body) && body.trim() !== '*')) {
    body = body.slice(0, -2);
    tail = '(?:\\s[\\s\\S]*)?';
  }
  let source = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\\' && i + 1 < body.length) source += escapeRegExp(body[++i]!);
    else source += char === '*' ? '[\\s\\S]*' : escapeRegExp(char);
  }
  const regex = new LinearRegExp(`^${source}${tail}$`, '');
  return (command) => regex.test(command);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A redirection that writes nothing anywhere new: input, a descriptor copy, /dev/null. */
function harmlessRedirect({ op, target }: { op: string; target: string }): boolean {
  if (op.startsWith('<') && op !== '<>') return true;
  if (op === '>&' && /^(\d+|-)$/.test(target)) return true;
  return target === '/dev/null';
}

function segmentPlain(segment: ShellSegment): boolean {
  return (
    segment.unknownCommands === undefined &&
    segment.inlineCode === undefined &&
    segment.dirs === undefined &&
    segment.assignments.length === 0 &&
    segment.argv.length > 0 &&
    !/[$`]/.test(segment.argv[0]!) &&
    segment.redirects.every(harmlessRedirect)
  );
}

/** Whether every command of this command line matches one of the patterns. */
async function commandCovered(tests: readonly ((command: string) => boolean)[], command: string): Promise<boolean> {
  if (tests.length === 0 || command.trim() === '') return false;
  let parsed;
  try {
    parsed = await (await loadShellCommand()).parseShellCommand(command);
  } catch {
    return false;
  }
  if (parsed.parseError !== undefined || parsed.opaque !== undefined || parsed.hasFunctionDefinition || parsed.segments.length === 0) return false;
  return parsed.segments.every((segment) => segmentPlain(segment) && tests.some((test) => test(segment.textWithoutRedirects ?? segment.text)));
}

/** A path argument resolved as Claude Code resolves a rule given on the command line (see the file comment). */
function pathPattern(argument: string, projectRoot: string, homeDir: string): string {
  const real = (dir: string): string => {
    try {
      return resolveRealSync(dir);
    } catch {
      return path.resolve(dir);
    }
  };
  let absolute: string;
  if (argument.startsWith('//')) absolute = argument.slice(1);
  else if (argument === '~' || argument.startsWith('~/')) absolute = path.join(real(homeDir), argument.slice(1));
  else absolute = path.join(real(projectRoot), argument.replace(/^\.\//, ''));
  return argument.endsWith('/') ? `${absolute.replace(/\/+$/, '')}/**` : absolute;
}

function realTarget(target: PermissionTarget | undefined, projectRoot: string, homeDir: string): string | undefined {
  if (target?.kind !== 'path' || target.path === '') return undefined;
  try {
    return resolveRealSync(path.resolve(projectRoot, expandHome(target.path, homeDir)));
  } catch {
    return undefined;
  }
}

/** What a named target is matched against: its name, its aliases, then `name detail`. */
function namedSubjects(target: Extract<PermissionTarget, { kind: 'named' }>): string[] {
  const names = [target.name, ...(target.aliases ?? [])];
  const detail = target.detail?.trim() ?? '';
  return (detail === '' ? names : [...names, `${target.name} ${detail}`]).map((name) => name.toLowerCase());
}

/** The entries of one command file, compiled once. */
export class GrantSet {
  readonly #whole: string[] = [];
  readonly #commands: ((command: string) => boolean)[] = [];
  readonly #paths: { name: string; argument: string }[] = [];

  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const parts = splitEntry(entry);
      if (!parts) continue;
      if (parts.argument === undefined) this.#whole.push(parts.name);
      else if (fromClaudeToolName(parts.name) === 'bash') {
        try {
          this.#commands.push(commandPattern(parts.argument));
        } catch {
          // A pattern the linear engine cannot run pre-approves nothing.
        }
      } else this.#paths.push({ name: parts.name, argument: parts.argument });
    }
  }

  get empty(): boolean {
    return this.#whole.length === 0 && this.#commands.length === 0 && this.#paths.length === 0;
  }

  #coversNamed(toolName: string, target: Extract<PermissionTarget, { kind: 'named' }>): boolean {
    const subjects = namedSubjects(target);
    return this.#paths.some(({ name, argument }) => {
      if (!namesTool(name, toolName)) return false;
      try {
        const test = commandPattern(argument.toLowerCase());
        return subjects.some(test);
      } catch {
        return false;
      }
    });
  }

  async covers(call: GrantCall): Promise<boolean> {
    if (this.#whole.some((name) => namesTool(name, call.toolName))) return true;
    if (call.toolName === 'bash') {
      const command = call.target?.kind === 'command' ? call.target.command : typeof call.input.command === 'string' ? call.input.command : '';
      return commandCovered(this.#commands, command);
    }
    if (call.target?.kind === 'named') return this.#coversNamed(call.toolName, call.target);
    if (!PATH_TOOLS.has(call.toolName)) return false;
    const real = realTarget(call.target, call.projectRoot, call.homeDir);
    if (real === undefined) return false;
    return this.#paths.some(({ name, argument }) => {
      if (!namesTool(name, call.toolName) && !(name === 'Read' && (call.toolName === 'glob' || call.toolName === 'grep'))) return false;
      try {
        return globMatcher(pathPattern(argument, call.projectRoot, call.homeDir), { dot: true })(real);
      } catch {
        return false;
      }
    });
  }
}
