/**
 * The audit log's hash chain, shared by the writer (audit-log.ts) and `mewcode audit verify`
 * (verify.ts). Node built-ins only: the verifier runs without the kernel or any plugin.
 *
 * Format. Every line of `audit.jsonl` is one JSON object whose `prev` is the SHA-256 (hex) of the
 * previous line's UTF-8 bytes, without its newline. The first line of the first file carries
 * GENESIS. When the file is rotated (`audit.jsonl` → `audit.jsonl.1` …), the new file starts
 * with a `rotation` record whose `prev` is the hash of the rotated file's last line and which
 * names that file, its record count and how many rotated files exist after it — so the chain runs
 * on across files and a missing rotated file is noticed.
 *
 * Anchor. `audit.head` (next to the log) holds the current file's segment number, record count,
 * byte size and last line hash after every write. The chain alone cannot show that lines were
 * cut from the end; the anchor can.
 *
 * Root of trust. Anything able to write `.mewcode/` (the repository the log came with, to begin
 * with) can write a self-consistent chain and `audit.head`. So the writer keeps the same head in
 * the user's own `~/.mewcode/audit/<hash of the log's real path>.head`, outside every project and
 * read-only in the OS sandbox, and `mewcode audit verify` requires the log to match it: a log
 * MewCode did not write on this machine, or one rewritten since, does not verify.
 */
import path from 'node:path';
import { nodeCrypto } from '../../sdk/lazy-builtin.js';
import { resolveRealSync } from '../../sdk/path-containment.js';

/** `prev` of the very first record. */
export const GENESIS = '0'.repeat(64);

const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** SHA-256 (hex) of one line, given without its newline. */
export function hashLine(line: string): string {
  return nodeCrypto().createHash('sha256').update(line, 'utf8').digest('hex');
}

/** Where the user's own copy of the head of the log `logFile` lives: `~/.mewcode/audit/<hash>.head`. */
export function anchorFileOf(homeDir: string, logFile: string): string {
  return path.join(homeDir, '.mewcode', 'audit', `${nodeCrypto().createHash('sha256').update(realLogPath(logFile), 'utf8').digest('hex').slice(0, 32)}.head`);
}

/**
 * The log's real path, by its directory's (the log, even `.mewcode`, may not exist yet: the
 * deepest existing ancestor is resolved and the rest appended, so the name is the same before
 * and after they are created). A path that cannot be resolved keeps its absolute form.
 */
function realLogPath(logFile: string): string {
  const absolute = path.resolve(logFile);
  try {
    return path.join(resolveRealSync(path.dirname(absolute)), path.basename(absolute));
  } catch {
    return absolute;
  }
}

export function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH_PATTERN.test(value);
}

/** `…/audit.jsonl` → `…/audit<suffix>` (`.head`, `.lock`); other names get the suffix appended. */
export function sideFile(logFile: string, suffix: string): string {
  return logFile.endsWith('.jsonl') ? `${logFile.slice(0, -'.jsonl'.length)}${suffix}` : `${logFile}${suffix}`;
}

export const headFileOf = (logFile: string): string => sideFile(logFile, '.head');
export const lockFileOf = (logFile: string): string => sideFile(logFile, '.lock');

/** `audit.jsonl.N`: the N-th most recent rotated file. */
export function rotatedFile(logFile: string, n: number): string {
  return `${logFile}.${n}`;
}

/** What `audit.head` holds: the state of the current file after MewCode's last write. */
export interface AuditHead {
  /** Rotations since the log began (0 for the first file). */
  segment: number;
  /** Lines in the current file. */
  records: number;
  /** Size of the current file in bytes. */
  bytes: number;
  /** Hash of the current file's last line (GENESIS while it is empty). */
  last: string;
}

/** The head's text, or why it is not a head. */
export function parseHead(text: string): AuditHead | string {
  // The user's copy may also name the log it anchors (`log`), for whoever reads it.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'it is not valid JSON';
  }
  const head = value as Partial<AuditHead> | null;
  if (
    head === null ||
    typeof head !== 'object' ||
    !isCount(head.segment) ||
    !isCount(head.records) ||
    !isCount(head.bytes) ||
    !isHash(head.last)
  ) {
    return 'it lacks segment, records, bytes or last';
  }
  return { segment: head.segment, records: head.records, bytes: head.bytes, last: head.last };
}

export function formatHead(head: AuditHead): string {
  return `${JSON.stringify({ segment: head.segment, records: head.records, bytes: head.bytes, last: head.last })}\n`;
}

/** The `rotation` record that starts a rotated-into file (its `prev` is added by the writer). */
export interface RotationRecord {
  type: 'rotation';
  time: string;
  segment: number;
  /** Rotated files present, in a row, right after this rotation (`audit.jsonl.1` … `.kept`). */
  kept: number;
  /** The file this one continues: its name right after the rotation (null when none is kept). */
  previous: { file: string | null; records: number };
}

export function rotationRecord(logFile: string, segment: number, kept: number, previousRecords: number, now = new Date()): RotationRecord {
  return {
    type: 'rotation',
    time: now.toISOString(),
    segment,
    kept,
    previous: { file: kept > 0 ? path.basename(rotatedFile(logFile, 1)) : null, records: previousRecords },
  };
}

/**
 * Adds `prev` as the last key of an already serialised record, so the record is stringified
 * once. `json` must be a JSON object text.
 */
export function withPrev(json: string, prev: string): string {
  const body = json.slice(0, -1).trimEnd();
  return body.endsWith('{') ? `${body}"prev":"${prev}"}` : `${body},"prev":"${prev}"}`;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
