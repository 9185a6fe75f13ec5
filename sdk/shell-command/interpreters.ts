/**
 * Interpreters given program text on the command line (`python3 -c …`, `perl -e …`, `node -e …`,
 * `ruby -e …`, `php -r …`, `lua -e …`, `deno eval …`, `bun -e …`, `Rscript -e …`, `osascript -e …`,
 * `pwsh -Command …` / `-EncodedCommand …`, `julia -e …`, `expect -c …`, an awk program that can run commands or write files —
 * `system(…)`, a pipe, `getline`, `>` — while `awk '{print $1}'` stays a plain filter) or on
 * stdin (`python3 - <<EOF`, `deno run -`): the shell
 * parser cannot see what such a program does, so the command is opaque (never allowed by a rule)
 * and the program text is kept on the segment for the blacklist. When the program calls a shell
 * (`os.system`, `subprocess`, `system(…)`, backquotes, `child_process`, …), its string literals are
 * also parsed as shell commands, so deny rules and the blacklist see `rm -rf ~` in
 * `python3 -c "import os; os.system('rm -rf ~')"`.
 */
import { isDescriptorPath, isStdinPath } from './descriptor-paths.js';
import type { Word } from './shell-shapes.js';
import { commandName } from './wrappers.js';

interface InterpreterSpec {
  /** Options whose value is program text. */
  code: readonly string[];
  /** Options that take a value which is not program text (so it is not mistaken for a script file). */
  valued?: readonly string[];
  /** awk: the first operand is the program unless -f is given. */
  programOperand?: boolean;
  /**
   * deno/bun: `eval [options] code…` takes the program from the rest of the words, `run -`
   * (and, for `stdinAlone`, no operand at all: the REPL) reads it from stdin.
   */
  subcommands?: { stdinAlone: boolean };
}

const PYTHON: InterpreterSpec = { code: ['-c'], valued: ['-m', '-W', '-X', '-Q'] };
const SPECS: Record<string, InterpreterSpec> = {
  python: PYTHON,
  perl: { code: ['-e', '-E'], valued: ['-I', '-M', '-m'] },
  ruby: { code: ['-e'], valued: ['-I', '-r'] },
  node: { code: ['-e', '--eval', '-p', '--print'], valued: ['-r', '--require', '--import', '--loader'] },
  deno: { code: [], subcommands: { stdinAlone: true } },
  bun: { code: ['-e', '--eval', '-p', '--print'], subcommands: { stdinAlone: false } },
  php: { code: ['-r', '-B', '-R', '-E'], valued: ['-d', '-c'] },
  lua: { code: ['-e'], valued: ['-l'] },
  tclsh: { code: [] },
  awk: { code: [], valued: ['-v', '-F', '-i', '-l'], programOperand: true },
  Rscript: { code: ['-e'] },
  R: { code: ['-e'] },
  osascript: { code: ['-e'] },
  pwsh: { code: [] }, // see powershellCall
  julia: { code: ['-e', '--eval', '-E', '--print'] },
  elixir: { code: ['-e', '--eval'] },
  expect: { code: ['-c'] },
  groovy: { code: ['-e'] },
  racket: { code: ['-e', '--eval'] },
  guile: { code: ['-c'] },
};

/** `python3.12` → python, `gawk` → awk, `nodejs` → node. */
export function interpreterFamily(name: string): string | undefined {
  if (/^(python|pypy)[0-9.]*$/.test(name)) return 'python';
  if (/^(g|m|n|busybox-)?awk$/.test(name)) return 'awk';
  if (/^perl[0-9.]*$/.test(name)) return 'perl';
  if (/^ruby[0-9.]*$/.test(name)) return 'ruby';
  if (name === 'nodejs') return 'node';
  if (/^(?:pwsh|powershell)(?:\.exe)?$/i.test(name)) return 'pwsh';
  if (name === 'wish' || /^tclsh[0-9.]*$/.test(name)) return 'tclsh';
  if (/^php[0-9.]*$/.test(name)) return 'php';
  if (/^lua(jit|[0-9.]*)$/.test(name)) return 'lua';
  return Object.hasOwn(SPECS, name) ? name : undefined;
}

export interface InterpreterCall {
  /** The interpreter's family name (python, perl, node, awk …). */
  interpreter: string;
  /** Program text from the command line; undefined when the program comes from stdin. */
  code?: string;
  /** No program on the command line and no script file: the program is read from stdin. */
  readsStdin: boolean;
  /** Why the call is opaque beyond its program text (a program file that is stdin: `perl /dev/stdin`). */
  opaque?: string;
  /** The program comes from a descriptor or process substitution nothing shows (`awk -f <(…)`, `node /dev/fd/3`). */
  unknown?: string;
}

/**
 * What a program file operand is: stdin itself (`-`, `/dev/stdin`, `/dev/fd/0`,
 * `/proc/self/fd/0`: what a heredoc or pipe gives it), another descriptor or a process
 * substitution (unknown), or a file (judged as the command that names it).
 */
function programFile(kind: string, file: Word): InterpreterCall {
  if (file.literal && isStdinPath(file.value)) return { interpreter: kind, readsStdin: true, opaque: `${kind} reading its program from stdin` };
  if ((file.literal && isDescriptorPath(file.value)) || (!file.literal && /^[<>]\(/.test(file.value))) {
    return { interpreter: kind, readsStdin: false, opaque: `${kind} running a program from a descriptor`, unknown: `${kind} running a program from a descriptor or process substitution` };
  }
  return { interpreter: kind, readsStdin: false };
}

/** The stronger of two readings of program files (`awk -f a -f /dev/stdin`). */
function worse(a: InterpreterCall, b: InterpreterCall): InterpreterCall {
  if (a.unknown !== undefined) return a;
  if (b.unknown !== undefined) return b;
  return a.readsStdin ? a : b;
}

/** What an interpreter invocation runs; undefined for a command that is not one. */
export function interpreterCall(words: readonly Word[]): InterpreterCall | undefined {
  const name = commandName(words[0]);
  const kind = name === undefined ? undefined : interpreterFamily(name);
  if (kind === undefined) return undefined;
  const spec = SPECS[kind]!;
  if (kind === 'pwsh') return powershellCall(words);
  if (spec.subcommands) {
    const sub = subcommandCall(kind, words, spec.subcommands.stdinAlone);
    if (sub !== null) return sub;
  }
  const codes: string[] = [];
  let operandWord: Word | undefined;
  let programFiles: InterpreterCall | undefined; // awk -f FILE
  for (let i = 1; i < words.length; i++) {
    const arg = words[i]!.value;
    if (arg === '--') {
      operandWord = words[i + 1];
      break;
    }
    const eq = arg.indexOf('=');
    const key = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (spec.code.includes(key)) {
      const value = key !== arg ? arg.slice(eq + 1) : words[++i]?.value;
      if (value !== undefined) codes.push(value);
      continue;
    }
    // Attached short forms: `-cprint(1)`, `-e'…'` (perl, ruby).
    const attached = spec.code.find((c) => c.length === 2 && arg.startsWith(c) && arg.length > 2);
    if (attached) {
      codes.push(arg.slice(2));
      continue;
    }
    if (kind === 'perl' && /^-[a-zA-Z]*[eE]$/.test(arg)) {
      // perl clusters: `-ne 'code'`, `-pie 'code'`
      const value = words[++i]?.value;
      if (value !== undefined) codes.push(value);
      continue;
    }
    if (spec.valued?.includes(key)) {
      if (key === arg && !(kind === 'awk' && arg.length > 2)) i++;
      continue;
    }
    if (kind === 'awk' && (arg.startsWith('-f') || arg.startsWith('--file'))) {
      // `-f FILE`, `-fFILE`, `--file FILE`, `--file=FILE`: the program is read from FILE (repeatable).
      const eq = arg.indexOf('=');
      const file: Word | undefined =
        arg === '-f' || arg === '--file' ? words[++i] : arg.startsWith('--file=') ? { ...words[i]!, value: arg.slice(eq + 1) } : arg.startsWith('-f') && !arg.startsWith('--') ? { ...words[i]!, value: arg.slice(2) } : undefined;
      if (file) programFiles = programFiles ? worse(programFiles, programFile(kind, file)) : programFile(kind, file);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') continue;
    operandWord = words[i];
    break;
  }
  const operand = operandWord?.value;
  if (programFiles) return codes.length > 0 ? { ...programFiles, code: codes.join('\n') } : programFiles;
  if (codes.length > 0) return { interpreter: kind, code: codes.join('\n'), readsStdin: false };
  if (spec.programOperand) {
    // An awk program can run commands only through system(), pipes and getline, and write files
    // only with `>`: without those (`{print $1}`) it is a text filter, not opaque code.
    if (operand === undefined || !/system|[|>]|getline|@/.test(operand)) return undefined;
    return { interpreter: kind, code: operand, readsStdin: false };
  }
  if (kind === 'python' && words.some((w) => w.value === '-m' || /^-m./.test(w.value))) return { interpreter: kind, readsStdin: false };
  if (words.slice(1).some((w) => /^(?:-V|-v|--version|-h|--help)$/.test(w.value))) return { interpreter: kind, readsStdin: false };
  if (kind === 'bun' && operand === undefined) return undefined; // bun alone prints its help
  return operandWord === undefined ? { interpreter: kind, readsStdin: true } : programFile(kind, operandWord);
}

/**
 * `deno eval [-p] code`, `bun eval code` (all the words after `eval`: options and the program,
 * which is more than the program but never less), `deno run [options] -` / `bun run -` (stdin),
 * `deno` / `deno repl` (the REPL reads stdin). Undefined for other subcommands (`deno run x.ts`,
 * `deno test`), null when there is no subcommand (bun's own `-e` options are then read).
 */
function subcommandCall(kind: string, words: readonly Word[], stdinAlone: boolean): InterpreterCall | undefined | null {
  // The subcommand comes first (`deno eval`, `bun run -`); `bun -e code` has none.
  if (words[1]?.value.startsWith('-')) return null;
  const at = 1;
  const sub = words[1]?.value;
  if (sub === 'eval') {
    const code = words.slice(at + 1).map((w) => w.value).join(' ');
    return code.trim() === '' ? { interpreter: kind, readsStdin: false } : { interpreter: kind, code, readsStdin: false };
  }
  if (sub === 'run') {
    const file = words.slice(at + 1).find((w) => !w.value.startsWith('-') || w.value === '-');
    return file === undefined ? undefined : programFile(kind, file).readsStdin || programFile(kind, file).unknown !== undefined ? programFile(kind, file) : undefined;
  }
  if (sub === 'repl' || (sub === undefined && stdinAlone && words.length === 1)) return { interpreter: kind, readsStdin: true };
  if (sub === undefined) return null;
  return undefined;
}

/** PowerShell parameters: case-insensitive, any unambiguous prefix, `-` or `--`. */
const PS_COMMAND = /^--?c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?$/i;
const PS_ENCODED = /^--?e(?:c|n(?:c(?:o(?:d(?:e(?:d(?:c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?)?)?)?)?)?)?)?$/i;
const PS_FILE = /^--?f(?:i(?:l(?:e)?)?)?$/i;

/**
 * `pwsh -Command code…` (the rest of the words are the program; `-Command -` reads stdin),
 * `pwsh -EncodedCommand <base64 UTF-16LE>` (decoded, so the blacklist sees the program),
 * `pwsh -File x.ps1`; `pwsh` alone reads commands from stdin.
 */
function powershellCall(words: readonly Word[]): InterpreterCall {
  for (let i = 1; i < words.length; i++) {
    const arg = words[i]!.value;
    if (PS_COMMAND.test(arg)) {
      const code = words.slice(i + 1).map((w) => w.value).join(' ');
      return code === '-' || code === '' ? { interpreter: 'pwsh', readsStdin: true } : { interpreter: 'pwsh', code, readsStdin: false };
    }
    if (PS_ENCODED.test(arg)) {
      const encoded = words[i + 1]?.value ?? '';
      return { interpreter: 'pwsh', code: Buffer.from(encoded, 'base64').toString('utf16le') || encoded, readsStdin: false };
    }
    if (PS_FILE.test(arg)) return { interpreter: 'pwsh', readsStdin: words[i + 1]?.value === '-' };
    if (!arg.startsWith('-')) return { interpreter: 'pwsh', code: words.slice(i).map((w) => w.value).join(' '), readsStdin: false }; // a bare command is -Command's
  }
  return { interpreter: 'pwsh', readsStdin: true };
}

/** Calls through which a program runs a shell command (AppleScript: `do shell script "…"`). */
const SHELL_CALLS =
  /\bshell\s+script\b|\bCommand\s*\(|\b(?:system|popen|spawn\w*|exec\w*|subprocess|check_output|call|run|Popen|shell_exec|passthru|proc_open|child_process|execute|Runtime|getoutput|getstatusoutput)\b|`|\bqx\s*[^\w\s]|%x\s*[^\w\s]|\|\s*"|\|&?\s*getline/;

/**
 * Shell commands a program may run: its string literals (and lists of string literals joined as
 * argv) when it calls a shell at all. Bounded: at most `limit` strings.
 */
export function shellStringsInCode(code: string, limit = 32): string[] {
  if (!SHELL_CALLS.test(code)) return [];
  const strings: string[] = [];
  const literal = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
  for (const match of code.matchAll(literal)) {
    if (strings.length >= limit) break;
    const value = unescapeLiteral(match[1] ?? match[2] ?? match[3] ?? '');
    if (value.trim() !== '') strings.push(value);
  }
  // spawn('rm', ['-rf', x]), execFile("rm", […]), new Deno.Command("rm", {args: […]}): program and argv.
  for (const call of code.matchAll(/(['"])([^'"\s]+)\1\s*,\s*(?:\{[^}]*?\bargs\s*:\s*)?\[([^\]]*)\]/g)) {
    if (strings.length >= limit) break;
    const items = [...call[3]!.matchAll(/'([^']*)'|"([^"]*)"|([^\s,'"]+)/g)].map((m) => m[1] ?? m[2] ?? `$${m[3]!.replace(/\W/g, '_')}`);
    strings.push([call[2]!, ...items].map((w) => (w.startsWith('$') ? w : shellQuote(w))).join(' '));
  }
  // ['rm', '-rf', '/x'] / ("rm", "-rf", x): an argv list.
  for (const list of code.matchAll(/[[(]\s*((?:(?:'[^']*'|"[^"]*")\s*,\s*)+(?:'[^']*'|"[^"]*"))\s*,?\s*[\])]/g)) {
    if (strings.length >= limit) break;
    const items = [...list[1]!.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2] ?? '');
    strings.push(items.map(shellQuote).join(' '));
  }
  return strings;
}

function unescapeLiteral(text: string): string {
  return text.replace(/\\(.)/g, (_, ch: string) => (ch === 'n' ? '\n' : ch === 't' ? '\t' : ch));
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./@%+=,:~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
