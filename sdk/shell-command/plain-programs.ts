/**
 * Fail closed for programs the analysis does not know: many programs run a program named among
 * their operands (`prlimit`, `setarch`, `perf stat`, a project's `./run.sh "$@"`, …), and a table
 * of them can never be complete. So a segment whose program is neither read by the analysis
 * (wrapper-table.ts, the runners of wrappers.ts, shells) nor known to run none of its operands
 * (PLAIN_PROGRAMS below) records, at each later word that could name a program, that a command
 * may start there (ShellSegment.mayRunOperands). Deny and ask rules and the blacklist judge each
 * such tail as a command: when one would be denied, asked or blocked, the segment asks.
 *
 * A word that could name a program: not an option (`-x`, `--pre=rm`: a value glued with `=` is
 * the option's), no space or `=` in it (`git commit -m "rm x"` is one word, no program), not an
 * expansion. Only the first MAX_STARTS such words are tried.
 *
 * PLAIN_PROGRAMS: programs whose operands are files, patterns, names or text, never a program they
 * run — checked against their manuals: readers and filters (`grep rm file`, `cat`, `head`, `wc`,
 * `less`), printers (`echo rm`, `printf`), look-ups (`man rm`, `which rm`, `type rm`, `whatis`,
 * `apt show rm`), file operations (`cp`, `mv`, `rm`, `mkdir`, `chmod`), archivers, and the
 * programs whose running of commands the analysis reads itself (git's `-c` settings, `bisect run`
 * and `submodule foreach`; make's overrides; sed's `e`; man's `-P`; less's `+!`: tool-runners.ts,
 * hidden-runners.ts). A program given by a path outside the system's bin directories
 * (`./tools/grep`) is the project's own: not known.
 */
import { isShell } from './wrappers.js';
import { WRAPPERS } from './wrapper-table.js';

const MAX_STARTS = 32;

export const PLAIN_PROGRAMS: ReadonlySet<string> = new Set([
  // read, filter, compare, count
  'cat', 'tac', 'nl', 'head', 'tail', 'wc', 'less', 'more', 'most', 'bat', 'batcat', 'grep', 'egrep', 'fgrep', 'zgrep', 'ag', 'ack', 'sort', 'uniq', 'cut', 'paste', 'join',
  'tr', 'fold', 'fmt', 'column', 'comm', 'diff', 'diff3', 'sdiff', 'cmp', 'od', 'hexdump', 'xxd', 'strings', 'base64', 'base32', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum',
  'b2sum', 'cksum', 'jq', 'yq', 'look', 'rev', 'expand', 'unexpand', 'iconv', 'numfmt',
  // print and look up
  'echo', 'printf', 'true', 'false', 'test', '[', 'yes', 'seq', 'date', 'cal', 'sleep', 'id', 'whoami', 'groups', 'uname', 'hostname', 'pwd', 'which', 'whereis', 'type',
  'whatis', 'apropos', 'man', 'info', 'help', 'tldr', 'basename', 'dirname', 'realpath', 'readlink', 'file', 'stat', 'du', 'df', 'ls', 'dir', 'vdir', 'tree', 'locate',
  'printenv', 'tty', 'nproc', 'free', 'uptime', 'ps', 'pgrep', 'pidof', 'lsof', 'getent', 'cd', 'pushd', 'popd', 'read', 'set', 'shopt', 'export', 'unset', 'wait', 'jobs',
  // change files (their operands are paths)
  'cp', 'mv', 'rm', 'rmdir', 'mkdir', 'touch', 'ln', 'chmod', 'chown', 'chgrp', 'install', 'mktemp', 'truncate', 'shred', 'dd', 'tee', 'split', 'csplit', 'unlink', 'patch',
  'gzip', 'gunzip', 'zcat', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzip', 'kill', 'pkill', 'killall',
  // look-ups of packages (they install or show packages, never run one named)
  'apt', 'apt-get', 'apt-cache', 'dpkg-query', 'brew', 'pip', 'pip3',
  // programs whose own ways of running commands the analysis reads (tool-runners.ts, hidden-runners.ts, found-runners.ts)
  'git', 'make', 'gmake', 'sed', 'gsed', 'tar', 'gtar', 'bsdtar', 'zip', 'find', 'fd', 'fdfind', 'parallel', 'eval', 'source', '.', 'alias', 'trap', 'su', 'runuser',
  'script', 'flock', 'watch', 'busybox', 'toybox', 'hash', 'enable', 'cmake', 'at', 'batch', 'crontab', 'sg', 'capsh', 'start-stop-daemon', 'rg',
]);

/** A program word is the system's program: a bare name or a path in a system bin directory. */
function systemProgram(word: string): boolean {
  return !word.includes('/') || /^\/(?:usr\/)?(?:local\/)?s?bin\/[^/]+$/.test(word);
}

/** The program reads all its words itself, or runs none of its operands. */
export function knownProgram(name: string, word: string): boolean {
  if (!systemProgram(word)) return false;
  return PLAIN_PROGRAMS.has(name) || isShell(name) || Object.hasOwn(WRAPPERS, name);
}

/** A word that could be the name of a program a command runs. */
function couldNameProgram(word: string): boolean {
  return word !== '' && !word.startsWith('-') && !/[\s=$`]/.test(word);
}

/** Where in argv a command the program may run could start (none for argv[0]). */
export function operandStarts(argv: readonly string[]): number[] {
  const starts: number[] = [];
  for (let i = 1; i < argv.length && starts.length < MAX_STARTS; i++) if (couldNameProgram(argv[i]!)) starts.push(i);
  return starts;
}
