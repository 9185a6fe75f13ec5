/**
 * C8, the one token estimate: the last real usage (input + output + cache write + cache read)
 * plus the characters of the messages since, / 3.5. The kernel and the compaction plugin share this
 * constant and this arithmetic; the compaction plugin counts a message as it is sent (a tool result
 * layer 1 moved out counts as its preview), the kernel's fallback counts it whole.
 */
import type { Message, Usage } from './messages.js';

export const CHARS_PER_TOKEN = 3.5;

/** The last real usage of a session's main path, and the history length it describes. */
export interface UsageAnchor {
  /** input + output + cacheWrite + cacheRead of the last real response */
  tokens: number;
  /** history length when that usage was measured */
  messageCount: number;
}

export function anchorFromUsage(usage: Usage, messageCount: number): UsageAnchor {
  return { tokens: usage.input + usage.output + usage.cacheWrite + usage.cacheRead, messageCount };
}

/** Characters of one message as a request carries it (an image: a fixed guess, not its base64). */
export function messageChars(message: Message): number {
  if (message.role === 'tool') return message.results.reduce((n, r) => n + r.content.length, 0);
  let chars = 0;
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else if (block.type === 'redacted_thinking') chars += block.data.length;
    else chars += 1000;
  }
  if (message.role === 'assistant') for (const call of message.toolCalls) chars += call.name.length + call.input.length;
  return chars;
}

export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The anchor plus the messages after it; an anchor from a longer history (before a compaction) is ignored. */
export function estimateTokensWith(messages: readonly Message[], anchor: UsageAnchor | undefined, charsOf: (message: Message) => number = messageChars): number {
  const base = anchor && anchor.messageCount <= messages.length ? anchor : undefined;
  let chars = 0;
  for (let i = base?.messageCount ?? 0; i < messages.length; i++) chars += charsOf(messages[i] as Message);
  return (base?.tokens ?? 0) + tokensOfChars(chars);
}
