/**
 * What a resume could not use, in one phrase shared by every front end: each kind said apart, so
 * a call's result dropped because its call's line was lost is not counted as a second damaged
 * line, and a last line cut off by a crash is said at all. Undefined when everything was used.
 */
import type { LoadedSession } from './session-store.js';

export function sessionDamageNote(loaded: Pick<LoadedSession, 'skippedLines' | 'droppedResults' | 'cutLastLine'>): string | undefined {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const parts: string[] = [];
  if (loaded.skippedLines > 0) parts.push(`${count(loaded.skippedLines, 'damaged line', 'damaged lines')} skipped`);
  const dropped = loaded.droppedResults ?? 0;
  if (dropped > 0) parts.push(`${count(dropped, 'tool result', 'tool results')} dropped (the call ${dropped === 1 ? 'it answered was' : 'they answered were'} on a damaged line)`);
  if (loaded.cutLastLine === true) parts.push('its last line was cut off mid-write (a crash?) and was not used');
  return parts.length === 0 ? undefined : parts.join('; ');
}
