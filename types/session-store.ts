/**
 * Saved sessions (C1–C4): bound under TOKENS.SessionStore by the session plugin; the CLI's
 * `--continue` / `--resume` / `mewcode sessions` and the TUI's `/resume` use it.
 */
import type { SessionRecords } from './session.js';

export interface SessionSummary {
  id: string;
  /** The first user message, at most 50 code points. */
  title: string;
  model?: string;
  messages: number;
  /** ISO times */
  created: string;
  updated: string;
}

export interface LoadedSession extends SessionRecords {
  /** Lines that were not a valid record and were skipped (a half-written last line is not counted). */
  skippedLines: number;
  /** Tool results dropped because the call they answered was on a skipped line. */
  droppedResults?: number;
  /** The last line was cut off mid-write (a crash) and was not used. */
  cutLastLine?: boolean;
  /** Milliseconds since the session's last record. */
  idleMs: number;
  /** The transcript file the records came from. */
  file: string;
}

export interface SessionStore {
  /** This project's sessions, newest activity first. */
  list(): Promise<SessionSummary[]>;
  /** The id of the session started on this machine with the newest activity, if any (`load` refuses it while another process holds it). */
  latest(): Promise<string | undefined>;
  /** Read a session's main transcript. Throws an Error naming the id or file when it cannot. */
  load(id: string): Promise<LoadedSession>;
}

/**
 * Reserving a fresh session id before it is used (the session plugin, under TOKENS.SessionIds):
 * ids are minted by time and a short random suffix, so two processes started in the same second
 * in one project (two `mewcode -p`, two editor sessions) may draw the same one. Reserving creates
 * the session's directory exclusively: whoever creates it owns the id.
 */
export interface SessionIdReservation {
  /** True when the id is now this process's; false when another session already has it (draw again). */
  reserve(id: string): boolean;
}
