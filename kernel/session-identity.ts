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

/** Why a session with these options may not be made (for any caller, a fork included), or undefined. */
export function sessionIdentityProblem(options: SessionOptions): string | undefined {
  if (options.agentId === MAIN_AGENT) return `agentId '${MAIN_AGENT}' is the main session's; a session made by a plugin gets an id of its own`;
  if (options.sessionId !== undefined && options.sessionId !== options.parent?.sessionId) {
    return 'a session shares a session id only with the parent it is made under (give `parent`, or no `sessionId` for a new one)';
  }
  return undefined;
}

/** Why a plugin may not resume these records (the front end resumes the main session), or undefined. */
export function resumedIdentityProblem(records: SessionRecords, options: Pick<SessionOptions, 'agentId'> = {}): string | undefined {
  const agentId = records.agentId ?? options.agentId ?? MAIN_AGENT;
  if (agentId === MAIN_AGENT) return `records of agent '${MAIN_AGENT}' are the main session's, which only the front end resumes; give the records the agentId of the session the plugin made`;
  return undefined;
}
