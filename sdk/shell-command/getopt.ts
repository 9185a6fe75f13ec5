/**
 * Reads a program's words as the program itself reads them, so that what each word is — an
 * option, its value, an operand, the command a wrapper runs — is known the way the program knows
 * it. The one option reader of MewCode: the wrapper tables here, the read-only command tables of
 * the bash tool and the multiplexers' global options of the permission rules all go through it.
 * Three kinds of readers exist among programs:
 * - getopt/getopt_long (coreutils, util-linux, findutils, sudo, …): short options in clusters
 *   (`-iu NAME`), a value in the rest of the word or the next word (`-uNAME`, `-u NAME`), an
 *   OPTIONAL value only in the rest of the word (`-i{}`, never `-i {}`), long options as
 *   `--name=value` or `--name value` (optional values only with `=`), any unambiguous prefix of a
 *   long name (`--un` is `--unset`), `--` ending the options. Options end at the first operand
 *   (`+` in the optstring, what wrappers use) unless the program permutes (su, script, sort).
 *   Readers of the same shape fit it too: pflag (docker, kubectl: no prefixes, a boolean flag is an
 *   optional value, `--tls=false`), clap (cargo), git's parse-options (`--no-NAME`), tree's own loop.
 * - exact words (programs that compare their arguments with strcmp: pkexec, torsocks, git's own
 *   options): only the listed words are options, a valued one takes the next word.
 * - loose (firejail, valgrind): every word starting with `-` is an option, its value only after
 *   `=`; the first other word is the command.
 * A word the reader cannot place — an unknown option, an ambiguous abbreviation, a missing value,
 * a value given to an option that takes none — is reported (`problems`): the real program refuses
 * it, or knows an option this table does not, so where its command starts is not known.
 */
import type { Word } from './shell-shapes.js';

export interface OptionSyntax {
  /**
   * getopt's optstring: a letter alone takes no value, `x:` a value (the rest of the word or the
   * next word), `x::` an optional one (the rest of the word only).
   */
  short?: string;
  /**
   * Long names, space-separated, with the same colons (`unset:`, `block-signal::`). Names joined
   * by `|` are one option under several names (`nonblocking|nb`): a prefix of both is no ambiguity.
   * For `kind: 'exact'`, whole words with their dashes (`--user: -u: --keep-cwd`); a valued or
   * optionally valued one (`:`, `::`) starting with `--` may also be written `--user=NAME`.
   */
  long?: string;
  /** GNU permutation: options may follow operands (su, script), up to `--`. */
  permute?: boolean;
  /** Long names must be written in full (the program compares them instead of calling getopt_long). */
  exactLong?: boolean;
  /** Words that are options as a whole, besides the table (`nice -5`, `nice --5`): tested before the table. */
  wholeWord?: RegExp;
  /** `exact`: only the listed words (`-u`, `--user`) are options; `loose`: any `-…` word, valued only with `=`. */
  kind?: 'getopt' | 'exact' | 'loose';
  /**
   * git's parse-options: `--no-NAME` turns the long option NAME off (`--no-textconv`, and with
   * prefixes `--no-textc`); it takes no value. Read as the option `no-NAME`.
   */
  negation?: boolean;
  /**
   * tree's own loop: each valued letter of a cluster takes the next word, and the cluster goes on
   * (`tree -Po x y`: -P is `x`, -o is `y`).
   */
  clusterTakesNextWords?: boolean;
}

/** The least a word must be: the shell's words (`Word`) or plain strings wrapped as `{ value }`. */
export interface WordLike {
  value: string;
}

export interface ParsedOption<W extends WordLike = Word> {
  /**
   * A short option's letter, a long option's first name (`--nb` → `nonblocking`), `no-NAME` for a
   * negated one, or the whole word.
   */
  name: string;
  /** Its value, when it has one. */
  value?: W;
  /** Index of the word that holds the option (its value may be in the next one). */
  at: number;
}

/** A word the reader could not place. */
export interface ReadProblem {
  /** Index of the word. */
  at: number;
  /** What is wrong with it (`--frob is not an option the analysis knows`). */
  text: string;
}

export interface ReadResult<W extends WordLike = Word> {
  options: ParsedOption<W>[];
  /** Indexes of the operands, in order (with permutation, wherever they are). */
  operands: number[];
  /** Without permutation: the index of the first operand (`words.length` when there is none). */
  end: number;
  /** Set when a `--` ended the options. */
  dashDash: boolean;
  /** Words the reader could not place (unknown or ambiguous option, missing or unwanted value). */
  problems: ReadProblem[];
}

type Arity = 0 | 1 | 2; // none, required, optional

interface LongOption {
  name: string;
  arity: Arity;
}

interface Compiled {
  syntax: OptionSyntax;
  short: Map<string, Arity>;
  long: Map<string, LongOption & { id: number }>;
}

const cache = new WeakMap<OptionSyntax, Compiled>();

function compile(syntax: OptionSyntax): Compiled {
  let found = cache.get(syntax);
  if (found) return found;
  const short = new Map<string, Arity>();
  const optstring = (syntax.short ?? '').replace(/^\+/, '');
  for (let i = 0; i < optstring.length; i++) {
    const letter = optstring[i]!;
    let colons = 0;
    while (optstring[i + 1 + colons] === ':') colons++;
    short.set(letter, colons === 0 ? 0 : colons === 1 ? 1 : 2);
    i += colons;
  }
  const long = new Map<string, LongOption & { id: number }>();
  (syntax.long ?? '').split(/\s+/).filter(Boolean).forEach((entry, id) => {
    const colons = /:*$/.exec(entry)![0].length;
    const names = entry.slice(0, entry.length - colons).split('|');
    const arity: Arity = colons === 0 ? 0 : colons === 1 ? 1 : 2;
    for (const name of names) long.set(name, { name: names[0]!, arity, id });
  });
  found = { syntax, short, long };
  cache.set(syntax, found);
  return found;
}

/** A long option of one table by its name or, for getopt_long, an unambiguous prefix of it. */
function inTable(name: string, table: Compiled): LongOption | 'ambiguous' | undefined {
  const direct = table.long.get(name);
  if (direct) return direct;
  if (table.syntax.exactLong || name === '') return undefined;
  const ids = new Set<number>();
  let match: LongOption | undefined;
  for (const [known, option] of table.long) {
    if (!known.startsWith(name)) continue;
    ids.add(option.id);
    match = option;
  }
  if (ids.size > 1) return 'ambiguous';
  return match;
}

/**
 * A long option by its name: the first table that knows it (or, for getopt_long, a prefix of one)
 * decides; then `no-NAME` for a table that negates.
 */
function longOption(name: string, chain: readonly Compiled[]): LongOption | 'ambiguous' | undefined {
  for (const table of chain) {
    const found = inTable(name, table);
    if (found !== undefined) return found;
  }
  if (!name.startsWith('no-')) return undefined;
  for (const table of chain) {
    if (!table.syntax.negation) continue;
    const found = inTable(name.slice(3), table);
    if (found === 'ambiguous') return found;
    if (found) return { name: `no-${found.name}`, arity: 0 };
  }
  return undefined;
}

/**
 * An option of an `exact` table: the word itself, or `--name=value` for a (optionally) valued
 * long one. A single-dash word is compared whole, as strcmp does: `-C=dir` is not `-C`.
 */
function exactOption<W extends WordLike>(arg: string, word: W, chain: readonly Compiled[]): (LongOption & { value?: W }) | undefined {
  for (const table of chain) {
    const direct = table.long.get(arg);
    if (direct) return direct;
  }
  const eq = arg.indexOf('=');
  if (!arg.startsWith('--') || eq === -1) return undefined;
  for (const table of chain) {
    const valued = table.long.get(arg.slice(0, eq));
    if (valued) return valued.arity === 0 ? undefined : { ...valued, value: { ...word, value: arg.slice(eq + 1) } };
  }
  return undefined;
}

/**
 * Reads options from `words[from]` on. Without permutation it stops at the first operand (`end`);
 * callers that read options again after something of their own (sudo's NAME=value words) call it
 * again from there. Several tables make a chain (git blame: its own options, then the revision
 * options): an option is looked up in each in turn and the first that knows it decides; the kind,
 * `permute` and `wholeWord` are the first table's.
 */
export function readOptions<W extends WordLike = Word>(words: readonly W[], from: number, tables: OptionSyntax | readonly OptionSyntax[]): ReadResult<W> {
  const chain = (Array.isArray(tables) ? tables : [tables]).map((t: OptionSyntax) => compile(t));
  const syntax = chain[0]!.syntax;
  const result: ReadResult<W> = { options: [], operands: [], end: words.length, dashDash: false, problems: [] };
  const problem = (at: number, text: string): void => {
    result.problems.push({ at, text });
  };
  const kind = syntax.kind ?? 'getopt';
  for (let i = from; i < words.length; i++) {
    const at = i;
    const word = words[i]!;
    const arg = word.value;
    if (arg === '--') {
      result.dashDash = true;
      if (!syntax.permute) result.end = i + 1;
      for (let j = i + 1; j < words.length; j++) result.operands.push(j);
      return result;
    }
    if (syntax.wholeWord?.test(arg)) {
      result.options.push({ name: arg, at });
      continue;
    }
    const exact = kind === 'exact' ? exactOption(arg, word, chain) : undefined;
    if ((kind === 'exact' && !exact) || !arg.startsWith('-') || arg === '-') {
      if (kind === 'exact' && arg.startsWith('-') && arg !== '-') problem(at, `${arg} is not an option the analysis knows`);
      if (!syntax.permute) {
        result.end = i;
        for (let j = i; j < words.length; j++) result.operands.push(j);
        return result;
      }
      result.operands.push(i);
      continue;
    }
    if (exact) {
      const value = exact.value ?? (exact.arity === 1 ? words[++i] : undefined);
      if (exact.arity === 1 && !value) problem(at, `${arg} is missing its value`);
      result.options.push({ name: exact.name, ...(value ? { value } : {}), at });
      continue;
    }
    if (kind === 'loose') {
      const eq = arg.indexOf('=');
      result.options.push({ name: arg.slice(0, eq === -1 ? undefined : eq).replace(/^-+/, ''), ...(eq === -1 ? {} : { value: { ...word, value: arg.slice(eq + 1) } }), at });
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      const option = longOption(name, chain);
      if (option === undefined || option === 'ambiguous') {
        problem(at, option === 'ambiguous' ? `--${name} is an ambiguous abbreviation` : `--${name} is not an option the analysis knows`);
        result.options.push({ name, at });
        continue;
      }
      let value: W | undefined = eq === -1 ? undefined : { ...word, value: arg.slice(eq + 1) };
      if (option.arity === 0 && value !== undefined) {
        problem(at, `--${option.name} takes no value`);
        value = undefined;
      }
      if (option.arity === 1 && value === undefined) {
        value = words[++i];
        if (!value) problem(at, `--${option.name} is missing its value`);
      }
      result.options.push({ name: option.name, ...(value ? { value } : {}), at });
      continue;
    }
    // A cluster of short options: `-iu NAME`, `-uNAME`, `-i{}`.
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      const table = chain.find((t) => t.short.has(letter));
      const arity = table?.short.get(letter);
      if (arity === undefined) problem(at, `-${letter} is not an option the analysis knows`);
      if (arity === undefined || arity === 0) {
        result.options.push({ name: letter, at });
        continue;
      }
      if (arity === 1 && table!.syntax.clusterTakesNextWords) {
        const value = words[++i];
        if (!value) problem(at, `-${letter} is missing its value`);
        result.options.push({ name: letter, ...(value ? { value } : {}), at });
        continue;
      }
      const attached = arg.slice(j + 1);
      // A required value is the rest of the word or else the next word; an optional one only the rest.
      const value: W | undefined = attached !== '' ? { ...word, value: attached } : arity === 1 ? words[++i] : undefined;
      if (arity === 1 && !value) problem(at, `-${letter} is missing its value`);
      result.options.push({ name: letter, ...(value ? { value } : {}), at });
      break;
    }
  }
  return result;
}

/** Whether any of `names` was given. */
export function has(options: readonly { name: string }[], names: readonly string[] | undefined): boolean {
  return names !== undefined && options.some((o) => names.includes(o.name));
}
