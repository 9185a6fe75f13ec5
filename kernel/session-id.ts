/** Session ids sort by time and are valid directory names: YYYYMMDD-HHMMSS-xxxx (C1). */
import { nodeCrypto } from '../types/lazy-builtin.js';

/** Draws before giving up on finding a free id (65,536 suffixes a second: never reached in practice). */
const MAX_DRAWS = 64;

/** Ids minted by this process: two sessions of one process never share one, saved or not. */
const minted = new Set<string>();

/**
 * The first suffix only keeps two sessions started in the same second apart in the usual case; it
 * guards nothing, so it comes from `Math.random` (seeded by V8 from the system's entropy), not
 * `node:crypto`, which no other step before the first request needs and whose loading cost ≈ 3.7 ms
 * of every launch. A suffix that is taken (`taken`: minted here, or its session directory already
 * exists, another process's) is drawn again from `node:crypto`, which cannot repeat a bad draw of
 * `Math.random` (a fixed or poorly seeded one).
 */
export function newSessionId(now = new Date(), taken: (id: string) => boolean = () => false): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  let id = '';
  for (let draw = 0; draw < MAX_DRAWS; draw += 1) {
    const random = draw === 0 ? Math.floor(Math.random() * 0x10000) : nodeCrypto().randomBytes(2).readUInt16BE(0);
    id = `${date}-${time}-${random.toString(16).padStart(4, '0')}`;
    if (!minted.has(id) && !taken(id)) break;
  }
  minted.add(id);
  return id;
}

/** A sub-agent's id: short, unique within a process, safe in file names. */
export function newAgentId(): string {
  return `agent-${nodeCrypto().randomBytes(4).toString('hex')}`;
}
