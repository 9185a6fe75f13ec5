/** The tools' output caps and spill directory (T8), bound under TOKENS.OutputLimits. */

/** A text cut to a limit. `truncated` says whether anything was dropped. */
export interface CutText {
  text: string;
  truncated: boolean;
}

/**
 * Every output cap of the tools and of the permission audit log lives in one place (T8),
 * with the spill directory where full outputs are saved when a cut is made. Bound by the
 * `output-limits` plugin; tools get it from the container (`TOKENS.OutputLimits`) and never
 * hard-code a limit.
 */
export interface OutputLimits {
  /** read_file: lines per call (2000) */
  readonly readMaxLines: number;
  /** read_file: bytes of file content per call (256 KiB) */
  readonly readMaxBytes: number;
  /** read_file: characters of one line before it is cut (2000) */
  readonly readLineMaxChars: number;
  /** grep: characters of one matching line before it is cut (500) */
  readonly grepLineMaxChars: number;
  /** bash: lines and bytes of output kept in the result (200 / 8000) */
  readonly bashMaxLines: number;
  readonly bashMaxBytes: number;
  /** bash: bytes of full output saved to the spill file before saving stops (64 MiB) */
  readonly bashSpillMaxBytes: number;
  /** edit_file: larger files are refused, since an edit holds the file in memory several times (64 MiB) */
  readonly editMaxFileBytes: number;
  /** edit_file's diff: context lines (3), lines shown (80), characters per diff line (500) */
  readonly editDiffContextLines: number;
  readonly editDiffMaxLines: number;
  readonly editDiffLineMaxChars: number;
  /** edit_file's "closest region" hint when nothing matched: lines (20), characters per line (300) */
  readonly editHintMaxLines: number;
  readonly editHintLineMaxChars: number;
  /** glob and grep: results per call (100) */
  readonly searchMaxResults: number;
  /** The permission audit log: rotate before the file would pass this many bytes (5 MiB). */
  readonly auditMaxBytes: number;
  /** The permission audit log: rotated files kept, audit.jsonl.1 … .N (3). */
  readonly auditKeepFiles: number;
  /** The permission audit log: characters of a target or an input (20,000; past it the record keeps the cut text, the whole length and its SHA-256) and of a reason (2000) kept in a record. */
  readonly auditTargetMaxChars: number;
  readonly auditReasonMaxChars: number;
  /** Spill files older than this are removed at start-up (7 days). */
  readonly spillMaxAgeMs: number;
  /**
   * Directory for full outputs: `<root>/.mewcode/tool-output/` unless a session provides one. A
   * session's files go in its own folder below it, `<sessionId>/` (see `openSpillFile`).
   */
  spillDir(): string;
  /**
   * A fresh file path in the spill directory for one call's full output (directory created); in
   * the session's own folder when `sessionId` is given, as for `openSpillFile`.
   */
  spillPath(toolCallId: string, suffix?: string, sessionId?: string): Promise<string>;
  /**
   * A fresh spill file, created and opened for writing (the caller closes `fd`). Reached without
   * following links (a repository may commit `.mewcode/tool-output` as one): a link on the way
   * rejects, naming it, and nothing is written. Prefer it to `spillPath`, whose path the caller
   * would open later.
   *
   * `sessionId` (the ToolContext's): the file goes in `<spillDir>/<sessionId>/`, which only that
   * session's tools may read — another session's saved outputs, and files saved without a session
   * id (directly in the spill directory, as before this parameter), are refused to every tool and
   * hidden from commands. Pass it whenever a session made the call. It must be a plain name
   * (letters, digits, `.`, `_`, `-`; not starting with `.`; at most 128 characters): any other
   * rejects and nothing is written.
   */
  openSpillFile(toolCallId: string, suffix?: string, sessionId?: string): Promise<{ path: string; fd: number }>;
  /** Cut a line to `maxChars` characters (code points), marking the cut. */
  cutLine(line: string, maxChars: number): CutText;
  /** Keep at most `maxBytes` UTF-8 bytes, never splitting a character. No marker is added. */
  cutBytes(text: string, maxBytes: number): CutText;
}
