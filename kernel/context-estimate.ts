/**
 * C8: the kernel's side of the one token estimate (types/token-estimate.ts). A compaction
 * service that counts messages as they are sent supplies its own `estimateTokens`; without one the
 * kernel counts each message whole.
 */
import type { Message } from '../types/messages.js';
import type { CompactionService } from '../types/session.js';
import { estimateTokensWith, type UsageAnchor } from '../types/token-estimate.js';

export { anchorFromUsage, CHARS_PER_TOKEN, messageChars, type UsageAnchor } from '../types/token-estimate.js';

export function estimateTokens(messages: readonly Message[], anchor: UsageAnchor | undefined, service?: CompactionService): number {
  return service?.estimateTokens ? service.estimateTokens(messages, anchor) : estimateTokensWith(messages, anchor);
}
