/**
 * Wrappers whose command may be a shell string given in an option or an operand, each read as its
 * program reads it: `su`/`runuser` (GNU getopt with permutation: `su user -c CMD`; without `-c`
 * the words after the user go to the shell, unknown), `runuser -u USER CMD…`, `script` (util-linux
 * `-c CMD`, permuting; BSD `script FILE CMD…`: both readings are judged), `flock` (`flock FILE
 * CMD…`, `flock FILE -c CMD` with exactly `-c` or `--command`), `watch` (its words joined for
 * `sh -c`, run as they are with `-x`), and multi-call binaries (`busybox APPLET …`).
 */
import { has, readOptions, type OptionSyntax, type ParsedOption, type ReadResult } from './getopt.js';
import type { Unwrapped, Word } from './shell-shapes.js';

const NONE: Unwrapped = { commands: [], scripts: [], readsStdin: false };

const SU: OptionSyntax = {
  short: 'c:fg:G:lmpPTs:u:hVw:',
  long: 'command: session-command: fast login preserve-environment pty no-pty shell: group: supp-group: user: whitelist-environment: help version',
  permute: true,
};
const SCRIPT_GNU: OptionSyntax = {
  short: 'aB:c:eE:fI:O:o:qm:T:t::Vh',
  long: 'append command: echo: return flush force log-in: log-out: log-io: log-timing: logging-format: output-limit: quiet timing:: version help',
  permute: true,
};
const SCRIPT_BSD: OptionSyntax = { short: '+adeFfkpqrt:T:' };
const FLOCK: OptionSyntax = {
  short: '+sexnoFuw:E:hVc:',
  long: 'shared exclusive unlock nonblocking|nb timeout|wait: conflict-exit-code: close no-fork verbose fcntl start: length: fd: command: help version',
};
const WATCH: OptionSyntax = {
  short: '+bCcd::efghn:pq:rs:tvwx',
  long: 'beep color no-color differences:: errexit follow chgexit interval: precise equexit: no-rerun shotsdir: no-title no-wrap exec help version',
};

const HELP = ['h', 'help', 'V', 'version'];

/** Shell strings of the options `names`; a computed one makes the run unknown. */
function strings(options: readonly ParsedOption[], names: readonly string[]): { scripts: string[]; unknown?: string } {
  const values = options.filter((o) => names.includes(o.name) && o.value !== undefined).map((o) => o.value!);
  const computed = values.some((v) => !v.literal);
  return { scripts: values.filter((v) => v.literal).map((v) => v.value), ...(computed ? { unknown: 'a computed command string' } : {}) };
}

/** Why the words cannot be read as the program reads them (see option-wrappers.ts); undefined if they can. */
function unreadable(name: string, read: ReadResult, words: readonly Word[]): string | undefined {
  if (read.problems.length > 0) return `${name} ${read.problems[0]!.text}`;
  const split = words.slice(1).find((w) => w.split);
  return split ? `${name}'s word ${split.value} is an unquoted expansion or glob, which may become several words` : undefined;
}

function withUnknown(found: Unwrapped, unknown: string | undefined): Unwrapped {
  return unknown && !found.unknown ? { ...found, unknown } : found;
}

/** `su [options] [-] [user [args…]]`, `runuser` likewise, and `runuser -u user [--] cmd…`. */
export function suInvocation(name: string, words: readonly Word[]): Unwrapped {
  const read = readOptions(words, 1, SU);
  const unknown = unreadable(name, read, words);
  if (has(read.options, HELP)) return withUnknown(NONE, unknown);
  const operands = read.operands.map((i) => words[i]!);
  if (name === 'runuser' && has(read.options, ['u', 'user'])) {
    return withUnknown(operands.length > 0 ? { commands: [{ words: operands, assignments: [] }], scripts: [], readsStdin: false } : NONE, unknown);
  }
  const found = strings(read.options, ['c', 'C', 'command', 'session-command']);
  if (found.scripts.length > 0 || found.unknown) return withUnknown({ ...NONE, ...found }, unknown);
  // Without -c the user's shell starts: it gets the words after the user, and reads stdin.
  const shellArgs = operands.filter((w, i) => !(i === 0 && w.value === '-')).slice(1);
  return withUnknown(shellArgs.length > 0 ? { ...NONE, unknown: `${name} passing arguments to a login shell` } : { ...NONE, readsStdin: true }, unknown);
}

/** util-linux `script [options] [file]` with `-c CMD`, and BSD `script [options] [file [command…]]`. */
export function scriptInvocation(words: readonly Word[]): Unwrapped {
  const gnu = readOptions(words, 1, SCRIPT_GNU);
  const bsd = readOptions(words, 1, SCRIPT_BSD);
  const gnuUnknown = unreadable('script', gnu, words);
  const unknown = gnuUnknown !== undefined && unreadable('script', bsd, words) !== undefined ? gnuUnknown : undefined;
  if (has(gnu.options, HELP) && bsd.problems.length > 0) return withUnknown(NONE, unknown);
  const found = strings(gnu.options, ['c', 'command']);
  const bsdCommand = bsd.problems.length === 0 && bsd.operands.length >= 2 ? bsd.operands.slice(1).map((i) => words[i]!) : [];
  // Without a command either reading starts a shell reading stdin.
  const readsStdin = found.scripts.length === 0 && !found.unknown && bsdCommand.length === 0;
  return withUnknown({ commands: bsdCommand.length > 0 ? [{ words: bsdCommand, assignments: [] }] : [], scripts: found.scripts, readsStdin, ...(found.unknown ? { unknown: found.unknown } : {}) }, unknown);
}

/** `flock [options] FILE CMD…`, `flock [options] FILE -c CMD`, `flock --fd N CMD…`. */
export function flockInvocation(words: readonly Word[]): Unwrapped {
  const read = readOptions(words, 1, FLOCK);
  let unknown = unreadable('flock', read, words);
  // flock compares its command option with strcmp: `-c` or `--command` exactly.
  const command = read.options.filter((o) => o.name === 'c' || o.name === 'command');
  if (command.some((o) => words[o.at]!.value !== '-c' && words[o.at]!.value !== '--command')) unknown ??= 'flock with a command option it does not take';
  if (has(read.options, HELP)) return withUnknown(NONE, unknown);
  const rest = read.operands.map((i) => words[i]!);
  const viaOption = strings(command, ['c', 'command']);
  if (viaOption.scripts.length > 0 || viaOption.unknown) return withUnknown({ ...NONE, ...viaOption }, unknown);
  if (has(read.options, ['fd'])) return withUnknown(rest.length > 0 ? { commands: [{ words: rest, assignments: [] }], scripts: [], readsStdin: false } : NONE, unknown);
  const after = rest.slice(1);
  if (after[0]?.value === '-c' || after[0]?.value === '--command') {
    const source = after[1];
    if (!source) return withUnknown(NONE, unknown);
    return withUnknown(source.literal ? { ...NONE, scripts: [source.value] } : { ...NONE, unknown: 'flock -c with a computed command string' }, unknown);
  }
  return withUnknown(after.length > 0 ? { commands: [{ words: after, assignments: [] }], scripts: [], readsStdin: false } : NONE, unknown);
}

/** `watch [options] CMD…`: the words joined with spaces for `sh -c`, or run as they are with `-x`. */
export function watchInvocation(words: readonly Word[]): Unwrapped {
  const read = readOptions(words, 1, WATCH);
  const own = words.slice(1, read.end).find((w) => w.split);
  const unknown = read.problems.length > 0 ? `watch ${read.problems[0]!.text}` : own ? `watch's own word ${own.value} is an unquoted expansion or glob` : undefined;
  const rest = words.slice(read.end);
  if (has(read.options, HELP) || rest.length === 0) return withUnknown(NONE, unknown);
  if (has(read.options, ['x', 'exec'])) return withUnknown({ commands: [{ words: rest, assignments: [] }], scripts: [], readsStdin: false }, unknown);
  return withUnknown({ ...NONE, scripts: [rest.map((w) => w.value).join(' ')] }, unknown);
}

/** `busybox APPLET args…`, `toybox APPLET args…`; `busybox --list`, `--install`, … run nothing. */
export function multiCallInvocation(name: string, words: readonly Word[]): Unwrapped {
  const applet = words[1];
  if (!applet) return NONE;
  if (applet.split) return { ...NONE, unknown: `${name}'s applet ${applet.value} is an unquoted expansion or glob` };
  if (applet.value.startsWith('-')) {
    return /^--(?:list|list-full|install|help|show|version)$/.test(applet.value) || (name === 'toybox' && applet.value === '--long') ? NONE : { ...NONE, unknown: `${name} ${applet.value} is not an option the analysis knows` };
  }
  return { commands: [{ words: words.slice(1), assignments: [] }], scripts: [], readsStdin: false };
}

/** `sg [-] GROUP [[-c] COMMAND]`: COMMAND is one word, run with `/bin/sh -c`; none starts a shell reading stdin. */
export function sgInvocation(words: readonly Word[]): Unwrapped {
  let i = 1;
  if (words[i]?.value === '-') i++;
  const group = words[i];
  if (!group || group.value.startsWith('-')) return NONE; // usage message
  i++;
  if (words[i]?.value === '-c') i++;
  const own = words.slice(1, i).find((w) => w.split);
  const unknown = own ? `sg's word ${own.value} is an unquoted expansion or glob, which may move its command` : undefined;
  const command = words[i];
  if (!command) return withUnknown({ ...NONE, readsStdin: true }, unknown);
  return withUnknown(command.literal ? { ...NONE, scripts: [command.value] } : { ...NONE, unknown: 'sg running a computed command string' }, unknown);
}

/**
 * `capsh [ARG…]`: capsh acts on its words in order (each `--name` or `--name=value`, compared
 * whole); `--` or `-+` hands the rest to the shell (`/bin/bash`, or `--shell=PATH`), `==` or `=+`
 * to capsh itself. Without one of them it runs nothing.
 */
export function capshInvocation(words: readonly Word[]): Unwrapped {
  let shell: Word | undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word.split) return { ...NONE, unknown: `capsh's word ${word.value} is an unquoted expansion or glob, which may move its command` };
    if (word.value.startsWith('--shell=')) shell = { ...word, value: word.value.slice('--shell='.length) };
    const toShell = word.value === '--' || word.value === '-+';
    if (!toShell && word.value !== '==' && word.value !== '=+') continue;
    const program: Word = toShell ? (shell ?? { ...word, value: 'bash', literal: true }) : { ...word, value: 'capsh', literal: true };
    if (!program.literal) return { ...NONE, unknown: 'capsh --shell with a computed path' };
    return { commands: [{ words: [program, ...words.slice(i + 1)], assignments: [] }], scripts: [], readsStdin: false };
  }
  return NONE;
}
