/**
 * Where the file tools' bytes and bash's processes come from, when not from this process: a front
 * end that owns the files and terminals (an editor speaking the editor protocol) binds these so
 * that read_file, write_file and edit_file see and change its buffers — unsaved edits included —
 * and bash runs in its terminals. Both are optional single bindings; unbound, the tools use the
 * disk and spawn commands themselves, as always.
 *
 * Only the bytes and the process move. Every check stays with the tool and is made on the real
 * path on disk before the service is called: the permission layers (they ran before the tool),
 * containment of the opened descriptor, size limits, the read-before-write rule and stale-file
 * detection (mtimes on disk, and the text itself for a front end's buffer: an unsaved edit changes
 * no mtime), binary refusal (the head of the file on disk). And bash hands the
 * launcher the command as the OS sandbox wrapped it (`bwrap … bash -c …`), never the bare command.
 */

/** Bound under TOKENS.WorkspaceFiles. Either method may be absent: that direction uses the disk. */
export interface WorkspaceFiles {
  /**
   * The current text of a file: the front end's buffer when it has one open (unsaved changes
   * included), else the file on disk. `realPath` is absolute, links resolved, already checked
   * inside the allowed directories. Rejects when the file cannot be read; the tool reports it.
   * `range`: only `limit` lines from line `line` (1-based) are needed (a read_file window), so a
   * large buffer is not transferred whole; a front end may still answer with the whole text only
   * when it was asked for none.
   */
  readText?(realPath: string, signal: AbortSignal, range?: { line: number; limit: number }): Promise<string>;
  /**
   * Replace a file's whole text (the front end updates its buffer and the file; it creates a
   * missing file). `realPath` as for readText, its directory existing. Rejects on failure.
   */
  writeText?(realPath: string, content: string, signal: AbortSignal): Promise<void>;
}

/** One command for a CommandLauncher to run. */
export interface LaunchRequest {
  /** What to run: the OS sandbox's wrapper (`bwrap`, `sandbox-exec`) or, without one, the shell. */
  file: string;
  args: readonly string[];
  /** Absolute working directory, inside the project. */
  cwd: string;
  /**
   * The command's WHOLE environment (bash's allowlist: API keys in the agent's own environment
   * must not reach model-run commands). A launcher whose processes would inherit other variables
   * (an editor's terminal inherits the editor's) must clear them.
   */
  env: Readonly<Record<string, string>>;
  /** The shell bash resolved (absolute path), for launchers that need one of their own. */
  shell: string;
  /** After this long the launcher stops the command and reports `timeout`. */
  timeoutMs: number;
  /** Aborted when the call is cancelled: stop the command and report `cancelled`. */
  signal: AbortSignal;
  /**
   * The most output bytes the caller can use (bash's spill cap); a launcher that must bound what
   * it keeps drops the oldest output past this and says so (`outputTruncated`).
   */
  maxOutputBytes: number;
  /** The tool call this command belongs to (a front end may show its terminal there). */
  toolCallId: string;
  /** The command as written (bash's `command`), for a front end that shows it; `file`/`args` are what runs. */
  command?: string;
  /** Output (stdout and stderr interleaved), as it arrives or all at the end; UTF-8 text. */
  onOutput(chunk: Buffer): void;
}

export type LaunchOutcome =
  /** The command could not be started; `message` says why. */
  | { end: 'spawn-error'; message: string; elapsedMs: number }
  | {
      end: 'exited' | 'timeout' | 'cancelled';
      /** Exit code, or null when a signal ended it (or the launcher could not tell). */
      code: number | null;
      /** The signal's name (`SIGTERM`) when one ended it. */
      signal: string | null;
      elapsedMs: number;
      /** The launcher dropped the oldest output (see `maxOutputBytes`). */
      outputTruncated?: boolean;
      /** How a timeout or cancellation stopped it, for the result (`the editor's terminal was killed`). */
      stoppedBy?: string;
      /**
       * The command started but how it ended could not be read (the editor's wait failed or its
       * answer was malformed): a sentence for the result, which is then an error; `code` and
       * `signal` are null (unknown), never guessed.
       */
      endUnreadable?: string;
      /**
       * The command's output could not be read (a sentence, e.g. `the editor did not return the
       * command's output: …`): the result says so instead of reporting no output.
       */
      outputUnreadable?: string;
    };

/**
 * Bound under TOKENS.CommandLauncher: runs bash's (already sandbox-wrapped) command somewhere
 * else than a child process of MewCode. It must always resolve (failures are a `spawn-error`),
 * stop the command on timeout and on abort, and free whatever it created.
 */
export interface CommandLauncher {
  run(request: LaunchRequest): Promise<LaunchOutcome>;
}
