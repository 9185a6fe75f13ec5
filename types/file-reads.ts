/** The file-read service, bound by the kernel under TOKENS.FileReads. */

/** Which files the model has read this session (write_file's read-first rule, compaction's recovery). */
export interface FileReadTracker {
  recordRead(absolutePath: string, mtimeMs: number): void;
  /** The mtime recorded at the last read, or undefined if never read. */
  lastRead(absolutePath: string): { mtimeMs: number; at: number } | undefined;
  /** Most recent first. */
  recent(limit: number): string[];
}
