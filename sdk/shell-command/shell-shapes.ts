/**
 * The shapes the shell analysis passes between its modules: a word of a simple command, what a
 * wrapper command runs, and one segment of a parsed command line. They live apart from the code
 * that builds them so the modules of this folder import them without importing each other.
 */
/**
 * Stands, at the end of the argv of a command run by `xargs`, for the words xargs appends from
 * stdin when they are not known (`find … | xargs rm -rf`, `xargs rm < list`): an expansion, so
 * layers judging operands treat it as computed. Here, beside the shapes, so a layer can test for
 * it without loading the parser.
 */
export const XARGS_INPUT = '$(xargs input)';

/** One word of a simple command, unquoted, with its UTF-16 span in the source it came from. */
export interface Word {
  value: string;
  literal: boolean;
  start: number;
  end: number;
  /**
   * An unquoted expansion or glob is in it (`$x`, `$(cmd)`, `*.c`, `{a,b}`): bash may make
   * several words of it, or none. Wrappers that read such a word themselves do not know where
   * their command starts.
   */
  split?: boolean;
}

export interface Unwrapped {
  /** Commands this one runs, in order (usually one; `find` may run several). */
  commands: { words: Word[]; assignments: string[] }[];
  /** Shell source this command runs (`sh -c 'rm -rf /'` → `rm -rf /`). */
  scripts: string[];
  /** A shell started without `-c` or a script file: it runs what arrives on stdin. */
  readsStdin: boolean;
  /** Set (to why) when it runs commands the analysis cannot see at all (see ShellSegment.unknownCommands). */
  unknown?: string;
  /** Set (to why) when what it runs was found but may differ at run time (ParsedCommand.opaque). */
  opaque?: string;
  /** The same operation as another command, for deny and ask rules (ShellSegment.equivalent). */
  equivalent?: string;
  /** Its command was found by a loose reading (loose-runners.ts): later words may start another (ShellSegment.mayRunOperands). */
  mayRunOperands?: boolean;
}

export interface ShellSegment {
  /**
   * Words after shell unquoting: `rm -rf "/"` → `['rm', '-rf', '/']`. Words with expansions keep
   * their source text for those parts (`"$HOME"/x` → `$HOME/x`, `~` stays `~`). Empty for a
   * statement made only of assignments or redirections.
   */
  argv: string[];
  /** The segment's source text, trimmed, e.g. `rm -rf /` (with its redirections, if any). */
  text: string;
  /** e.g. `{ op: '>', target: '/dev/sda' }`; `op` is the operator without the fd number (`2>` → `>`). */
  redirects: { op: string; target: string }[];
  /** Leading `VAR=value` words (unquoted like argv); for `env X=1 cmd` also env's assignments. */
  assignments: string[];
  /**
   * The segment's source text without the redirections written in it (`npm test 2>&1` →
   * `npm test`); absent when the segment is only redirections. Its `redirects` still list them.
   */
  textWithoutRedirects?: string;
  /**
   * Where the segment may run, relative to the directory the command line starts in: absent
   * when only there; otherwise every directory it may be in after the `cd`/`pushd` before it
   * (a `cd` may fail, so the previous directory stays possible), written as `.`-relative paths,
   * absolute paths or `~`-paths; `null` when it cannot be known (`cd "$X"`, `cd -`, `popd`, a
   * `cd` in a loop or a function, a `CDPATH` assignment, a trap or alias body).
   */
  dirs?: readonly string[] | null;
  /** Program text handed to an interpreter (`python3 -c …`, `awk '…'`, `node - <<EOF`). */
  inlineCode?: { interpreter: string; code: string };
  /**
   * Set (to why) when the segment runs commands the analysis cannot see at all (`curl … | sh`,
   * `bash "$f"`, `source <(…)`, `git -c alias.x='!…' x`, `./r` after `cp /bin/rm r`): the
   * command is opaque, and a deny rule cannot be matched against what it runs, so any deny rule
   * for the tool denies it.
   */
  unknownCommands?: string;
  /**
   * The same operation written as another command, for deny and ask rules only (`find x -delete`
   * is also `rm x`, so `Bash(rm:*)` covers it).
   */
  equivalent?: string;
  /**
   * Indexes into argv where a command the program may run could start: set for a program the
   * analysis does not know (neither a wrapper it reads nor a known plain program:
   * plain-programs.ts) or reads only loosely, at each later word that could name a program. Deny
   * and ask rules and the blacklist judge `argv.slice(i)` as a possible command (an ask).
   */
  mayRunOperands?: number[];
  /**
   * Index (in the parsed segments) of the loosely read runner that runs this command (`npx jest`,
   * `uv run pytest`, `docker run img cmd`: loose-runners.ts): an allow rule that allows that
   * runner's segment (`Bash(npx jest:*)`) allows this one too, as before the runner was read.
   */
  ranBy?: number;
}
