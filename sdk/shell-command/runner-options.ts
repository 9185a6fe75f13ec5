/**
 * Finding, in a command's words, the options whose value is a command the program runs — read the
 * way the program's own parser reads them, not word by word. GNU getopt_long (tar, sort, man),
 * git's parse-options, Perl's Getopt::Long (git send-email) and Info-ZIP's zip all take any
 * unambiguous prefix of a long option: `tar --to-comm=…`, `git rebase --exe=…`, `git ls-remote
 * --u=…`, `zip --unzip-comm …`. So a word is a runner option when its name is a prefix of a runner
 * option's, except when it is exactly another option of the program (`tar --checkpoint`, `git
 * send-email --to`): those are listed per program. A prefix the program finds ambiguous is
 * refused by it; here it counts as the runner (fail closed). Short options cluster (`git rebase
 * -qx cmd`, `git grep -iOcmd`, `zip -TqTT cmd`): a runner letter anywhere in a cluster takes the
 * rest of the word or the next word, unless a letter before it takes a value of its own.
 * Not getopt.ts's reader: that one needs a program's whole option table and places every word;
 * this one needs only the options that run something, and errs toward finding one.
 */
import type { Word } from './shell-shapes.js';

export interface RunnerOptionSpec {
  /** Long options (without `--`) whose value is a command. */
  long?: readonly string[];
  /** Those of `long` whose value is optional: only `--opt=value` gives one. */
  optionalLong?: readonly string[];
  /** The program's other long options whose whole name is a prefix of a runner option's. */
  exact?: readonly string[];
  /** Short option letters whose value is a command. */
  short?: string;
  /** Short letters whose value is optional: only a value attached in the same word counts. */
  optionalShort?: string;
  /** Short options of several letters (zip's `-TT`), found anywhere in a single-dash word. */
  multiShort?: readonly string[];
  /** The program's other short letters that take a value: the rest of the cluster is that value. */
  valuedShort?: string;
}

export interface RunnerOption {
  /** The option as the program knows it: `--to-command`, `-x`. */
  option: string;
  /** Its value; absent for an optional-value option given without one (it runs its default). */
  value?: Word;
}

/** The runner options in `words` (from index `from`), up to a `--`. */
export function runnerOptions(words: readonly Word[], spec: RunnerOptionSpec, from = 1): RunnerOption[] {
  const found: RunnerOption[] = [];
  for (let i = from; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const option = longRunner(name, spec);
      if (option === undefined) continue;
      if (eq !== -1) found.push({ option: `--${option}`, value: { ...word, value: arg.slice(eq + 1) } });
      else if (spec.optionalLong?.includes(option)) found.push({ option: `--${option}` });
      else if (words[i + 1]) found.push({ option: `--${option}`, value: words[++i]! });
      continue;
    }
    if (!arg.startsWith('-') || arg.length < 2) continue;
    const short = shortRunner(arg, spec);
    if (short === undefined) continue;
    const rest = arg.slice(short.end);
    if (rest !== '') found.push({ option: short.option, value: { ...word, value: rest } });
    else if (spec.optionalShort?.includes(short.option.slice(1))) found.push({ option: short.option });
    else if (words[i + 1]) found.push({ option: short.option, value: words[++i]! });
  }
  return found;
}

/** The runner option a long option's name stands for (`to-comm` → `to-command`), if any. */
function longRunner(name: string, spec: RunnerOptionSpec): string | undefined {
  if (name === '' || spec.exact?.includes(name)) return undefined;
  return spec.long?.find((option) => option.startsWith(name));
}

/** The runner option in a short cluster and where its value starts in the word. */
function shortRunner(arg: string, spec: RunnerOptionSpec): { option: string; end: number } | undefined {
  for (let j = 1; j < arg.length; j++) {
    const multi = spec.multiShort?.find((m) => arg.startsWith(m, j));
    if (multi) return { option: `-${multi}`, end: j + multi.length };
    const letter = arg[j]!;
    if (spec.short?.includes(letter) || spec.optionalShort?.includes(letter)) return { option: `-${letter}`, end: j + 1 };
    if (spec.valuedShort?.includes(letter)) return undefined;
  }
  return undefined;
}
