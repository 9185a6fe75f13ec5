/** The file-read service, bound by the kernel under TOKENS.FileReads. */

/**
 * Whether an existing file may be changed now (the read-first rule, T3/T4): `not-read` when
 * the model never read it in this session, `changed-since-read` when its mtime differs from the
 * one recorded at the last read or write. Each tool words its own refusal from the reason.
 */
export type Freshness = { ok: true } | { ok: false; reason: 'not-read' | 'changed-since-read' };

/** Which files the model has read this session (the read-first rule of write_file and edit_file, compaction's recovery). */
export interface FileReadTracker {
  recordRead(absolutePath: string, mtimeMs: number): void;
  /**
   * After a tool wrote the file: the model knows what it now contains, so a follow-up edit needs
   * no re-read. `mtimeMs` is the mtime of the file as written.
   */
  recordWrite(absolutePath: string, mtimeMs: number): void;
  /** The read-first rule for an existing file whose mtime is `currentMtimeMs` now. */
  checkFresh(absolutePath: string, currentMtimeMs: number): Freshness;
  /** The mtime recorded at the last read, or undefined if never read. */
  lastRead(absolutePath: string): { mtimeMs: number; at: number } | undefined;
  /** Most recent first. */
  recent(limit: number): string[];
}
