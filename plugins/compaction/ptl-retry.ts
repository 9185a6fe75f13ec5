/**
 * C7: when the summary request itself is too long, the oldest user turns are left out of it:
 * one at a time for three tries (as much as possible is kept), then 20 % of those left at a time
 * (at least one), until it fits or one turn is left. Turns, not messages: a tool call and its
 * results stay together.
 */
import type { Message } from '../../types/messages.js';

export const SINGLE_DROPS = 3;
export const DROP_FRACTION = 0.2;

/** How many of the `left` oldest turns to leave out before try `retry` (1-based); 0: give up. */
export function turnsToDrop(retry: number, left: number): number {
  if (left <= 1) return 0;
  const wanted = retry <= SINGLE_DROPS ? 1 : Math.max(1, Math.ceil(left * DROP_FRACTION));
  return Math.min(wanted, left - 1);
}

/** Start indexes of the user turns: a turn begins at each user message (the first at 0). */
export function turnStarts(messages: readonly Message[]): number[] {
  const starts = [0];
  for (let index = 1; index < messages.length; index++) if (messages[index]?.role === 'user') starts.push(index);
  return starts;
}
