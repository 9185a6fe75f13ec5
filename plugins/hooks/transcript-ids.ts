/**
 * The uuid of a line of the Claude-shaped transcript, derived rather than drawn: a hash (name-based,
 * as a UUID v5) of the session, the agent, the line before it and what the line holds. So the same
 * history always gets the same ids — a file rebuilt after it went missing matches the one a hook
 * read before — and the same message said twice still gets two ids (its parent differs).
 */
import { createHash } from 'node:crypto';

export function lineUuid(sessionId: string, agentId: string, parentUuid: string | null, content: unknown): string {
  const hash = createHash('sha1').update(JSON.stringify([sessionId, agentId, parentUuid, content])).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
