/**
 * What `sed` writes: the files of `-i` (in place) and the files its script names with the `w`/`W`
 * commands and the `s///w` flag (`sed -n '1w .git/hooks/pre-commit' x` writes the hook without
 * `-i`). The script is the `-e`/`--expression` values, else the first operand; a `-f`/`--file`
 * script is returned for the caller to read (it knows the directory the command runs in).
 */

export interface SedWrites {
  /** Operands rewritten in place (`-i`). */
  inPlace: string[];
  /** File names the scripts may write (an over-approximation: see scriptWrites). */
  scripted: string[];
  /** Script files (`-f FILE`) whose `w` commands are not known until read. */
  scriptFiles: string[];
}

/** Short options that take a value: attached (`-l80`, `-ecmd`) or the next word. */
const VALUED_SHORT = 'efl';

export function sedWrites(args: readonly string[]): SedWrites {
  const scripts: string[] = [];
  const scriptFiles: string[] = [];
  const operands: string[] = [];
  let inPlace = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg : arg.slice(0, eq);
      // getopt_long takes any unambiguous prefix (`--expr`, `--in-pl`).
      const is = (long: string, min: number): boolean => name.length >= min && long.startsWith(name);
      if (is('--in-place', 4)) inPlace = true;
      else if (is('--expression', 3) || is('--file', 3) || is('--line-length', 3)) {
        const value = eq === -1 ? (args[++i] ?? '') : arg.slice(eq + 1);
        if (is('--expression', 3)) scripts.push(value);
        else if (is('--file', 3)) scriptFiles.push(value);
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (letter === 'i') {
          inPlace = true;
          break; // the rest is the backup suffix
        }
        if (!VALUED_SHORT.includes(letter)) continue;
        const value = j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? '');
        if (letter === 'e') scripts.push(value);
        if (letter === 'f') scriptFiles.push(value);
        break;
      }
      continue;
    }
    operands.push(arg);
  }
  if (scripts.length === 0 && scriptFiles.length === 0 && operands.length > 0) scripts.push(operands.shift()!);
  return { inPlace: inPlace ? operands : [], scripted: scripts.flatMap(scriptWrites), scriptFiles };
}

/**
 * The file names a sed script may write: after every `w` or `W`, the rest of its line (GNU sed
 * takes the file name to the end of the line, `;` and `}` included). A `w` inside a regular
 * expression or a replacement yields a name that is no file of interest; only the protected ones
 * among them count, so over-approximating costs nothing but keeps a parser of sed's grammar out.
 */
export function scriptWrites(script: string): string[] {
  const out: string[] = [];
  for (const line of script.split('\n')) {
    for (let i = 0; i < line.length; i++) {
      if (line[i] !== 'w' && line[i] !== 'W') continue;
      const name = line.slice(i + 1).replace(/^[ \t]+/, '');
      if (name !== '') out.push(name);
    }
  }
  return out;
}
