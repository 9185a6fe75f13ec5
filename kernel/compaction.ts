/**
 * The kernel owns the compaction procedure (SPEC C): a trigger (auto each iteration, manual on
 * request, emergency after prompt-too-long) → `preCompact` → the CompactionService bound under
 * TOKENS.CompactionService rewrites the history → `postCompact`. Without a service nothing is
 * compacted. After a compaction the usage anchor no longer describes the history (C8).
 */
import type { AgentEvent, CompactionReason } from '../types/events.js';
import type { CompactionContext, ContextState, KernelHooks } from '../types/hooks.js';
import type { Conversation } from '../types/services.js';
import type { CompactionService } from '../types/session.js';
import { estimateTokens, type UsageAnchor } from './context-estimate.js';
import { startableHistory } from './conversation.js';

export interface CompactionDeps {
  hooks: KernelHooks;
  conversation: Conversation;
  anchor: { current: UsageAnchor | undefined };
  context: CompactionContext;
  service: CompactionService | undefined;
  emit(event: AgentEvent): void;
  signal?: AbortSignal;
}

/** Returns true when the history was rewritten. Auto checks announce only a real compaction. */
export async function compactHistory(reason: CompactionReason, deps: CompactionDeps): Promise<boolean> {
  const state: ContextState = {
    reason,
    estimatedTokens: estimateTokens(deps.conversation.messages, deps.anchor.current),
    contextWindow: deps.context.provider.contextWindow,
    compacted: false,
  };
  const { service } = deps;
  if (reason === 'auto' && (!service || !service.shouldCompact(state))) return false;
  deps.emit({ type: 'compaction_start', reason });
  if (!service || deps.conversation.messages.length === 0) {
    deps.emit({ type: 'compaction_end', reason, changed: false });
    return false;
  }
  await deps.hooks.preCompact.promise(state, deps.context);
  let next;
  try {
    next = await service.compact(deps.conversation.messages, { reason, session: deps.context, ...(deps.signal ? { signal: deps.signal } : {}) });
  } catch (error) {
    deps.emit({ type: 'compaction_end', reason, changed: false });
    throw error;
  }
  if (!next) {
    deps.emit({ type: 'compaction_end', reason, changed: false });
    return false;
  }
  await deps.conversation.replace(startableHistory(next));
  deps.anchor.current = undefined;
  const after: ContextState = { ...state, compacted: true, tokensAfter: estimateTokens(deps.conversation.messages, undefined), history: deps.conversation.messages };
  await deps.hooks.postCompact.promise(after, deps.context);
  deps.emit({ type: 'compaction_end', reason, changed: true });
  return true;
}
