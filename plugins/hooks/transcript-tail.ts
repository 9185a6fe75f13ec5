/**
 * The end of a Claude-shaped transcript a hook was pointed at, read when a process first writes to
 * it: a continued session appends after what an earlier process wrote, and must know what that
 * was. The file can be large (tool results, images), so only its tail is read — a window that
 * grows until it holds a whole line, up to a cap — never the whole file. Opened one name at a time
 * without following a link (sdk/project-state-dir.ts), like every write to it.
 */
import { closeSync, constants, fstatSync, readSync } from 'node:fs';
import { openProjectStateFile } from '../../sdk/project-state-dir.js';

/** First window read from the end; doubled while it holds no whole line. */
const WINDOW = 1024 * 1024;
/** At most this much is read: a longer last line is taken as not understood (the next process appends a boundary). */
const CAP = 32 * 1024 * 1024;

export interface TranscriptTail {
  /** The whole lines in the window that are JSON objects, oldest first (torn or foreign lines left out). */
  records: Record<string, unknown>[];
  /** The window reached the start of the file, so `records` is all of it. */
  fromStart: boolean;
  /** The file is empty. */
  empty: boolean;
  /** The last byte is a newline (a crash can leave a torn last line: the next write starts a line of its own). */
  endsWithNewline: boolean;
}

/** The tail of `file`, or undefined when there is no file. */
export function readTranscriptTail(root: string, file: string): TranscriptTail | undefined {
  let fd: number;
  try {
    fd = openProjectStateFile(root, file, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return { records: [], fromStart: true, empty: true, endsWithNewline: true };
    let window = Math.min(size, WINDOW);
    for (;;) {
      const buffer = Buffer.alloc(window);
      let read = 0;
      while (read < window) {
        const count = readSync(fd, buffer, read, window - read, size - window + read);
        if (count <= 0) break;
        read += count;
      }
      const fromStart = window === size;
      const endsWithNewline = buffer[read - 1] === 0x0a;
      let text = buffer.subarray(0, read).toString('utf8');
      // The window's first line is cut unless it starts the file.
      if (!fromStart) text = text.slice(text.indexOf('\n') + 1);
      const lines = text.split('\n');
      // The last piece is empty (a final newline) or a torn line: never a record.
      lines.pop();
      if (lines.length > 0 || fromStart || window >= CAP) return { records: parsed(lines), fromStart, empty: false, endsWithNewline };
      window = Math.min(size, window * 2, CAP);
    }
  } finally {
    closeSync(fd);
  }
}

function parsed(lines: string[]): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const line of lines) {
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) records.push(value as Record<string, unknown>);
    } catch {
      // a torn or foreign line: not one of ours
    }
  }
  return records;
}
