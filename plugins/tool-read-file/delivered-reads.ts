/**
 * A read counts for the read-first rule of write_file and edit_file only once its output reached
 * the model. read_file parks what it read under its call; a postToolUse tap that runs after every
 * policy and user hook (stage 2000, with the session store) records it when the result the model
 * gets is not an error — a policy that withheld the output (or failed, which withholds too) leaves
 * the file unread, so the model cannot overwrite a file it never saw.
 */
import type { FileReadTracker, SeenText } from '../../types/file-reads.js';

/** Calls whose result never passes postToolUse (a crash mid-batch) must not grow the map for ever. */
const MAX_PARKED = 256;

export class DeliveredReads {
  private readonly parked = new Map<string, { absolutePath: string; mtimeMs: number; seen?: SeenText }>();

  constructor(private readonly reads: FileReadTracker) {}

  /** read_file read `absolutePath` (mtime `mtimeMs`; `seen`: of a front end's text) in call `callId` of session `sessionId`. */
  park(sessionId: string, callId: string, absolutePath: string, mtimeMs: number, seen?: SeenText): void {
    if (this.parked.size >= MAX_PARKED) this.parked.delete(this.parked.keys().next().value as string);
    this.parked.set(key(sessionId, callId), { absolutePath, mtimeMs, ...(seen ? { seen } : {}) });
  }

  /** The call's final result: recorded as read when `delivered` (the model got the content). */
  settle(sessionId: string, callId: string, delivered: boolean): void {
    const k = key(sessionId, callId);
    const read = this.parked.get(k);
    if (!read) return;
    this.parked.delete(k);
    if (delivered) this.reads.recordRead(read.absolutePath, read.mtimeMs, read.seen);
  }
}

const key = (sessionId: string, callId: string): string => `${sessionId}\0${callId}`;
