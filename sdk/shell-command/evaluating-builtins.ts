/**
 * Builtins and shell variables through which bash evaluates a string as code, beyond `eval`,
 * `trap`, `alias` and arithmetic (index.ts): each was checked against bash 5.
 * - A prompt string: PS4 is expanded (command substitution included) before each line `set -x`
 *   traces, PS0/PS1/PS2 and PROMPT_COMMAND in an interactive shell. Setting one — an assignment,
 *   a prefix assignment, `declare`/`export` operands, `env`, or a builtin assigning a named
 *   variable (`read PS4`, `printf -v PS4`) — is opaque.
 * - An exported function in the environment (`env 'BASH_FUNC_x%%=() { …; }' bash -c x`): a child
 *   bash defines and may run it. Its body is parsed as a function definition.
 * - `mapfile`/`readarray -C callback` evaluates the callback for every chunk of lines;
 *   `compgen`/`complete -C command` runs the command, `-W wordlist` expands the list (`$(…)`
 *   included), `-F function` calls a function: the callback and command are parsed as scripts.
 * - `declare`/`typeset`/`local` with a quoted operand holding a subscript (`'a[$(cmd)]=1'`,
 *   evaluated as arithmetic) or a compound array (`'a=([$(cmd)]=1)'`, whose words bash expands):
 *   the quotes hide them from the grammar, not from bash.
 * - `bind -x` binds a key to a command; `enable -f` loads a builtin from a shared object (its
 *   code runs as it loads: nothing shows what it does).
 */
import { readOptions } from './getopt.js';
import type { Word } from './shell-shapes.js';

/** Variables bash expands as prompts (with command substitution) or runs as a command. */
const PROMPT_VARIABLES = new Set(['PS0', 'PS1', 'PS2', 'PS4', 'PROMPT_COMMAND']);
/** Builtins whose operands are assignments (`declare 'PS4=…'` sets PS4). */
export const DECLARING_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
/** Builtins that assign a variable named by an operand. */
const ASSIGNING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'printf', 'getopts', 'wait', ...DECLARING_BUILTINS]);

export interface EvaluatedStrings {
  /** Why the command is opaque; empty when nothing here applies. */
  opaque: string[];
  /** Shell source the command evaluates (callbacks, exported functions). */
  scripts: string[];
  /** Code runs that nothing shows (see ShellSegment.unknownCommands). */
  unknown?: string;
}

/** What an assignment `NAME=value` (a prefix assignment, an `env` or `declare` operand) makes bash evaluate. */
export function evaluatedAssignment(assignment: string, into: EvaluatedStrings): void {
  const match = /^([^=[]+?)(\[[^\]]*\])?\+?=([\s\S]*)$/.exec(assignment);
  if (!match) return;
  const name = match[1]!;
  if (PROMPT_VARIABLES.has(name)) into.opaque.push(`${name} is evaluated as a prompt (set -x, interactive shells)`);
  if (name === 'PROMPT_COMMAND') into.scripts.push(match[3]!);
  if (name.startsWith('BASH_FUNC_')) {
    into.opaque.push('an exported function in the environment (BASH_FUNC_…)');
    const fn = name.slice('BASH_FUNC_'.length).replace(/%%$|\(\)$/, '').replace(/[^A-Za-z0-9_]/g, '_') || 'f';
    into.scripts.push(`${fn} ${match[3]!}`);
  }
}

/** What the builtin `name` (the words after it in `args`) makes bash evaluate. */
export function evaluatedByBuiltin(name: string, words: readonly Word[]): EvaluatedStrings {
  const into: EvaluatedStrings = { opaque: [], scripts: [] };
  const args = words.slice(1);
  if (ASSIGNING_BUILTINS.has(name) && args.some((w) => PROMPT_VARIABLES.has(w.value))) into.opaque.push(`${name} assigns a prompt variable bash evaluates`);
  if (DECLARING_BUILTINS.has(name) || name === 'env') {
    for (const w of args) if (!w.value.startsWith('-')) evaluatedAssignment(w.value, into);
  }
  if (name === 'declare' || name === 'typeset' || name === 'local') {
    for (const w of args) {
      if (w.value.startsWith('-') || w.value.startsWith('+')) continue;
      const left = w.value.split('=')[0]!;
      const subscript = /\[([^\]]*)\]/.exec(left)?.[1];
      if ((subscript !== undefined && !/^\s*\d+\s*$/.test(subscript)) || /^[^=]*\+?=\(/.test(w.value)) {
        into.opaque.push(`${name} with a subscripted or compound-array operand (evaluated)`);
      }
    }
  }
  if (name === 'mapfile' || name === 'readarray') {
    const read = readOptions(words, 1, { short: 'd:n:O:s:tu:C:c:' });
    for (const option of read.options) {
      if (option.name === 'C' && option.value) {
        into.opaque.push(`${name} -C evaluates its callback`);
        into.scripts.push(option.value.value);
      }
    }
    if (read.problems.length > 0) into.opaque.push(`${name} with options the analysis does not know`);
  }
  if (name === 'compgen' || name === 'complete') {
    const read = readOptions(words, 1, { short: 'abcdefgjksuvpDEIro:A:G:W:F:C:X:P:S:' });
    for (const option of read.options) {
      if (option.name === 'C' && option.value) {
        into.opaque.push(`${name} -C runs a command`);
        into.scripts.push(option.value.value);
      } else if (option.name === 'W') into.opaque.push(`${name} -W expands its word list`);
      else if (option.name === 'F') into.opaque.push(`${name} -F calls a function`);
    }
    if (read.problems.length > 0) into.opaque.push(`${name} with options the analysis does not know`);
  }
  if (name === 'bind' && args.some((w) => /^-[A-Za-z]*x/.test(w.value))) into.opaque.push('bind -x binds a command');
  if (name === 'enable' && args.some((w) => /^-[A-Za-z]*f/.test(w.value))) {
    into.opaque.push('enable -f loads a builtin from a shared object');
    into.unknown = 'enable -f loads code from a shared object';
  }
  return into;
}
