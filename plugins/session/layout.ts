/**
 * Where sessions live (C1): `<root>/.mewcode/sessions/<YYYYMMDD-HHMMSS-xxxx>/` with the main
 * transcript `conversation.jsonl`, sub-agents' transcripts under `agents/`, and `meta.json` (what
 * `mewcode sessions` lists, so listing never reads a whole transcript).
 */
import path from 'node:path';
import { sessionDirectory, sessionsRoot } from '../../sdk/session-files.js';
import type { SessionSummary } from '../../types/session-store.js';

/** The id format of kernel/session-id.ts; only directories named like this are ever read or removed. */
export const SESSION_ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;
/** The records' schema version: a loader refuses none of its own versions and skips lines of others. */
export const RECORD_VERSION = 1;
export const TITLE_CODE_POINTS = 50;
export const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export { sessionsRoot as sessionsDir, sessionDirectory as sessionDir };

/** The main session's transcript, or a sub-agent's (they share the parent's session id). */
export function transcriptFile(projectRoot: string, id: string, agentId: string): string {
  // The kernel refuses other ids; a name that could lead out of the session's folder is never written.
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(agentId)) throw new Error(`not an agent id: ${JSON.stringify(agentId)}`);
  const dir = sessionDirectory(projectRoot, id);
  return agentId === 'main' ? path.join(dir, 'conversation.jsonl') : path.join(dir, 'agents', `${agentId}.jsonl`);
}

export function metaFile(projectRoot: string, id: string): string {
  return path.join(sessionDirectory(projectRoot, id), 'meta.json');
}

/** meta.json: the listing's summary and the record version. */
export interface SessionMeta extends SessionSummary {
  v: number;
  /** The provider entry the session's requests last went to (with `model`): a resume on another one is a switch. */
  provider?: string;
}

export function titleOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const points = Array.from(line);
  return points.length <= TITLE_CODE_POINTS ? line : `${points.slice(0, TITLE_CODE_POINTS).join('')}…`;
}
