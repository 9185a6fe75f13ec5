/**
 * The extra spellings of one command that deny and ask rules see (never allow rules: each form
 * only widens what a deny or ask catches):
 * - a multiplexer's global options removed (`git -C . push` is `git push`, `cargo +nightly publish`
 *   is `cargo publish`), see global-options.ts;
 * - the single-letter flags right after the program in every grouping and order, so `Bash(rm -rf:*)`
 *   also sees `rm -r -f x`, `rm -fr x`, `rm -f -r -v x` and, for rm, `--recursive --force` / `-R`.
 */
import { withoutGlobalOptions } from './global-options.js';

/** Long options (and capital aliases) that are one of rm's letters, for the letter forms. */
const RM_LETTERS: Readonly<Record<string, string>> = { '--recursive': 'r', '-R': 'r', '--force': 'f', '--verbose': 'v', '--dir': 'd' };

/** Beyond this many distinct letters the arrangements are too many: no letter forms. */
const MAX_LETTERS = 5;

export interface RuleForms {
  forms: string[];
  /** A global option that cannot be read: the subcommand cannot be found. */
  unknownOption?: { program: string; option: string };
  /** The subcommand is not the word written (computed, or a git alias): `form` starts at the program, its subcommand next. */
  hiddenSubcommand?: { program: string; why: string; form: string[] };
}

/** Extra forms of `argv` (program name already a base name), and why its subcommand cannot be known, if so. */
export function ruleForms(argv: readonly string[]): RuleForms {
  const forms: string[] = [...letterForms(argv)];
  const sub = withoutGlobalOptions(argv);
  if (sub.kind === 'stripped' || sub.kind === 'hidden') forms.push(sub.form.join(' '));
  if (sub.kind === 'unknown') return { forms, unknownOption: { program: sub.program, option: sub.option } };
  if (sub.kind === 'hidden') return { forms, hiddenSubcommand: { program: sub.program, why: sub.why, form: sub.form } };
  return { forms };
}

/** Every grouping of the leading single-letter flags into one cluster plus separate flags. */
function letterForms(argv: readonly string[]): string[] {
  const program = argv[0];
  if (program === undefined) return [];
  const letters: string[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    const mapped = program === 'rm' ? RM_LETTERS[word] : undefined;
    if (mapped !== undefined) letters.push(mapped);
    else if (/^-[A-Za-z]+$/.test(word)) letters.push(...word.slice(1));
    else break;
  }
  const distinct = [...new Set(letters)];
  if (distinct.length < 2 || distinct.length > MAX_LETTERS) return [];
  const rest = argv.slice(i);
  const out: string[] = [];
  for (const cluster of arrangements(distinct)) {
    const separate = distinct.filter((l) => !cluster.includes(l)).map((l) => `-${l}`);
    const head = cluster.length > 0 ? [`-${cluster.join('')}`] : [];
    out.push([program, ...head, ...separate, ...rest].join(' '));
  }
  return out;
}

/** Every ordered selection of the letters (the empty one included). */
function arrangements(letters: readonly string[]): string[][] {
  const out: string[][] = [[]];
  const grow = (prefix: string[], left: string[]): void => {
    for (let k = 0; k < left.length; k++) {
      const next = [...prefix, left[k]!];
      out.push(next);
      grow(next, [...left.slice(0, k), ...left.slice(k + 1)]);
    }
  };
  grow([], [...letters]);
  return out;
}
