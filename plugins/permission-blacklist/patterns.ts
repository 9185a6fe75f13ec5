/**
 * The ten blacklist patterns (A2), judged on the words of one simple command
 * (argv after shell unquoting) rather than by regexes over the whole command line, so spacing,
 * quoting, flag order and flag spelling do not matter, and `echo "rm -rf /"` is not a hit.
 *
 *  1 recursive rm of /, the home directory, a top-level system directory, or a glob over them
 *  2 dd writing to a block device (of=)
 *  3 fork bomb (see fork-bomb.ts)
 *  4 mkfs / mkfs.* / mke2fs / mkdosfs / mkntfs
 *  5 writing to a block device with a redirection (>, >>, &>, &>>, >|, >&, <>) or tee
 *  6 recursive world-writable chmod (777, 0777, a+w, o+w …) of / or a system directory
 *  7 dd writing to any other device file (of=/dev/mem, /dev/port …; not /dev/null, /dev/stdout …)
 *  8 rm with --no-preserve-root (any spelling GNU rm accepts)
 *  9 mv of or onto /etc/passwd|shadow|sudoers|group|gshadow, sudoers.d, /boot; cp/install/ln/dd/
 *    tee/redirection onto them
 * 10 wiping disks: wipefs, blkdiscard, shred of a block device, dd reading a block device
 */
import type { ShellSegment } from '../../sdk/shell-command/index.js';
import { DESTRUCTIVE_VERBS, destructiveOutside } from './destructive.js';
import { interpreterRemovingTree } from './interpreter-removal.js';
import {
  HOME,
  catastrophicDeleteTarget,
  criticalFile,
  expandBraces,
  isBlockDevice,
  isDeviceFile,
  isEverythingHere,
  landsOnCriticalFile,
  operandForms,
  protectedChmodTarget,
  type Where,
} from './targets.js';
import type { Hit } from './hit.js';

export type { Hit } from './hit.js';

type Checker = (args: string[], where: Where) => Hit | undefined;

/** GNU coreutils installed with a `g` prefix (macOS Homebrew) are the same commands. */
const ALIASES: Record<string, string> = { grm: 'rm', gdd: 'dd', gchmod: 'chmod', gmv: 'mv', gcp: 'cp', gln: 'ln', ginstall: 'install', gtee: 'tee', gshred: 'shred' };

export function commandNameOf(word: string | undefined): string | undefined {
  if (word === undefined || word === '') return undefined;
  const base = word.slice(word.lastIndexOf('/') + 1).toLowerCase(); // macOS file systems ignore case
  return Object.hasOwn(ALIASES, base) ? ALIASES[base]! : base;
}

/** Splits options from operands (`--` ends options); short clusters and long options as written. */
function splitOptions(args: string[], takesValue: (option: string) => boolean = () => false): { options: string[]; operands: string[] } {
  const options: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      options.push(arg);
      if (takesValue(arg) && !arg.includes('=')) options.push(args[++i] ?? '');
    } else operands.push(arg);
  }
  return { options, operands };
}

/** GNU getopt_long accepts any unambiguous prefix of a long option (`--rec`, `--no-preserve`). */
function longOption(option: string, full: string, minimum = 3): boolean {
  const name = option.split('=')[0]!;
  return name.length >= minimum && full.startsWith(name);
}

function shortFlag(option: string, flags: string): boolean {
  return /^-[A-Za-z0-9]+$/.test(option) && [...flags].some((flag) => option.includes(flag));
}

const checkRm: Checker = (args, where) => {
  const { options, operands } = splitOptions(args);
  if (options.some((o) => longOption(o, '--no-preserve-root'))) return { pattern: 'rm with --no-preserve-root' };
  const recursive = options.some((o) => shortFlag(o, 'rR') || longOption(o, '--recursive'));
  if (!recursive) return undefined;
  for (const operand of operands) {
    for (const form of operandForms(operand, where)) {
      const target = catastrophicDeleteTarget(form);
      if (target) return { pattern: `recursive rm of ${target}` };
    }
    if (where.cwd === undefined && isEverythingHere(operand)) return { pattern: `recursive rm of "${operand}" in a directory that cannot be determined` };
  }
  return undefined;
};

function ddOperands(args: string[]): Map<string, string> {
  const operands = new Map<string, string>();
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq > 0 && !arg.startsWith('-')) operands.set(arg.slice(0, eq), arg.slice(eq + 1));
  }
  return operands;
}

const checkDd: Checker = (args, where) => {
  const operands = ddOperands(args);
  const output = operands.get('of');
  if (output !== undefined) {
    for (const form of operandForms(output, where)) {
      if (isBlockDevice(form)) return { pattern: `dd writing to the block device ${form}` };
      if (criticalFile(form)) return { pattern: `dd overwriting ${form}` };
      if (isDeviceFile(form)) return { pattern: `dd writing to the device ${form}` };
    }
  }
  const input = operands.get('if');
  if (input !== undefined) {
    for (const form of operandForms(input, where)) if (isBlockDevice(form)) return { pattern: `dd on the whole disk ${form}` };
  }
  return undefined;
};

const FORMATTERS = new Set(['mkfs', 'mke2fs', 'mkdosfs', 'mkntfs', 'mkexfatfs', 'newfs']);

function isFormatter(name: string): boolean {
  return FORMATTERS.has(name) || name.startsWith('mkfs.') || name.startsWith('newfs_');
}

/** Numeric modes whose "others" digit has the write bit; symbolic clauses giving a/o write. */
function worldWritableMode(mode: string): boolean {
  if (/^[0-7]{1,5}$/.test(mode)) return (Number(mode[mode.length - 1]) & 2) === 2;
  return mode.split(',').some((clause) => {
    const match = /^([ugoa]*)([-+=].*)$/.exec(clause);
    if (!match) return false;
    const who = match[1]!;
    if (!(who.includes('a') || who.includes('o'))) return false;
    return [...match[2]!.matchAll(/([-+=])([rwxXstugo]*)/g)].some(([, op, perms]) => op !== '-' && perms!.includes('w'));
  });
}

const checkChmod: Checker = (args, where) => {
  const { options, operands } = splitOptions(args, (o) => o === '--reference');
  const recursive = options.some((o) => shortFlag(o, 'R') || longOption(o, '--recursive'));
  if (!recursive) return undefined;
  // chmod [OPTION]… MODE FILE…: the first operand is the mode, unless `--reference` gives it or
  // GNU chmod found a `-w`-style mode among the options (then every operand is a file). The mode
  // word is never a target (`chmod -R 777 dir/` changes dir/, not ./777).
  const reference = options.some((o) => o.startsWith('--') && longOption(o, '--reference'));
  const modeOptions = options.filter((o) => !o.startsWith('--') && /[rwxXst0-7]/.test(o) && /^-[rwxXstugoa0-7,+=]+$/.test(o.replace(/[Rcfv]/g, '')));
  const modes = reference ? [] : modeOptions.length > 0 ? modeOptions : operands.slice(0, 1);
  const files = reference || modeOptions.length > 0 ? operands : operands.slice(1);
  const dangerous = modes.find(worldWritableMode);
  for (const operand of files) {
    for (const form of operandForms(operand, where)) {
      if (!protectedChmodTarget(form)) continue;
      if (dangerous) return { pattern: `recursive chmod ${dangerous} of ${form === HOME ? 'the home directory' : form}` };
      if (form === '/' || /^\/[*?]+$/.test(form)) return { pattern: `recursive chmod of ${form}` };
    }
  }
  return undefined;
};

const checkMv: Checker = (args, where) => {
  const { options, operands } = splitOptions(args, (o) => o === '-t' || o === '-S' || o === '--target-directory' || o === '--suffix');
  const targetOption = options.findIndex((o) => o === '-t' || o.startsWith('--target-directory'));
  const targetDir = targetOption === -1 ? undefined : options[targetOption]!.includes('=') ? options[targetOption]!.split('=')[1] : options[targetOption + 1];
  const all = targetDir === undefined ? operands : [...operands, targetDir];
  for (const operand of all) {
    for (const form of operandForms(operand, where)) if (criticalFile(form)) return { pattern: `mv of or onto ${form}` };
  }
  const destination = targetDir ?? operands[operands.length - 1];
  const sources = targetDir === undefined ? operands.slice(0, -1) : operands;
  if (destination !== undefined) {
    for (const dir of operandForms(destination, where)) {
      const source = sources.find((s) => landsOnCriticalFile(s, dir));
      if (source !== undefined) return { pattern: `mv of ${source} onto ${dir}/${source.slice(source.lastIndexOf('/') + 1)}` };
    }
  }
  return undefined;
};

/** cp / install / ln: only the destination matters (copying *from* /etc/passwd is harmless). */
const checkCopy: Checker = (args, where) => {
  const { options, operands } = splitOptions(args, (o) => ['-t', '-S', '-m', '-o', '-g', '--target-directory', '--suffix', '--mode', '--owner', '--group'].includes(o));
  const targetOption = options.findIndex((o) => o === '-t' || o.startsWith('--target-directory'));
  const targetDir = targetOption === -1 ? undefined : options[targetOption]!.includes('=') ? options[targetOption]!.split('=')[1] : options[targetOption + 1];
  const destination = targetDir ?? (operands.length >= 2 ? operands[operands.length - 1] : undefined);
  if (destination === undefined) return undefined;
  const sources = targetDir === undefined ? operands.slice(0, -1) : operands;
  for (const form of operandForms(destination, where)) {
    if (criticalFile(form)) return { pattern: `overwriting ${form}` };
    if (isBlockDevice(form)) return { pattern: `writing to the block device ${form}` };
    const source = sources.find((s) => landsOnCriticalFile(s, form));
    if (source !== undefined) return { pattern: `overwriting ${form}/${source.slice(source.lastIndexOf('/') + 1)}` };
  }
  return undefined;
};

const checkTee: Checker = (args, where) => {
  const { operands } = splitOptions(args);
  for (const operand of operands) {
    for (const form of operandForms(operand, where)) {
      if (isBlockDevice(form)) return { pattern: `tee writing to the block device ${form}` };
      if (criticalFile(form)) return { pattern: `tee overwriting ${form}` };
    }
  }
  return undefined;
};

const checkWipe = (name: string): Checker => (args, where) => {
  const { options, operands } = splitOptions(args);
  if (operands.length === 0 && options.every((o) => /^(-h|-V|--help|--version)$/.test(o))) return undefined;
  if (name === 'wipefs' || name === 'blkdiscard') return { pattern: `${name} (erases disk signatures or data)` };
  // shred of an ordinary file is a normal way to delete a secret; of a disk it is a wipe.
  for (const operand of operands) for (const form of operandForms(operand, where)) if (isBlockDevice(form)) return { pattern: `shred of the block device ${form}` };
  return undefined;
};

/** find primaries that do not narrow what is matched. */
const FIND_UNFILTERED = /^-(depth|mindepth|maxdepth|xdev|mount|follow|noleaf|ignore_readdir_race|print|print0|delete|exec|execdir|ok|okdir|[HLP])$/;

/**
 * `find / -delete`, `find ~ -exec rm -rf {} +`: deleting everything under / or the home
 * directory. A test that narrows the match (`-name '*.tmp'`) makes it an ordinary clean-up.
 */
const checkFind: Checker = (args, where) => {
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const starts = firstExpression === -1 ? args : args.slice(0, firstExpression);
  const expression = firstExpression === -1 ? [] : args.slice(firstExpression);
  let deletes = false;
  for (let i = 0; i < expression.length; i++) {
    const word = expression[i]!;
    if (/^-(exec|execdir|ok|okdir)$/.test(word)) {
      deletes ||= /^(rm|shred|unlink)$/.test(commandNameOf(expression[i + 1]) ?? '');
      while (i < expression.length && expression[i] !== ';' && expression[i] !== '+') i++;
      continue;
    }
    if (word === '-delete') deletes = true;
    else if (/^-(mindepth|maxdepth)$/.test(word)) i++;
    else if (!FIND_UNFILTERED.test(word)) return undefined;
  }
  if (!deletes) return undefined;
  for (const start of starts) {
    for (const form of operandForms(start, where)) {
      const target = catastrophicDeleteTarget(form);
      if (target) return { pattern: `find deleting everything under ${target}` };
    }
  }
  return undefined;
};

const CHECKERS: Record<string, Checker> = {
  rm: checkRm,
  find: checkFind,
  dd: checkDd,
  chmod: checkChmod,
  mv: checkMv,
  cp: checkCopy,
  install: checkCopy,
  ln: checkCopy,
  tee: checkTee,
  wipefs: checkWipe('wipefs'),
  blkdiscard: checkWipe('blkdiscard'),
  shred: checkWipe('shred'),
};

/** Commands whose arguments make a hit recognisable even when the command name is computed. */
const GUESSABLE = ['rm', 'dd', 'chmod', 'mv', 'find'];

/** Redirection operators that write to their target. */
const WRITING_REDIRECTS = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&']);

/** Whether checkWords has anything to say about a command of this name (used to skip words fast). */
export function isCheckedCommand(name: string, word: string): boolean {
  return Object.hasOwn(CHECKERS, name) || DESTRUCTIVE_VERBS.includes(name) || isFormatter(name) || word.includes('$') || word.includes('`');
}

/** Checks one segment's words and redirections. */
export function checkSegment(segment: ShellSegment, where: Where): Hit | undefined {
  for (const redirect of segment.redirects) {
    if (!WRITING_REDIRECTS.has(redirect.op)) continue;
    if (redirect.op === '>&' && /^(\d+|-)$/.test(redirect.target)) continue; // fd duplication, not a file
    for (const form of operandForms(redirect.target, where)) {
      if (isBlockDevice(form)) return { pattern: `redirect (${redirect.op}) to the block device ${form}` };
      if (criticalFile(form)) return { pattern: `redirect (${redirect.op}) overwriting ${form}` };
    }
  }
  if (segment.inlineCode) {
    const hit = interpreterRemovingTree(segment.inlineCode.interpreter, segment.inlineCode.code, where);
    if (hit) return hit;
  }
  const hit = checkWords(gitEnvironmentAsOptions(segment), where);
  if (hit) return hit;
  // `rm${IFS}-rf${IFS}~`, `${x:-rm} -rf ~`: the words bash would see after those expansions.
  const expanded = expandSplitting(segment.argv);
  return expanded ? checkWords(expanded, where) : undefined;
}

/** `GIT_WORK_TREE=x GIT_DIR=y git …` as `git --work-tree=x --git-dir=y …` (the git verb reads options). */
function gitEnvironmentAsOptions(segment: ShellSegment): readonly string[] {
  if (commandNameOf(segment.argv[0]) !== 'git') return segment.argv;
  const options = segment.assignments.flatMap((a) => (a.startsWith('GIT_WORK_TREE=') ? [`--work-tree=${a.slice(14)}`] : a.startsWith('GIT_DIR=') ? [`--git-dir=${a.slice(8)}`] : []));
  return options.length === 0 ? segment.argv : [segment.argv[0]!, ...options, ...segment.argv.slice(1)];
}

/** `$IFS` / `${IFS…}` as a space and `${X:-word}` / `${X-word}` / `${X:=word}` as `word`, re-split; undefined when nothing changes. */
export function expandSplitting(argv: readonly string[]): string[] | undefined {
  if (!argv.some((w) => w.includes('$') || w.includes('{'))) return undefined;
  const words = argv.flatMap((word) =>
    word
      .replace(/\$\{IFS[^}]*\}|\$IFS\b/g, ' ')
      .replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=]([^}]*)\}/g, '$1')
      .split(/\s+/)
      .filter((w) => w !== '')
      .flatMap((piece) => (/^\{[^{}]*,[^{}]*\}$/.test(piece) ? expandBraces(piece) : [piece])),
  );
  return words.join('\u0000') === argv.join('\u0000') ? undefined : words;
}

export function checkWords(argv: readonly string[], where: Where): Hit | undefined {
  const first = argv[0];
  const name = commandNameOf(first);
  if (name === undefined) return undefined;
  const args = argv.slice(1);
  if (isFormatter(name)) return { pattern: `filesystem format (${name})` };
  const checker = Object.hasOwn(CHECKERS, name) ? CHECKERS[name] : undefined;
  const hit = checker?.(args, where) ?? destructiveOutside(name, args, where);
  if (hit) return hit;
  if (first!.includes('$') || first!.includes('`')) {
    // `$RM -rf /`: the name is computed at run time; judge the arguments as each candidate's.
    for (const candidate of GUESSABLE) {
      const guessed = CHECKERS[candidate]!(args, where) ?? destructiveOutside(candidate, args, where);
      if (guessed) return { pattern: `${guessed.pattern} (the command name ${first} is computed at run time)` };
    }
  }
  return undefined;
}
