/** Session state: which files the model read, and their mtime then (for read-first and recovery). */
import type { FileReadTracker, Freshness, SeenText } from '../types/file-reads.js';

export class FileReadTrackerImpl implements FileReadTracker {
  private readonly reads = new Map<string, { mtimeMs: number; at: number; seen?: SeenText }>();

  recordRead(absolutePath: string, mtimeMs: number, seen?: SeenText): void {
    this.reads.delete(absolutePath); // re-insert so iteration order is recency order
    this.reads.set(absolutePath, { mtimeMs, at: Date.now(), ...(seen ? { seen } : {}) });
  }

  /** A write is a read of what was written: the model chose that content. */
  recordWrite(absolutePath: string, mtimeMs: number, seen?: SeenText): void {
    this.recordRead(absolutePath, mtimeMs, seen);
  }

  checkFresh(absolutePath: string, currentMtimeMs: number): Freshness {
    const last = this.reads.get(absolutePath);
    if (!last) return { ok: false, reason: 'not-read' };
    if (last.mtimeMs !== currentMtimeMs) return { ok: false, reason: 'changed-since-read' };
    return { ok: true };
  }

  lastRead(absolutePath: string): { mtimeMs: number; at: number; seen?: SeenText } | undefined {
    return this.reads.get(absolutePath);
  }

  recent(limit: number): string[] {
    return [...this.reads.keys()].reverse().slice(0, Math.max(0, limit));
  }
}
