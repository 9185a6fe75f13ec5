/** Session state: which files the model read, and their mtime then (for read-first and recovery). */
import type { FileReadTracker } from '../types/services.js';

export class FileReadTrackerImpl implements FileReadTracker {
  private readonly reads = new Map<string, { mtimeMs: number; at: number }>();

  recordRead(absolutePath: string, mtimeMs: number): void {
    this.reads.delete(absolutePath); // re-insert so iteration order is recency order
    this.reads.set(absolutePath, { mtimeMs, at: Date.now() });
  }

  lastRead(absolutePath: string): { mtimeMs: number; at: number } | undefined {
    return this.reads.get(absolutePath);
  }

  recent(limit: number): string[] {
    return [...this.reads.keys()].reverse().slice(0, Math.max(0, limit));
  }
}
