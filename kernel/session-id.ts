/** Session ids sort by time and are valid directory names: YYYYMMDD-HHMMSS-xxxx (SPEC C1). */
import { randomBytes } from 'node:crypto';

export function newSessionId(now = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${date}-${time}-${randomBytes(2).toString('hex')}`;
}

/** A sub-agent's id: short, unique within a process, safe in file names. */
export function newAgentId(): string {
  return `agent-${randomBytes(4).toString('hex')}`;
}
