/**
 * Bash aliases. Once alias expansion is on, a word at command position that names an alias is
 * replaced by the alias's value before the line is parsed: `alias s=env` then `s rm x` runs
 * `rm x`, though the text shows a program `s`. What turns expansion on has too many spellings to
 * rely on (checked against bash 5.2: `shopt -s expand_aliases` in any grouping, `set -o posix`,
 * `POSIXLY_CORRECT=…`, `bash -i`, `bash --posix`, `bash -O expand_aliases`, and dash, zsh or ksh
 * as `sh`, which always expand), so every alias a command line defines is taken as expanded
 * wherever its name stands at command position — before its definition, or on the same line,
 * too (bash would not expand those: failing closed). index.ts keeps the names and values the line
 * defines (`alias NAME=VALUE`, also through `command`/`builtin`), substitutes them at every call
 * site as bash does — the first word, after prefix assignments, `time [-p]` or `coproc`; an alias
 * of an alias; the next word too when a value ends in a blank; an alias never inside its own
 * expansion — analyses the result as a script, and makes the command opaque.
 *
 * What cannot be followed makes the whole command opaque: an alias whose name is computed
 * (`alias "$n"=…`), any mention of `BASH_ALIASES` (its assignments define aliases in many
 * spellings: `BASH_ALIASES[s]=env`, `declare -A BASH_ALIASES=(…)`, `printf -v`,
 * `${BASH_ALIASES[s]:=env}`), an alias of a reserved word or of a name the grammar reads as a
 * keyword (`if`, `[[`, `declare`, …), and a file sourced where expansion may be on (its aliases
 * are unknown).
 */
import type { Word } from './shell-shapes.js';
import { isShell } from './wrappers.js';

/** Names whose call sites the grammar does not read as a simple command's first word. */
const KEYWORD_NAMES = new Set([
  '!', 'case', 'coproc', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for', 'function', 'if', 'in', 'select', 'then',
  'time', 'until', 'while', '{', '}', '[[', ']]', '[', '((', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset',
  'unsetenv', 'let', 'test',
]);
/** An alias name the analysis can find at a call site: a plain word. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:+@%,-]*$/;

export interface AliasDefinitions {
  /** `alias NAME=VALUE` operands the analysis can follow. */
  defined: [name: string, value: string][];
  /** Why a definition cannot be followed (the whole command is then opaque). */
  unknown?: string;
}

/** The aliases `alias …` (its words, the builtin's name first) defines. */
export function aliasDefinitions(words: readonly Word[]): AliasDefinitions {
  const out: AliasDefinitions = { defined: [] };
  for (const word of words.slice(1)) {
    if (!word.literal) {
      out.unknown = 'an alias whose name or value is computed at run time';
      continue;
    }
    const eq = word.value.indexOf('=');
    if (eq <= 0) continue; // `-p`, `--`, or printing an alias
    const name = word.value.slice(0, eq);
    if (!PLAIN_NAME.test(name) || KEYWORD_NAMES.has(name)) out.unknown = `an alias of ${JSON.stringify(name)}, a name the analysis cannot find where it is used`;
    else out.defined.push([name, word.value.slice(eq + 1)]);
  }
  return out;
}

/** Any mention of the BASH_ALIASES array: through it a line can define aliases of any name. */
export function mentionsAliasTable(text: string): boolean {
  return text.includes('BASH_ALIASES');
}

/**
 * The words of a command whose place is a command position (bash checks them for aliases): the
 * first; after `time [-p] [--]` or `coproc` the next one. Indices into `words`.
 */
export function commandPosition(words: readonly Word[], source: string): number | undefined {
  const first = words[0];
  if (!first) return undefined;
  const typed = (w: Word | undefined): string | undefined => (w && source.slice(w.start, w.end) === w.value ? w.value : undefined);
  const name = typed(first);
  if (name === 'coproc') return words.length > 1 ? 1 : undefined;
  if (name === 'time') {
    let i = 1;
    while (i < words.length && (typed(words[i]) === '-p' || typed(words[i]) === '--')) i++;
    return i < words.length ? i : undefined;
  }
  return 0;
}

/** Most variants of one call site analysed (a name defined with several values, chains of them). */
const MAX_VARIANTS = 16;

/**
 * The sources a command may run once its aliases are substituted (`source` is the script the
 * words are in, `end` where the command ends; one per combination of the values a name was given),
 * or none when no word at command position is an unquoted alias name not in `expanding` (the
 * aliases whose values are being read). `used` gets the names substituted.
 */
export function substituteAliases(
  words: readonly Word[],
  source: string,
  end: number,
  aliases: ReadonlyMap<string, readonly string[]>,
  expanding: ReadonlySet<string>,
  used: Set<string>,
): string[] {
  const at = commandPosition(words, source);
  if (at === undefined) return [];
  const out: string[] = [];
  // Each variant: the text so far, and where in `source` the rest starts.
  const extend = (i: number, text: string, from: number): void => {
    if (out.length >= MAX_VARIANTS) return;
    const word = words[i];
    // Only an unquoted name is an alias (`\s`, `"s"`, `s\ x` are not).
    const values = word && source.slice(word.start, word.end) === word.value && !expanding.has(word.value) ? aliases.get(word.value) : undefined;
    if (!word || !values) {
      if (from !== words[0]!.start) out.push(text + source.slice(from, end));
      return;
    }
    used.add(word.value);
    for (const value of values) {
      const next = text + source.slice(from, word.start) + value;
      // A value ending in a blank makes bash check the next word for an alias too.
      if (/[ \t]$/.test(value)) extend(i + 1, next, word.end);
      else if (out.length < MAX_VARIANTS) out.push(next + source.slice(word.end, end));
    }
  };
  extend(at, '', words[0]!.start);
  return out;
}

/**
 * A command that turns alias expansion on (or runs a shell that has it on): then a file it sources
 * may define aliases the analysis cannot see.
 */
export function enablesAliases(argv: readonly string[], assignments: readonly string[]): boolean {
  if (assignments.some((a) => a.startsWith('POSIXLY_CORRECT=')) || argv.some((a) => a.startsWith('POSIXLY_CORRECT='))) return true;
  const name = argv[0]?.slice(argv[0].lastIndexOf('/') + 1);
  if (name === undefined) return false;
  if (name === 'shopt') return argv.includes('expand_aliases');
  if (name === 'set') return argv.includes('posix') || argv.includes('--posix');
  if (!isShell(name)) return false;
  if (!/^(?:bash|rbash)(?:-?[0-9][0-9.]*)?$/.test(name)) return true; // dash, zsh, ksh… expand aliases when not interactive
  return argv.slice(1).some((a) => a === '--posix' || a === 'posix' || a === 'expand_aliases' || /^-[A-Za-z]*i/.test(a));
}
