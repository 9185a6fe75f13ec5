/**
 * The command a wrapper of wrapper-table.ts runs: its words after the wrapper's options (read as
 * the program reads them: getopt.ts), its NAME=value words and its leading operands (timeout's
 * duration, chroot's root). Fail closed: when the words cannot be read as the program reads them
 * — an option the table does not know, an ambiguous abbreviation, a missing value — or when one
 * of the words the wrapper reads itself is an unquoted expansion or glob (the shell may make
 * several words of it, or none, which moves the command), what it runs is `unknown` (any deny rule
 * denies it); the command found by the best reading is still given, for the deny rules and the
 * blacklist to see.
 */
import { splitEnvString } from './env-split.js';
import { has, readOptions, type ParsedOption } from './getopt.js';
import type { Unwrapped, Word } from './shell-shapes.js';
import type { WrapperSpec } from './wrapper-table.js';

const NONE: Unwrapped = { commands: [], scripts: [], readsStdin: false };

/** How deep `env -S` strings that hold another `-S` are followed. */
const MAX_SPLIT_STRINGS = 4;

interface Reading {
  options: ParsedOption[];
  problems: string[];
  /** NAME=value words of env and sudo. */
  assignments: string[];
  /** Index of the first word after the options and assignments. */
  start: number;
  /** sudo -h with no host: the help, which runs nothing. */
  help: boolean;
}

function readWrapper(words: readonly Word[], spec: WrapperSpec): Reading {
  const reading: Reading = { options: [], problems: [], assignments: [], start: words.length, help: false };
  // `setarch ARCH [options] PROGRAM`: util-linux reads the architecture first (none if it starts with `-`).
  const first = spec.archOperand && words[1] !== undefined && !words[1].value.startsWith('-') ? 2 : 1;
  for (let from = first; ; ) {
    const read = readOptions(words, from, spec.options);
    reading.options.push(...read.options);
    reading.problems.push(...read.problems.map((p) => p.text));
    reading.start = read.end;
    if (read.dashDash || read.end >= words.length || spec.assignments !== 'sudo') break;
    // sudo reads NAME=value words among its options, and takes the word after a bare `-h` for
    // the host (parse_args.c: is_envar, got_host_flag); then it reads options again.
    const word = words[read.end]!.value;
    if (!word.startsWith('/') && !word.startsWith('=') && word.includes('=')) reading.assignments.push(word);
    else if (words[read.end - 1]?.value === '-h' && word !== '-') reading.options.push({ name: 'host', value: words[read.end]!, at: read.end });
    else break;
    from = read.end + 1;
  }
  if (spec.assignments === 'sudo') {
    const hosts = reading.options.filter((o) => o.name === 'host').length;
    reading.help = reading.options.filter((o) => o.name === 'h' && o.value === undefined).length > hosts;
  }
  if (spec.assignments === 'env') {
    // `env [OPTION]... [-] [NAME=VALUE]... [COMMAND]`: env takes any word with a `=` for an
    // assignment (putenv), `/bin/rm=x` too.
    if (words[reading.start]?.value === '-') reading.start++;
    while (reading.start < words.length && words[reading.start]!.value.includes('=')) reading.assignments.push(words[reading.start++]!.value);
  }
  return reading;
}

export function optionWrapper(name: string, words: readonly Word[], spec: WrapperSpec, depth = 0): Unwrapped {
  const reading = readWrapper(words, spec);
  if (name === 'env') {
    const split = reading.options.find((o) => o.name === 'S' || o.name === 'split-string');
    if (split?.value) return envSplitString(words, split, spec, depth, reading.problems);
  }
  const leading = spec.numericOperand ? (words.length - reading.start > 1 && /^\d+$/.test(words[reading.start]?.value ?? '') ? 1 : 0) : (spec.operands ?? 0);
  const start = Math.min(words.length, reading.start + leading);
  const unknown = reading.problems.length > 0 ? `${name} ${reading.problems[0]!}` : unknownReason(name, words.slice(0, start), spec, reading.options);
  const result = (found: Unwrapped): Unwrapped => (unknown && !found.unknown ? { ...found, unknown } : found);
  if (reading.help || has(reading.options, spec.noCommand)) return result(NONE);
  const rest = words.slice(start);
  const shell = has(reading.options, spec.shell);
  const scripts = outputCommands(reading.options, spec);
  if (rest.length === 0) return result({ ...NONE, ...scripts, readsStdin: shell || (spec.bare ?? false) });
  return result({ commands: [{ words: rest, assignments: reading.assignments }], ...scripts, readsStdin: false });
}

/** `strace -o '|CMD'`: the output goes to a shell command. */
function outputCommands(options: readonly ParsedOption[], spec: WrapperSpec): { scripts: string[]; unknown?: string } {
  const values = options.filter((o) => spec.outputCommand?.includes(o.name) && o.value !== undefined).map((o) => o.value!);
  if (values.some((v) => !v.literal && /^[$`]/.test(v.value))) return { scripts: [], unknown: 'an output option with a computed value, which may name a command' };
  return { scripts: values.filter((v) => /^[|!]/.test(v.value)).map((v) => v.value.slice(1)) };
}

/**
 * Why what the wrapper runs cannot be known although its options were read (`own`: the words it
 * reads itself, up to its command); undefined if it can.
 */
function unknownReason(name: string, own: readonly Word[], spec: WrapperSpec, options: readonly ParsedOption[]): string | undefined {
  const split = own.slice(1).find((w) => w.split);
  if (split) return `${name}'s own word ${split.value} is an unquoted expansion or glob, which may become several words and move its command`;
  const runs = options.find((o) => spec.runsValue?.includes(o.name));
  if (runs) return `${name} ${runs.name} runs the program it is given`;
  if (name === 'systemd-run') {
    // A unit property may hold commands of its own (ExecStartPre=…, ExecStopPost=…).
    const exec = options.find((o) => /^(?:p|property|timer-property|path-property|socket-property)$/.test(o.name) && (!o.value?.literal || /^\s*Exec/i.test(o.value.value)));
    if (exec) return 'systemd-run running commands given in a unit property';
  }
  return undefined;
}

/**
 * `env -S STRING REST…`: env puts STRING's words where the option was and reads again
 * (env-split.ts). What made the words before it unreadable still makes the run unknown.
 */
function envSplitString(words: readonly Word[], option: ParsedOption, spec: WrapperSpec, depth: number, problems: readonly string[]): Unwrapped {
  const value = option.value!;
  const split = value.literal ? splitEnvString(value) : undefined;
  if (!split || depth >= MAX_SPLIT_STRINGS) return { ...NONE, unknown: value.literal ? 'env -S with a string env splits in a way this analysis does not follow' : 'env -S with a computed string' };
  const valueAt = words.indexOf(value);
  const after = (valueAt === -1 ? option.at : valueAt) + 1;
  const found = optionWrapper('env', [words[0]!, ...split, ...words.slice(after)], spec, depth + 1);
  const before = problems[0] !== undefined ? `env ${problems[0]}` : unknownReason('env', words.slice(0, after), spec, []);
  return before && !found.unknown ? { ...found, unknown: before } : found;
}
