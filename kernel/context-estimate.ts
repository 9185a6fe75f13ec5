/**
 * SPEC C8: token estimate = last real usage + characters of the messages since / 3.5.
 * One constant, shared by the loop and the compaction plugin.
 */
import type { Message, Usage } from '../types/messages.js';

export const CHARS_PER_TOKEN = 3.5;

export interface UsageAnchor {
  /** input + output + cacheWrite + cacheRead of the last real response */
  tokens: number;
  /** history length when that usage was measured */
  messageCount: number;
}

export function anchorFromUsage(usage: Usage, messageCount: number): UsageAnchor {
  return { tokens: usage.input + usage.output + usage.cacheWrite + usage.cacheRead, messageCount };
}

export function messageChars(message: Message): number {
  if (message.role === 'tool') return message.results.reduce((n, r) => n + r.content.length, 0);
  let chars = 0;
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else if (block.type === 'redacted_thinking') chars += block.data.length;
    else chars += 1000; // an image: a fixed guess rather than its base64 length
  }
  if (message.role === 'assistant') for (const call of message.toolCalls) chars += call.name.length + call.input.length;
  return chars;
}

export function estimateTokens(messages: readonly Message[], anchor: UsageAnchor | undefined): number {
  // An anchor from a longer history (before compaction) no longer describes these messages.
  const base = anchor && anchor.messageCount <= messages.length ? anchor : undefined;
  let chars = 0;
  for (let i = base?.messageCount ?? 0; i < messages.length; i++) chars += messageChars(messages[i] as Message);
  return (base?.tokens ?? 0) + Math.ceil(chars / CHARS_PER_TOKEN);
}
