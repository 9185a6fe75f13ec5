/**
 * What one shell segment reads, for the Read rules (a `Read(…)` deny or ask rule also covers
 * bash): the files it names (operands, `--opt=value` values, `<` redirections, and what it
 * writes, since a Read deny also blocks writing), the directories it reads whole (`grep -r`, `rg`,
 * `cp -r`, `rsync -a`, `tar -c`, `zip -r`, `find … -exec`, `diff -r`), and for git, whether it
 * prints file content from the repository's objects (`show`, `log -p`, `diff`, `cat-file`,
 * `grep`, `blame`, `archive`, …) and which paths it names there (`HEAD:.env`, `:.env`,
 * `-- .env`, `:(top).env`). Paths are as written (unquoted); the caller resolves them.
 * A file name computed at run time (`cat "$f"`, `xargs cat`) is not known here.
 */
import type { ShellSegmentLike } from './engine.js';
import { segmentWrites } from './command-writes.js';

export interface SegmentReads {
  /** Paths named as operands, option values, `<` targets or write targets (relative or absolute, `~` kept). */
  named: string[];
  /** Directories read as a whole, recursively. */
  trees: string[];
  /** The recursive reader leaves out hidden files and directories (ripgrep without --hidden / -uu). */
  skipsHidden?: boolean;
  /** Operands with expansions (`$PWD/.env`, `"$D"/x`): where they point is known only in part. */
  computed: string[];
  /** Set when the segment is a git command. */
  git?: GitReads;
}

export interface GitReads {
  /** It prints (or copies out) file content from the repository: a denied file may be in it. */
  printsContent: boolean;
  /** Where the repository is: `-C`/`--work-tree`/`--git-dir` as written; empty: found from where it runs; null: computed. */
  repository: string[] | null;
  /** Paths it names, each relative to the repository's top (`HEAD:.env`, `:(top)x`) or to where it runs. */
  paths: { path: string; from: 'top' | 'cwd' }[];
}

/** Commands whose operands are names, not content they read (the path of `ls x` is printed, not x). */
const NAME_ONLY = new Set(['echo', 'printf', 'ls', 'test', '[', '[[', 'basename', 'dirname', 'realpath', 'readlink', 'which', 'type', 'command', 'cd', 'pushd', 'popd', 'mkdir', 'export', 'true', 'false', ':', 'stat', 'file', 'du', 'df', 'tree', 'exit', 'return', 'set', 'unset', 'local', 'declare', 'alias']);

function baseName(word: string | undefined): string {
  return word === undefined ? '' : word.slice(word.lastIndexOf('/') + 1).toLowerCase();
}

/** A literal word that may name a file (not an option, not computed). */
function pathLike(word: string): boolean {
  return word !== '' && !word.startsWith('-') && !/[$`]/.test(word);
}

export function segmentReads(segment: ShellSegmentLike): SegmentReads {
  const argv = segment.argv;
  const name = baseName(argv[0]);
  const args = argv.slice(1);
  const out: SegmentReads = { named: [], trees: [], computed: [] };
  for (const redirect of segment.redirects) if ((redirect.op === '<' || redirect.op === '<>') && pathLike(redirect.target)) out.named.push(redirect.target);
  // A name found in a sed script (`definiteOnly`) may be regular-expression text, not a file.
  for (const write of segmentWrites(segment)) if (pathLike(write.target) && write.definiteOnly !== true) out.named.push(write.target);
  if (name === 'git') {
    out.git = gitReads(args, segment.assignments);
    return out;
  }
  if (argv.length === 0 || NAME_ONLY.has(name)) return out;
  for (const arg of args) {
    if (pathLike(arg)) out.named.push(arg);
    else if (/[$`]/.test(arg) && !arg.startsWith('-')) out.computed.push(arg);
    else if (arg.startsWith('--') && arg.includes('=')) {
      const value = arg.slice(arg.indexOf('=') + 1);
      if (pathLike(value)) out.named.push(value);
    }
  }
  out.trees.push(...recursiveReads(name, args));
  if (name === 'rg' && !args.some((a) => a === '--hidden' || a === '-.' || /^-[A-Za-z]*uu/.test(a) || a === '--no-ignore-dot')) out.skipsHidden = true;
  out.named.push(...out.trees);
  return out;
}

const has = (args: readonly string[], short: string, long: readonly string[]): boolean =>
  args.some((a) => (/^-[A-Za-z0-9]+$/.test(a) && [...short].some((letter) => a.includes(letter))) || long.some((l) => a === l || a.startsWith(`${l}=`)));

/** Operands, skipping option values for the options listed as taking one. */
function operands(args: readonly string[], valued: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      if (valued.includes(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** Directories this command reads whole. */
function recursiveReads(name: string, args: readonly string[]): string[] {
  switch (name) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
    case 'zgrep': {
      if (!has(args, 'rR', ['--recursive', '--dereference-recursive']) && !args.some((a) => a === '--directories=recurse' || a === 'recurse')) return [];
      const patternGiven = has(args, 'ef', ['--regexp', '--file']);
      const files = operands(args, ['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file', '--include', '--exclude', '--exclude-dir', '-d', '-D']).slice(patternGiven ? 0 : 1);
      return files.length > 0 ? files : ['.'];
    }
    case 'rg':
    case 'ag':
    case 'ack':
    case 'ugrep':
    case 'pt': {
      const patternGiven = has(args, 'ef', ['--regexp', '--file']);
      const files = operands(args, ['-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '-j', '-M', '--regexp', '--file', '--glob', '--type', '--type-not', '--max-count', '--threads']).slice(patternGiven ? 0 : 1);
      return files.length > 0 ? files : ['.'];
    }
    case 'cp':
    case 'scp':
    case 'rsync': {
      if (!has(args, 'rRa', ['--recursive', '--archive'])) return [];
      const list = operands(args, ['-t', '--target-directory', '-e', '--rsh', '-S', '--suffix', '-P', '-i', '-o', '-F']);
      const target = args.find((a, i) => args[i - 1] === '-t' || a.startsWith('--target-directory='));
      return target !== undefined ? list : list.slice(0, -1);
    }
    case 'tar':
    case 'gtar':
    case 'bsdtar': {
      const creates = args.some((a) => /^--(?:create|append|update)$/.test(a)) || (args[0] !== undefined && /^-?[A-Za-z]*[cru]/.test(args[0]) && !args[0].startsWith('--'));
      return creates ? operands(args, ['-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '-I', '-b', '-H', '--format']).filter((_, i, all) => !(i === 0 && /^[A-Za-z]+$/.test(all[0]!) && !args[0]!.startsWith('-'))) : [];
    }
    case 'zip':
      return has(args, 'r', ['--recurse-paths']) ? operands(args, ['-b', '-n', '-t', '-tt', '-x', '-i', '-TT', '-O']).slice(1) : [];
    case '7z':
    case '7za':
      return args[0] === 'a' ? operands(args.slice(1)).slice(1) : [];
    case 'diff':
      return has(args, 'r', ['--recursive']) ? operands(args) : [];
    case 'find': {
      if (!args.some((a) => /^-(?:exec|execdir|ok|okdir|fprint|fprintf|fls)$/.test(a))) return [];
      const first = args.findIndex((a) => (a.startsWith('-') && !/^-[HLP]$/.test(a)) || a === '(' || a === '!');
      const starts = (first === -1 ? args : args.slice(0, first)).filter((a) => !/^-[HLP]$/.test(a));
      return starts.length > 0 ? starts : ['.'];
    }
    default:
      return [];
  }
}

/** Options of `git` itself that take a value. */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path']);

/** git subcommands that print or copy file content from the repository's objects (see gitReads). */
const CONTENT_ALWAYS = new Set(['grep', 'blame', 'annotate', 'archive', 'format-patch', 'checkout-index', 'range-diff', 'fast-export', 'clone', 'difftool', 'request-pull']);
/** git subcommands that read or change the worktree files they name. */
const NAMED_FILES = new Set(['hash-object', 'merge-file', 'rm', 'mv', 'add', 'update-index', 'checkout', 'restore']);
/** Flags after which `git log`/`reflog`/`whatchanged`/`stash` print patches. */
const PATCH_FLAGS = /^(?:-p|-u|--patch|--patch-with-stat|--patch-with-raw|--cc|-c|-m|--full-diff|--textconv|--ext-diff|--word-diff(?:=.*)?|--color-words(?:=.*)?|-L.*|--diff-merges=.*|-G.*|-S.*|--pickaxe-regex|--binary|--raw|--output(?:=.*)?)$/;
/** `git diff`/`show` options after which only names and counts are printed. */
const SUMMARY_ONLY = /^(?:--stat(?:=.*)?|--numstat|--shortstat|--name-only|--name-status|--summary|--dirstat(?:=.*)?|--quiet|--exit-code|--no-patch|-s|--compact-summary)$/;

function gitReads(args: readonly string[], assignments: readonly string[]): GitReads {
  let repository: string | undefined;
  const join = (base: string | undefined, next: string): string => (base === undefined || next.startsWith('/') || next.startsWith('~') ? next : `${base.replace(/\/+$/, '')}/${next}`);
  let computed = assignments.some((a) => /^GIT_(?:DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR)=/.test(a));
  let at = 0;
  for (; at < args.length; at++) {
    const arg = args[at]!;
    const key = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (!GIT_VALUED.has(key)) {
      if (arg.startsWith('-')) continue;
      break;
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++at];
    if (key === '-C' || key === '--work-tree' || key === '--git-dir') {
      if (value === undefined || !pathLike(value)) computed = true;
      else repository = join(repository, key === '--git-dir' ? value.replace(/\/+$/, '').replace(/(?:^|\/)\.git$/, '') || '.' : value);
    }
  }
  const sub = args[at];
  const rest = args.slice(at + 1);
  let printsContent = false;
  if (sub !== undefined) {
    if (sub === 'diff' || sub === 'show' || sub === 'diff-tree' || sub === 'diff-index' || sub === 'diff-files') {
      // `diff-*` print names unless asked for a patch; `diff`/`show` print patches unless asked for a summary.
      const patch = rest.some((a) => PATCH_FLAGS.test(a));
      printsContent = sub.startsWith('diff-') ? patch : patch || !rest.some((a) => SUMMARY_ONLY.test(a));
    } else if (sub === 'cat-file') printsContent = !rest.some((a) => /^-[tse]$/.test(a)) || rest.some((a) => /^--(?:batch|textconv|filters)/.test(a));
    else if (sub === 'worktree') printsContent = rest[0] === 'add';
    else if (sub === 'bundle') printsContent = rest[0] === 'create';
    else if (CONTENT_ALWAYS.has(sub)) printsContent = true;
    else if (sub === 'log' || sub === 'reflog' || sub === 'whatchanged' || sub === 'stash' || sub === 'notes') printsContent = rest.some((a) => PATCH_FLAGS.test(a));
    else if (sub === 'config') printsContent = rest.some((a) => /^(?:-f|--file|--blob)(?:=|$)/.test(a));
  }
  const paths: GitReads['paths'] = [];
  // `rev:path` prints the file from any subcommand that shows objects (even `git show --stat HEAD:x`);
  // plain paths count for the subcommands that print or touch the files they name.
  const namesFiles = printsContent || (sub !== undefined && NAMED_FILES.has(sub));
  for (const arg of rest) {
    if (arg === '--' || (arg.startsWith('-') && !arg.includes('='))) continue;
    const value = arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (/[$`]/.test(value) || value === '') continue;
    if (value.includes(':') || namesFiles) paths.push(...gitPaths(value));
  }
  return { printsContent, repository: computed ? null : repository === undefined ? [] : [repository], paths };
}

/**
 * The file paths a git argument may name: `rev:path` (top-relative unless `./`/`../`), `:path`,
 * `:N:path`, pathspec magic (`:(top)x`, `:/x`, `:(glob,icase)x`; `:!x` excludes), or a plain
 * path relative to where git runs. Both readings are returned when it is ambiguous.
 */
export function gitPaths(arg: string): { path: string; from: 'top' | 'cwd' }[] {
  const magic = /^:\(([^)]*)\)([\s\S]*)$/.exec(arg);
  if (magic) return magic[2] === '' ? [] : [{ path: magic[2]!, from: /\btop\b/.test(magic[1]!) ? 'top' : 'cwd' }];
  if (/^:[!^]/.test(arg)) return [];
  if (arg.startsWith(':/')) return [{ path: arg.slice(2), from: 'top' }];
  const stage = /^:[0-3]:([\s\S]*)$/.exec(arg);
  if (stage) return [{ path: stage[1]!, from: 'top' }];
  if (arg.startsWith(':')) return [{ path: arg.slice(1), from: 'top' }];
  const colon = arg.indexOf(':');
  if (colon > 0) {
    const file = arg.slice(colon + 1);
    if (file === '') return [];
    return [{ path: file, from: file.startsWith('./') || file.startsWith('../') ? 'cwd' : 'top' }];
  }
  return [{ path: arg, from: 'cwd' }];
}
