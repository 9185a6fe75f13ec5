/**
 * Whether a bash command only reads, so it may run alongside the other such calls of a model turn
 * (four `sleep`s, `git status` beside `rg`, `ls` beside `cat`). Deliberately narrow: a command is
 * read-only only when the parser sees every program it runs, each is a known reader used in a
 * reading form, and nothing is redirected into a file. Anything else — a build, a test run, an
 * interpreter, a program the list does not know — is "may write" and runs alone, in the model's
 * order. Getting this wrong costs ordering, not safety: the permission layers judge every call
 * the same either way.
 */
import path from 'node:path';
import type { ParsedCommand, ShellSegment } from '../../sdk/shell-command/index.js';

/** Programs that read files or print, and never write unless an option below says so. */
const READERS = new Set([
  'cat', 'head', 'tail', 'wc', 'ls', 'pwd', 'echo', 'printf', 'true', 'false', 'sleep', 'cut', 'tr', 'grep', 'egrep', 'fgrep',
  'rg', 'ag', 'tree', 'du', 'df', 'stat', 'file', 'which', 'type', 'whereis', 'basename', 'dirname', 'realpath', 'readlink',
  'date', 'whoami', 'id', 'uname', 'hostname', 'printenv', 'diff', 'cmp', 'comm', 'md5sum', 'sha1sum', 'sha256sum',
  'sha512sum', 'cksum', 'jq', 'column', 'nl', 'od', 'hexdump', 'strings', 'test', '[', 'seq', 'expr', 'cd', 'pushd', 'popd',
  'nproc', 'free', 'uptime', 'ps', 'env', 'time', 'timeout', 'nice', 'xargs', 'paste', 'fold', 'rev', 'tac', 'look', 'find', 'fd',
  'sort',
]);
/** Readers whose second file operand is an output file (`uniq in out`, `xxd in out`). */
const ONE_OPERAND = new Set(['uniq', 'xxd']);
/** Options that make an otherwise reading program write, run or delete. */
const WRITING_OPTIONS: Readonly<Record<string, RegExp>> = {
  find: /^-(?:exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  fd: /^(?:-x|-X|--exec|--exec-batch)$/,
  sort: /^(?:-o|--output)/,
  tree: /^-o$/,
};
/** `git <subcommand>` forms that only read the repository. */
const GIT_READERS = new Set(['status', 'log', 'diff', 'show', 'blame', 'rev-parse', 'ls-files', 'ls-tree', 'cat-file', 'describe', 'shortlog', 'grep', 'rev-list', 'reflog']);
/** Redirections that write nowhere: into /dev/null, or duplicating a descriptor (`2>&1`). */
const HARMLESS_TARGET = /^(?:\/dev\/null|\d+|-)$/;

export function isReadOnlyCommand(parsed: ParsedCommand): boolean {
  if (parsed.parseError !== undefined || parsed.opaque !== undefined || parsed.hasFunctionDefinition) return false;
  return parsed.segments.length > 0 && parsed.segments.every(readOnlySegment);
}

function readOnlySegment(segment: ShellSegment): boolean {
  if (segment.unknownCommands !== undefined || segment.inlineCode !== undefined) return false;
  if (!segment.redirects.every((r) => r.op.startsWith('<') || HARMLESS_TARGET.test(r.target))) return false;
  const [program, ...args] = segment.argv;
  if (program === undefined) return true; // assignments only: they last for this shell
  const name = path.basename(program);
  if (name === 'git') return readOnlyGit(args);
  if (ONE_OPERAND.has(name)) return args.filter((a) => !a.startsWith('-')).length <= 1;
  if (!READERS.has(name)) return false;
  const writing = WRITING_OPTIONS[name];
  return writing === undefined || !args.some((a) => writing.test(a));
}

/** `git [-C dir] [--no-pager] <reader> …`, without `-c` (it can name a pager or alias) or `--output`. */
function readOnlyGit(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) {
    const option = args[i] as string;
    if (option === '-C') i += 2;
    else if (option === '--no-pager' || option === '-P' || option === '--no-optional-locks') i += 1;
    else return false;
  }
  const subcommand = args[i];
  if (subcommand === undefined || !GIT_READERS.has(subcommand)) return false;
  return !args.slice(i + 1).some((a) => a.startsWith('--output') || a === '-o' || a.startsWith('--ext-diff') || a.startsWith('--textconv'));
}
