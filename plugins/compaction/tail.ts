/**
 * The recent tail a summary keeps as it was (C6): walking back from the end until both
 * ≥ TAIL_MIN_TOKENS and ≥ TAIL_MIN_MESSAGES are reached, then moved back to the assistant turn
 * whose results it would otherwise begin with, so a tool call and its results are never split.
 */
import type { Message } from '../../types/messages.js';
import { tokensOfChars } from '../../types/token-estimate.js';
import { TAIL_MIN_MESSAGES, TAIL_MIN_TOKENS } from './thresholds.js';

/** How a summary's message begins (summary-run.ts writes it): a history that begins so was compacted before. */
export const SUMMARY_INTRO = 'This session continues an earlier conversation that grew too long for the context window.';

export function isSummaryHead(message: Message): boolean {
  const first = message.role === 'user' ? message.content[0] : undefined;
  return first?.type === 'text' && first.text.startsWith(SUMMARY_INTRO);
}

/**
 * The index the kept tail starts at, always ≥ 1 (at least one message is summarised), or
 * undefined when no cut leaves anything to summarise. `charsOf`: a message's size as it is sent.
 */
export function tailStart(messages: readonly Message[], charsOf: (message: Message) => number): number | undefined {
  let chars = 0;
  let start = messages.length;
  while (start > 0) {
    start--;
    chars += charsOf(messages[start] as Message);
    if (tokensOfChars(chars) >= TAIL_MIN_TOKENS && messages.length - start >= TAIL_MIN_MESSAGES) break;
  }
  start = pairedStart(messages, start);
  if (start > 0) return start;
  // Everything would be kept: the smallest tail that still leaves something to summarise.
  for (let index = 1; index < messages.length; index++) if (pairedStart(messages, index) === index) return index;
  return undefined;
}

/** A cut at a tool message moves back to the assistant turn that made the calls. */
function pairedStart(messages: readonly Message[], start: number): number {
  let index = start;
  while (index > 0 && messages[index]?.role === 'tool') index--;
  return index;
}
