/**
 * Reads a program's arguments the way the program itself does (GNU getopt_long, Rust's argument
 * parsers, git's parse-options, tree's own loop), to say whether any of them is an option that
 * writes or runs a program. Short option clusters (`-uo out`), values attached or in the next
 * word (`-k1`, `-k 1`, `--key=1`, `--key 1`), `--` (what follows is operands) and, for getopt_long
 * programs, any unambiguous prefix of a long name (`--o` for `--output`) are understood.
 *
 * Fail safe: an option the table does not know, or an abbreviation that could stand for more than
 * one, is treated like a writing one (the caller then runs the command alone, in the model's
 * order). A table need not list every option of its program: a missing one only costs parallelism.
 * A long option is taken to consume the next word only when its name says so (a trailing `=`):
 * reading that word as an option or operand instead can only find more to object to, never less.
 */

export interface OptionTable {
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
  /** Options end at the first operand (getopt with `+`: wrappers such as `env`, `time`, `xargs`). */
  optionsEndAtOperand?: boolean;
  /** tree: each valued letter of a cluster takes the next word, and the cluster goes on. */
  clusterValuesFromNextWords?: boolean;
}

export interface Scanned {
  /** The words that are not options or their values, in order. */
  operands: string[];
  /** With `optionsEndAtOperand`: the words from the first operand on (a wrapper's command). */
  rest: string[];
}

interface CompiledTable {
  table: OptionTable;
  long: Map<string, boolean>; // name → may take the next word as its value
  writes: Set<string>;
}

const compiled = new WeakMap<OptionTable, CompiledTable>();

function compile(table: OptionTable): CompiledTable {
  let found = compiled.get(table);
  if (!found) {
    const long = new Map<string, boolean>();
    for (const word of (table.long ?? '').split(/\s+/).filter(Boolean)) long.set(word.replace(/=$/, ''), word.endsWith('='));
    found = { table, long, writes: new Set((table.writes ?? '').split(/\s+/).filter(Boolean)) };
    compiled.set(table, found);
  }
  return found;
}

/**
 * The operands of `args` when no option in it writes, runs a program or is unknown; undefined
 * otherwise. With several tables (git's `blame`: its own options, then the revision options), an
 * option is looked up in each in turn, and the first that knows it decides.
 */
export function scanOptions(args: readonly string[], tables: OptionTable | readonly OptionTable[]): Scanned | undefined {
  const chain = (Array.isArray(tables) ? tables : [tables]).map((t: OptionTable) => compile(t));
  const first = chain[0]!.table;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      const after = args.slice(i + 1);
      return { operands: [...operands, ...after], rest: after };
    }
    if (arg === '-' || !arg.startsWith('-')) {
      if (first.optionsEndAtOperand) return { operands: [...operands, ...args.slice(i)], rest: args.slice(i) };
      operands.push(arg);
      continue;
    }
    const next = arg.startsWith('--') ? longOption(arg, chain) : shortCluster(arg, chain);
    if (next === undefined) return undefined;
    i += next;
  }
  return { operands, rest: [] };
}

/** How many following words a long option consumes; undefined when it writes or is unknown. */
function longOption(arg: string, chain: readonly CompiledTable[]): number | undefined {
  const eq = arg.indexOf('=');
  const name = arg.slice(2, eq === -1 ? undefined : eq);
  for (const table of chain) {
    const resolved = resolveLong(name, table);
    if (resolved === 'ambiguous') return undefined;
    if (resolved === undefined) continue;
    if (table.writes.has(resolved)) return undefined;
    return eq === -1 && table.long.get(resolved) === true ? 1 : 0;
  }
  for (const table of chain) {
    // `--no-color`: turning an option off writes nothing.
    if (!table.table.negation || !name.startsWith('no-')) continue;
    const resolved = resolveLong(name.slice(3), table);
    if (resolved !== undefined && resolved !== 'ambiguous' && eq === -1) return 0;
  }
  return undefined;
}

function resolveLong(name: string, table: CompiledTable): string | 'ambiguous' | undefined {
  if (table.long.has(name)) return name;
  if (!table.table.abbreviations || name === '') return undefined;
  const candidates = [...table.long.keys()].filter((known) => known.startsWith(name));
  if (candidates.length > 1) return 'ambiguous';
  return candidates[0];
}

/** How many following words a cluster of short options consumes; undefined when one writes or is unknown. */
function shortCluster(arg: string, chain: readonly CompiledTable[]): number | undefined {
  let consumed = 0;
  for (let j = 1; j < arg.length; j++) {
    const letter = arg[j]!;
    const table = chain.find((t) => (t.table.flags ?? '').includes(letter) || (t.table.valued ?? '').includes(letter) || (t.table.attached ?? '').includes(letter));
    if (!table || table.writes.has(letter)) return undefined;
    if ((table.table.flags ?? '').includes(letter)) continue;
    if ((table.table.attached ?? '').includes(letter)) return consumed; // the rest of the word is its value
    if (table.table.clusterValuesFromNextWords) {
      consumed++;
      continue;
    }
    return consumed + (j === arg.length - 1 ? 1 : 0); // `-k1` or `-k 1`
  }
  return consumed;
}
