/**
 * Who a session a plugin makes may be. A session's ids are what the session file, every hook
 * payload and an organisation's audit record: a plugin that could make a session as the main one
 * (`agentId: 'main'`, or the main session's id without being its child) would write into the
 * user's transcript, be audited as the user's session, and — resumed as `main` — replace the
 * session the user is talking to. So `main` is the kernel's (its first session, and what the
 * front end resumes), and a session shares an id only with the parent it is made under.
 */
import type { SessionOptions, SessionRecords } from '../types/session.js';

export const MAIN_AGENT = 'main';

/**
 * What an id given by a caller may be: it names files (a sub-agent's transcript
 * `agents/<agentId>.jsonl`, a session's directory), so no `/`, `.` or `..` may lead elsewhere.
 */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const idProblem = (what: string, id: string | undefined): string | undefined =>
  id === undefined || SAFE_ID.test(id) ? undefined : `${what} ${JSON.stringify(id)} is not an id (letters, digits, "_" and "-", at most 64, starting with a letter or digit)`;

/** Why a session with these options may not be made (for any caller, a fork included), or undefined. */
export function sessionIdentityProblem(options: SessionOptions): string | undefined {
  const malformed = idProblem('agentId', options.agentId) ?? idProblem('sessionId', options.sessionId);
  if (malformed !== undefined) return malformed;
  if (options.agentId === MAIN_AGENT) return `agentId '${MAIN_AGENT}' is the main session's; a session made by a plugin gets an id of its own`;
  if (options.sessionId !== undefined && options.sessionId !== options.parent?.sessionId) {
    return 'a session shares a session id only with the parent it is made under (give `parent`, or no `sessionId` for a new one)';
  }
  return undefined;
}

/** Why a plugin may not resume these records (the front end resumes the main session), or undefined. */
export function resumedIdentityProblem(records: SessionRecords, options: Pick<SessionOptions, 'agentId'> = {}): string | undefined {
  const agentId = records.agentId ?? options.agentId ?? MAIN_AGENT;
  const malformed = idProblem('agentId', agentId) ?? idProblem('sessionId', records.sessionId);
  if (malformed !== undefined) return malformed;
  if (agentId === MAIN_AGENT) return `records of agent '${MAIN_AGENT}' are the main session's, which only the front end resumes; give the records the agentId of the session the plugin made`;
  return undefined;
}
