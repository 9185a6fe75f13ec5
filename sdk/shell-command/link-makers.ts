/**
 * Segments that may make or change a symbolic (or hard) link, or move a name somewhere else, when
 * they run: `ln`, `link`, `mv`, `rename`, `cp` copying links as links or making them (`-r`, `-a`,
 * `-d`, `-P`, `-s`, `-l`), `rsync`, archive extraction (`tar`, `unzip`, `7z`, `cpio`, `pax`…),
 * `patch` (git-style patches create links), `mount`, and git (or hg, svn) commands that write the
 * work tree (`checkout`, `switch`, `reset`, `merge`, `pull`, `clone`, `mv`… — every git subcommand
 * but the ones known to leave it alone).
 *
 * The path checks resolve a command's targets before it runs: a link made by the same command
 * line is not there yet (`ln -s ~/.bashrc rc && echo x >> rc`, `ln -s ~ l && rm -rf l/*`). So on
 * a line holding one of these, every other segment's path targets are unknown to them (the
 * segments may run in any order: `&`, pipelines, loops, functions). The link-maker's own targets
 * are judged as usual. Programs that run code of their own (scripts, `make`, package managers,
 * interpreters) could write the place directly, so whoever lets them run trusts them whole: they
 * are not listed here.
 */

/** Programs that make or move links whatever their options. */
const ALWAYS = new Set([
  'ln', 'gln', 'link', 'mv', 'gmv', 'rename', 'prename', 'file-rename', 'perl-rename', 'rsync', 'ditto',
  'tar', 'gtar', 'bsdtar', 'unzip', 'bsdunzip', '7z', '7za', '7zr', '7zz', 'unrar', 'unar', 'cpio', 'bsdcpio', 'pax',
  'patch', 'gpatch', 'mount', 'bindfs', 'hg', 'svn',
]);

/** git subcommands that leave the work tree's names alone (read, or write only the repository's objects and refs). */
const GIT_KEEPS_WORK_TREE = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'ls-remote', 'blame', 'annotate', 'grep', 'describe', 'shortlog',
  'cat-file', 'rev-list', 'reflog', 'help', 'version', 'var', 'check-ignore', 'check-attr', 'fetch', 'add', 'commit', 'config', 'remote',
  'branch', 'tag', 'diff-tree', 'diff-files', 'diff-index', 'for-each-ref', 'show-ref', 'name-rev', 'count-objects', 'fsck', 'gc', 'init',
  'notes', 'whatchanged', 'merge-base', 'format-patch', 'push', 'hash-object', 'cherry', 'range-diff', 'verify-commit', 'verify-tag', 'rm',
]);

/** git options before the subcommand that take the next word. */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path']);

/** cp options that copy links as links or make links. */
const CP_LINKING = /^--(?:archive|recursive|link|symbolic-link|no-dereference|preserve(?:=.*(?:links|all).*)?|reflink.*)$|^-[A-Za-z]*[adlPrRs]/;

function programName(word: string | undefined): string {
  return word === undefined ? '' : word.slice(word.lastIndexOf('/') + 1).toLowerCase();
}

/** Why this segment may make or move a link when it runs, or undefined. */
export function makesLinks(segment: { argv: readonly string[] }): string | undefined {
  const name = programName(segment.argv[0]);
  const args = segment.argv.slice(1);
  if (ALWAYS.has(name)) return name;
  if (name === 'cp' || name === 'gcp') return args.some((a) => CP_LINKING.test(a)) ? `${name} copying or making links` : undefined;
  if (name === 'git') {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (GIT_VALUED.has(arg)) i++;
      else if (!arg.startsWith('-')) return GIT_KEEPS_WORK_TREE.has(arg) ? undefined : `git ${arg}`;
    }
    return undefined;
  }
  return undefined;
}

/**
 * For each segment of a command line, the text of another segment of the line that may make or
 * move a link (see the file comment), or undefined.
 */
export function linkMakersBesides<S extends { argv: readonly string[]; text: string }>(segments: readonly S[]): (string | undefined)[] {
  const makers = segments.map((segment) => (makesLinks(segment) === undefined ? undefined : segment.text));
  return segments.map((_, i) => makers.find((text, j) => j !== i && text !== undefined));
}
