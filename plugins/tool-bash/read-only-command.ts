/**
 * Whether a bash command only reads, so it may run alongside the other such calls of a model turn
 * (four `sleep`s, `git status` beside `rg`, `ls` beside `cat`). Deliberately narrow: a command is
 * read-only only when the parser sees every program it runs, each is a known reader
 * (reader-programs.ts, git-readers.ts) used with no option that writes or runs a program and none
 * its table does not know, and nothing is redirected into a file. Anything else — a build, a test
 * run, an interpreter, a program or option the tables do not know — is "may write" and runs alone,
 * in the model's order. Getting this wrong costs ordering, not safety: the permission layers judge
 * every call the same either way; so when in doubt, "may write".
 */
import { XARGS_INPUT, type ParsedCommand, type ShellSegment } from '../../sdk/shell-command/index.js';
import { gitReadsOnly } from './git-readers.js';
import { scanOptions } from './option-scan.js';
import { optionsReadOnly, READERS } from './reader-programs.js';

/**
 * Redirections that write no file: duplicating or closing a descriptor (`2>&1`, `>&2`, `<&0`,
 * `>&-`, `2>&1-`). `>&word` with any other word is `&>word`, a file.
 */
const DESCRIPTOR_TARGET = /^(?:\d+-?|-)?$/;
/** Files a redirection may write into without writing a file. */
const HARMLESS_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
/** Reading redirections: a file or a here-document on stdin. */
const READING_OPS = new Set(['<', '<<', '<<-', '<<<']);

/**
 * Variables a command may set: a lowercase name is the shell's own (`f=a.ts; cat $f`), and these
 * only change formats. Others can make a reader run or write something (`PATH`, `GIT_*`,
 * `RIPGREP_CONFIG_PATH`, `LD_PRELOAD`, `HOME` for git's config, `BASH_ENV`).
 */
const HARMLESS_VARIABLE =
  /^(?:[a-z_][a-z0-9_]*|LC_[A-Z]+|LANG|LANGUAGE|TZ|COLUMNS|LINES|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|TERM|GREP_COLORS?|LS_COLORS|TIME_STYLE|QUOTING_STYLE|BLOCK_SIZE|POSIXLY_CORRECT)$/;

/** Where a program named by path is still the system's own (`/usr/bin/time`). */
const SYSTEM_PROGRAM = /^\/(?:usr\/(?:local\/)?)?s?bin\/([^/]+)$|^\/opt\/homebrew\/bin\/([^/]+)$/;

/**
 * Expansions the parser leaves in a word: a parameter or command substitution (`$opts`, `$(…)`,
 * `` `…` ``; a `$` before anything else stays a `$`, as in a pattern's `foo$`), and a brace
 * expansion that can start a word with `-` (`-{o,x}out`, `{-o,x}`).
 */
const SUBSTITUTION = /\$[A-Za-z_{(0-9@*#?$!]|`/;
const OPTION_BRACES = /^(?:-[^]*)?\{[^{}]*(?:,|\.\.)[^{}]*\}/;

export function isReadOnlyCommand(parsed: ParsedCommand): boolean {
  if (parsed.parseError !== undefined || parsed.opaque !== undefined || parsed.hasFunctionDefinition) return false;
  return parsed.segments.length > 0 && parsed.segments.every(readOnlySegment);
}

function readOnlySegment(segment: ShellSegment): boolean {
  if (segment.unknownCommands !== undefined || segment.inlineCode !== undefined) return false;
  if (!segment.redirects.every(harmlessRedirect)) return false;
  if (!segment.assignments.every(harmlessAssignment)) return false;
  if (segment.argv.length === 0) return true; // assignments only: they last for this shell
  return readOnlyArgv(segment.argv, false);
}

function harmlessRedirect(redirect: { op: string; target: string }): boolean {
  if (READING_OPS.has(redirect.op)) return true;
  if (redirect.op === '>&' || redirect.op === '<&' || redirect.op === '>&-' || redirect.op === '<&-') return DESCRIPTOR_TARGET.test(redirect.target);
  return HARMLESS_FILES.has(redirect.target);
}

function harmlessAssignment(assignment: string): boolean {
  const eq = assignment.indexOf('=');
  return eq > 0 && HARMLESS_VARIABLE.test(assignment.slice(0, eq).replace(/\+$/, ''));
}

/**
 * One command's words. `fromXargs`: xargs appends words read from stdin (or puts them in place
 * of `-I`'s string), which may be options, so only a program no option of which writes will do.
 */
function readOnlyArgv(argv: readonly string[], fromXargs: boolean): boolean {
  const [program, ...args] = argv;
  const name = program === undefined ? undefined : programName(program);
  const spec = name === undefined ? undefined : READERS.get(name);
  if (fromXargs && spec?.kind !== 'any') return false;
  if (name === 'git') return !args.some(mayBecomeOptions) && gitReadsOnly(args);
  switch (spec?.kind) {
    case 'any':
      return true;
    case 'options':
      return !args.some(mayBecomeOptions) && optionsReadOnly(spec, args);
    case 'custom':
      return !args.some(mayBecomeOptions) && spec.readOnly(args);
    case 'wrapper': {
      const scanned = scanOptions(args, spec.table);
      if (scanned === undefined) return false;
      let command = scanned.rest.slice(spec.positional ?? 0);
      if (name === 'env') {
        // `env -` is `env -i`; NAME=value words set variables for the command.
        while (command[0] === '-') command = command.slice(1);
        while (command[0]?.includes('=')) {
          if (!harmlessAssignment(command[0])) return false;
          command = command.slice(1);
        }
      }
      if (args.slice(0, args.length - command.length).some(mayBecomeOptions)) return false;
      // With no command, xargs runs echo; the others print or fail.
      return command.length === 0 || readOnlyArgv(command, fromXargs || name === 'xargs');
    }
    default:
      return false;
  }
}

/**
 * For a program some options of which write: the parser's stand-in for what xargs appends, and a
 * word the shell still expands (`$opts`, `` `…` ``, `-{o,x}`), may turn into such options.
 */
function mayBecomeOptions(word: string): boolean {
  return word === XARGS_INPUT || SUBSTITUTION.test(word) || OPTION_BRACES.test(word);
}

/** The program a command word runs, when it is a known place: a bare name or a system directory. */
function programName(word: string): string | undefined {
  if (!word.includes('/')) return word;
  const match = SYSTEM_PROGRAM.exec(word);
  return match ? (match[1] ?? match[2]) : undefined;
}
