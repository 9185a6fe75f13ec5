/** The file-read service, bound by the kernel under TOKENS.FileReads. */

/**
 * Whether an existing file may be changed now (the read-first rule, T3/T4): `not-read` when
 * the model never read it in this session, `changed-since-read` when its mtime differs from the
 * one recorded at the last read or write, `text-changed` when a front end's buffer no longer holds
 * the text the model last saw (an unsaved edit). Each tool words its own refusal from the reason.
 */
export type Freshness = { ok: true } | { ok: false; reason: 'not-read' | 'changed-since-read' | 'text-changed' };

/**
 * What the model saw of a text a front end holds (TOKENS.WorkspaceFiles, an editor's buffer):
 * unsaved edits never change a file's mtime, so the read-first rule asks the front end again and
 * compares this. `range`: only those lines were asked for (a read_file window); absent, the whole text.
 */
export interface SeenText {
  /** sha256 of the text, hex. */
  hash: string;
  /** 1-based first line and line count, as asked of the front end. */
  range?: { line: number; limit: number };
}

/** Which files the model has read this session (the read-first rule of write_file and edit_file, compaction's recovery). */
export interface FileReadTracker {
  /** `seen`: the text came from a front end's buffer (kept for the read-first rule). */
  recordRead(absolutePath: string, mtimeMs: number, seen?: SeenText): void;
  /**
   * After a tool wrote the file: the model knows what it now contains, so a follow-up edit needs
   * no re-read. `mtimeMs` is the mtime of the file as written.
   */
  recordWrite(absolutePath: string, mtimeMs: number, seen?: SeenText): void;
  /**
   * The read-first rule for an existing file whose mtime is `currentMtimeMs` now. The mtime alone:
   * for a front end's buffer the tools also compare the text (sdk/file-tool-support/seen-text.ts).
   */
  checkFresh(absolutePath: string, currentMtimeMs: number): Freshness;
  /** The mtime recorded at the last read, or undefined if never read. */
  lastRead(absolutePath: string): { mtimeMs: number; at: number; seen?: SeenText } | undefined;
  /** Most recent first. */
  recent(limit: number): string[];
}
