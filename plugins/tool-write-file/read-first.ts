/**
 * The read-first rule (SPEC T3): an existing file may only be replaced after the model read it in
 * this session, and only if it has not changed on disk since, so a write is never based on a
 * guess or on stale content. The tracker holds the mtime seen at the last read (or write).
 */
import type { FileReadTracker } from '../../types/services.js';

export function readFirstProblem(reads: FileReadTracker, realPath: string, mtimeMs: number, display: string): string | undefined {
  const last = reads.lastRead(realPath);
  if (!last) {
    return `Refusing to overwrite ${display}: it already exists and has not been read in this session. Call read_file on ${display} first to see what you would replace, then call write_file again. To change part of a file, use edit_file instead of rewriting it.`;
  }
  if (last.mtimeMs !== mtimeMs) {
    return `Refusing to overwrite ${display}: it has changed on disk since you last read it (someone else may have edited it). Call read_file on ${display} again and base your new content on what it contains now.`;
  }
  return undefined;
}
