/**
 * `git` commands that only read the repository. Every command that walks history or diffs
 * (`log`, `show`, `diff`, `rev-list`, `shortlog`, `blame`, `reflog show`) takes `--output=<file>`,
 * which writes, and `--ext-diff`/`--textconv`, which run programs; `grep` takes `-O<pager>` /
 * `--open-files-in-pager`, which runs one; `cat-file` takes `--filters`/`--textconv`. By default
 * (config and .gitattributes) diff, show, log and blame run textconv/external-diff/gpg programs and
 * status, ls-files, grep, diff and blame run core.fsmonitor: those count only when switched off on
 * the command line (REQUIRED, READS_WORK_TREE). Those and any
 * option the tables here do not know make the command "may write". The revision and diff options
 * are matched whole (git does not expand abbreviations there); the options of `grep`, `blame`,
 * `shortlog` and `cat-file` go through git's parse-options, which does (`--open` is
 * `--open-files-in-pager`) and reads `--no-NAME`. The tables are read by the sdk's option reader
 * (option-scan.ts). `reflog expire`/`delete`/`drop` write.
 */
import { optionTable, scanOptions, type OptionTable } from './option-scan.js';

/** Options of the commands that walk history and diff (rev-list-options, diff-options, pretty-options). */
const REVISIONS = optionTable({
  flags: 'pusmctzDEFPRabwWgih0123456789',
  valued: 'nSGOILl',
  attached: 'BCMUX',
  long: [
    // history walking
    'max-count= skip= since= after= since-as-filter= until= before= max-age= min-age= author= committer= grep-reflog= grep=',
    'all-match invert-grep regexp-ignore-case basic-regexp extended-regexp fixed-strings perl-regexp remove-empty merges',
    'no-merges min-parents= max-parents= no-min-parents no-max-parents first-parent exclude-first-parent-only not all',
    'branches tags remotes glob= exclude= exclude-hidden= reflog alternate-refs single-worktree ignore-missing bisect stdin',
    'quiet disk-usage cherry-mark cherry-pick left-only right-only cherry walk-reflogs merge boundary simplify-by-decoration',
    'show-pulls full-history dense sparse simplify-merges ancestry-path date-order author-date-order topo-order reverse objects',
    'in-commit-order objects-edge objects-edge-aggressive indexed-objects unpacked object-names no-object-names filter=',
    'no-filter filter-provided-objects filter-print-omitted missing= exclude-promisor-objects no-walk do-walk relative-date',
    'date= header no-commit-header commit-header parents children timestamp left-right graph show-linear-break',
    'graph-lane-limit= no-graph-indent graph-indent count bisect-all bisect-vars progress= use-bitmap-index end-of-options',
    // log, show, diff, shortlog, blame
    'follow no-decorate decorate decorate-refs= decorate-refs-exclude= clear-decorations source mailmap no-mailmap use-mailmap',
    'no-use-mailmap full-diff log-size cached staged merge-base no-index base ours theirs help',
    // pretty
    'pretty format= abbrev-commit no-abbrev-commit oneline encoding= expand-tabs no-expand-tabs notes no-notes',
    'show-notes-by-default show-notes standard-notes no-standard-notes show-signature',
    // diff
    'patch no-patch no-stat cc dd remerge-diff no-diff-merges diff-merges= combined-all-paths unified= output=',
    'output-indicator-new= output-indicator-old= output-indicator-context= raw patch-with-raw indent-heuristic',
    'no-indent-heuristic minimal patience histogram anchored= stat stat-width= stat-name-width= stat-count= stat-graph-width=',
    'compact-summary numstat shortstat dirstat cumulative dirstat-by-file summary patch-with-stat name-only name-status',
    'submodule color no-color color-moved no-color-moved color-moved-ws= no-color-moved-ws word-diff word-diff-regex=',
    'color-words no-renames rename-empty no-rename-empty check ws-error-highlight= full-index binary abbrev break-rewrites',
    'find-renames find-copies find-copies-harder irreversible-delete diff-filter= find-object= pickaxe-all pickaxe-regex',
    'skip-to= rotate-to= relative no-relative text ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space',
    'ignore-blank-lines ignore-matching-lines= inter-hunk-context= function-context exit-code ext-diff no-ext-diff textconv',
    'no-textconv ignore-submodules src-prefix= dst-prefix= no-prefix default-prefix line-prefix= ita-invisible-in-index',
    'max-depth=',
  ].join(' '),
  writes: 'output ext-diff textconv',
  negation: true,
});

/** `git blame`'s own options (parse-options); the rest are the revision options. */
const BLAME = optionTable({
  flags: 'bltfnsepwch',
  valued: 'LS',
  attached: 'MC',
  long:
    'root show-stats progress score-debug show-name show-number porcelain line-porcelain incremental encoding= contents= ' +
    'date= color-lines color-by-age minimal reverse first-parent ignore-rev= ignore-revs-file= abbrev textconv show-email help',
  writes: 'textconv',
  abbreviations: true,
  negation: true,
});

/** `git shortlog`'s own options (parse-options); the rest are the revision options. */
const SHORTLOG = optionTable({
  flags: 'nsech',
  attached: 'w',
  long: 'numbered summary email committer group= format= help',
  abbreviations: true,
  negation: true,
});

const GREP = optionTable({
  flags: 'aiIwvhHEGFPnlLcoqrzpW0123456789',
  valued: 'ABCefm',
  attached: 'O',
  long:
    'cached no-index untracked exclude-standard recurse-submodules text textconv ignore-case max-depth= recursive ' +
    'word-regexp invert-match full-name extended-regexp basic-regexp perl-regexp fixed-strings line-number column ' +
    'files-with-matches name-only files-without-match open-files-in-pager null count color break heading show-function ' +
    'context= before-context= after-context= threads= function-context and or not all-match quiet max-count= only-matching help',
  writes: 'O open-files-in-pager textconv',
  abbreviations: true,
  negation: true,
});

const CAT_FILE = optionTable({
  flags: 'tsepZzh',
  long:
    'textconv filters path= batch batch-check batch-command batch-all-objects buffer unordered follow-symlinks ' +
    'allow-unknown-type use-mailmap mailmap filter= help',
  writes: 'textconv filters',
  abbreviations: true,
  negation: true,
});

/** Subcommands with no option that writes or runs a program. */
const ANY_OPTIONS = new Set(['ls-files', 'ls-tree', 'rev-parse']);

/**
 * Subcommands that read the work tree (status; ls-files, grep, diff and blame of work-tree files):
 * they run `core.fsmonitor` (a program from the repository's config) and may refresh .git/index.
 * They count only with `-c core.fsmonitor=false` and `--no-optional-locks` on the command line.
 */
const READS_WORK_TREE = new Set(['status', 'ls-files', 'grep', 'diff', 'blame']);

/**
 * What must be written for a porcelain command not to run a program by default: diffs apply the
 * configured `diff.<driver>.textconv` (named by .gitattributes) and `diff.external`, log and show
 * run gpg for `log.showSignature`, blame applies textconv. Without these options the command still
 * runs, only serially.
 */
const REQUIRED: ReadonlyMap<string, readonly string[]> = new Map([
  ['diff', ['--no-textconv', '--no-ext-diff']],
  ['show', ['--no-textconv', '--no-ext-diff', '--no-show-signature']],
  ['log', ['--no-textconv', '--no-ext-diff', '--no-show-signature']],
  ['blame', ['--no-textconv']],
]);

const SUBCOMMANDS: ReadonlyMap<string, readonly OptionTable[]> = new Map([
  ['log', [REVISIONS]],
  ['show', [REVISIONS]],
  ['diff', [REVISIONS]],
  ['rev-list', [REVISIONS]],
  ['shortlog', [SHORTLOG, REVISIONS]],
  ['blame', [BLAME, REVISIONS]],
  ['grep', [GREP]],
  ['cat-file', [CAT_FILE]],
]);

/** git's own options that change nothing but where and how it reads. */
const GLOBAL_FLAGS = new Set(['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-replace-objects']);

/**
 * `git [-C dir] [--no-pager] <reader> …`. Not `-c` (it can name a pager, an alias or a diff
 * program) but `-c core.fsmonitor=false`, `--git-dir`/`--work-tree`, nor `-p` (a pager).
 */
export function gitReadsOnly(args: readonly string[]): boolean {
  let i = 0;
  let noOptionalLocks = false;
  let fsmonitorOff = false;
  while (i < args.length && args[i]!.startsWith('-')) {
    const option = args[i]!;
    if (option === '--no-optional-locks') noOptionalLocks = true;
    if (option === '-C') i += 2;
    else if (option === '-c' && /^core\.fsmonitor=(false|no|off|0)$/i.test(args[i + 1] ?? '')) {
      fsmonitorOff = true;
      i += 2;
    }
    else if (GLOBAL_FLAGS.has(option)) i += 1;
    else return false;
  }
  const subcommand = args[i];
  const rest = args.slice(i + 1);
  if (subcommand === undefined) return false;
  // status, ls-files, grep, diff, blame (and describe --dirty/--broken) run core.fsmonitor and
  // refresh .git/index unless told not to.
  if (READS_WORK_TREE.has(subcommand) && !(noOptionalLocks && fsmonitorOff)) return false;
  if (ANY_OPTIONS.has(subcommand) || subcommand === 'status') return true;
  if (subcommand === 'describe') return !rest.some((a) => /^--(dirty|broken)(=|$)/.test(a)) || (noOptionalLocks && fsmonitorOff);
  if (rest.includes('--show-signature')) return false;
  const required = REQUIRED.get(subcommand) ?? [];
  const beforeEnd = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (!required.every((option) => beforeEnd.includes(option))) return false;
  if (subcommand === 'reflog') return reflogReadsOnly(rest);
  const tables = SUBCOMMANDS.get(subcommand);
  return tables !== undefined && scanOptions(rest, tables) !== undefined;
}

/**
 * `git reflog [show] [log options] [ref]`, `reflog list`, `reflog exists ref`. Any other first
 * word may be a subcommand (`expire`, `delete`, `drop`, and those to come); a ref is let through
 * only when it cannot be one (`HEAD`, `main@{1}`, `origin/main`).
 */
function reflogReadsOnly(args: readonly string[]): boolean {
  const first = args[0];
  if (first === undefined) return true;
  if (first === 'list' || first === 'exists') return true;
  if (first === 'show') return scanOptions(args.slice(1), REVISIONS) !== undefined;
  if (!first.startsWith('-') && !/^[A-Z_]*HEAD\b|[/@]/.test(first)) return false;
  return scanOptions(args, REVISIONS) !== undefined;
}
