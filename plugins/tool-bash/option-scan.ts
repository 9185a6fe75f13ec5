/**
 * Whether a program's arguments hold an option that writes or runs a program, read the way the
 * program itself reads them (GNU getopt_long, Rust's argument parsers, git's parse-options, tree's
 * own loop) by the sdk's option reader (sdk/shell-command/getopt.ts). The tables of
 * reader-programs.ts and git-readers.ts are written in the format below and translated once, where
 * they are defined, into the reader's syntax; this file adds which options write.
 *
 * Fail safe: an option the table does not know, an abbreviation that could stand for more than
 * one, a missing value or a value given to an option that takes none, is treated like a writing
 * one (the caller then runs the command alone, in the model's order). A table need not list every
 * option of its program: a missing one only costs parallelism. A long option is taken to consume
 * the next word only when its name says so (a trailing `=`): reading that word as an option or
 * operand instead can only find more to object to, never less.
 */
import { readOptions, type OptionSyntax } from '../../sdk/shell-command/getopt.js';

/** A program's options as the tables here write them. */
export interface OptionTableSpec {
  /** Short options without a value, e.g. `'bdfgi'`. */
  flags?: string;
  /** Short options with a value: the rest of the word, or else the next word (`-k1`, `-k 1`). */
  valued?: string;
  /** Short options whose value, if any, is only the rest of the word (`-I[FMT]`, git's `-U5`). */
  attached?: string;
  /**
   * Long option names, space-separated. A trailing `=` marks a name whose value may be the next
   * word (`--key 1`); the others take a value only as `--name=value`.
   */
  long?: string;
  /** Options that write or run a program: single letters and long names, space-separated. */
  writes?: string;
  /** getopt_long and git's parse-options: an unambiguous prefix of a long name stands for it. */
  abbreviations?: boolean;
  /** `--no-NAME` turns NAME off (git's parse-options). */
  negation?: boolean;
  /** Options end at the first operand (getopt with `+`: wrappers such as `env`, `time`, `xargs`); otherwise they may follow operands. */
  optionsEndAtOperand?: boolean;
  /** tree: each valued letter of a cluster takes the next word, and the cluster goes on. */
  clusterValuesFromNextWords?: boolean;
}

/** A table in the reader's syntax, with the names of its writing options. */
export interface OptionTable {
  syntax: OptionSyntax;
  writes: ReadonlySet<string>;
}

/**
 * The reader's syntax for a table, mechanically: flags are letters, valued letters `x:`, attached
 * ones `x::`; a long name with `=` is `name:`, one without `name::` (a value only after `=`).
 * Letters listed twice keep the first of flags, attached, valued (the optstring's last wins).
 */
export function optionTable(spec: OptionTableSpec): OptionTable {
  const letters = (list: string | undefined, colons: string): string => [...(list ?? '')].map((letter) => letter + colons).join('');
  const long = (spec.long ?? '').split(/\s+/).filter(Boolean).map((name) => (name.endsWith('=') ? `${name.slice(0, -1)}:` : `${name}::`));
  return {
    syntax: {
      short: letters(spec.valued, ':') + letters(spec.attached, '::') + letters(spec.flags, ''),
      long: long.join(' '),
      exactLong: !spec.abbreviations,
      permute: !spec.optionsEndAtOperand,
      negation: spec.negation ?? false,
      clusterTakesNextWords: spec.clusterValuesFromNextWords ?? false,
    },
    writes: new Set((spec.writes ?? '').split(/\s+/).filter(Boolean)),
  };
}

export interface Scanned {
  /** The words that are not options or their values, in order. */
  operands: string[];
  /** With `optionsEndAtOperand`: the words from the first operand on (a wrapper's command). */
  rest: string[];
}

/**
 * The operands of `args` when no option in it writes, runs a program or cannot be read;
 * undefined otherwise. With several tables (git's `blame`: its own options, then the revision
 * options), an option is looked up in each in turn, and the first that knows it decides; an option
 * counts as writing when any of the tables says its name writes.
 */
export function scanOptions(args: readonly string[], tables: OptionTable | readonly OptionTable[]): Scanned | undefined {
  const chain: readonly OptionTable[] = Array.isArray(tables) ? tables : [tables as OptionTable];
  const read = readOptions(args.map((value) => ({ value })), 0, chain.map((table) => table.syntax));
  if (read.problems.length > 0 || read.options.some((option) => chain.some((table) => table.writes.has(option.name)))) return undefined;
  return { operands: read.operands.map((at) => args[at]!), rest: args.slice(read.end) };
}
