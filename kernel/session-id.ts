/** Session ids sort by time and are valid directory names: YYYYMMDD-HHMMSS-xxxx (C1). */
import { nodeCrypto } from '../types/lazy-builtin.js';

/**
 * The suffix only keeps two sessions started in the same second apart; it guards nothing, so it
 * comes from `Math.random` (seeded by V8 from the system's entropy), not `node:crypto`, which no
 * other step before the first request needs and whose loading cost ≈ 3.7 ms of every launch.
 */
export function newSessionId(now = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const suffix = Math.floor(Math.random() * 0x10000).toString(16).padStart(4, '0');
  return `${date}-${time}-${suffix}`;
}

/** A sub-agent's id: short, unique within a process, safe in file names. */
export function newAgentId(): string {
  return `agent-${nodeCrypto().randomBytes(4).toString('hex')}`;
}
