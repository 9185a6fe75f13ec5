/**
 * The kernel owns the compaction procedure (C1–C8): a trigger (auto each iteration, manual on
 * request, emergency after prompt-too-long) → `preCompact` (whose block stops only a compaction
 * the user asked for) → the CompactionService bound under
 * TOKENS.CompactionService rewrites the history → `postCompact` (whose taps may hand back text to
 * re-inject) → the re-injected text appended. Without a service nothing is compacted. After a
 * compaction the usage anchor no longer describes the history (C8).
 */
import type { AgentEvent, CompactionReason } from '../types/events.js';
import type { CompactionContext, ContextState, KernelHooks } from '../types/hooks.js';
import type { Message } from '../types/messages.js';
import type { Conversation } from '../types/services.js';
import type { CompactionOutcome, CompactionService } from '../types/session.js';
import { estimateTokens, type UsageAnchor } from './context-estimate.js';
import { startableHistory } from './conversation.js';

export interface CompactionDeps {
  hooks: KernelHooks;
  conversation: Conversation;
  anchor: { current: UsageAnchor | undefined };
  context: CompactionContext;
  service: CompactionService | undefined;
  /** The tools the session offers now. */
  tools: readonly string[];
  focus?: string;
  /**
   * The user asked for this compaction (`/compact`): a preCompact tap's block stops it. Any other
   * (automatic, emergency, a resumed history too full to go on) only warns: the context must shrink.
   */
  userAsked?: boolean;
  emit(event: AgentEvent): void;
  signal?: AbortSignal;
}

/** Returns true when the history was rewritten. Auto checks announce only a real compaction. */
export async function compactHistory(reason: CompactionReason, deps: CompactionDeps): Promise<boolean> {
  const { service } = deps;
  const state: ContextState = {
    reason,
    estimatedTokens: estimateTokens(deps.conversation.messages, deps.anchor.current, service),
    contextWindow: deps.context.provider.contextWindow,
    compacted: false,
    ...(deps.focus ? { focus: deps.focus } : {}),
  };
  if (reason === 'auto' && (!service || !service.shouldCompact(state, deps.context, deps.conversation.messages))) return false;
  deps.emit({ type: 'compaction_start', reason });
  if (!service || deps.conversation.messages.length === 0) {
    deps.emit({ type: 'compaction_end', reason, changed: false });
    return false;
  }
  const block = await deps.hooks.preCompact.promise(state, deps.context);
  if (block && deps.userAsked === true) {
    const notice = `Not compacted: ${block.by} blocked the compaction: ${block.reason}`;
    deps.emit({ type: 'notice', message: notice });
    deps.emit({ type: 'compaction_end', reason, changed: false, notice });
    return false;
  }
  if (block) deps.emit({ type: 'notice', message: `${block.by} asked not to compact (${block.reason}); compacting anyway: the conversation must shrink to fit the context window.` });
  let next: Message[] | CompactionOutcome | undefined;
  try {
    next = await service.compact(deps.conversation.messages, {
      reason,
      session: deps.context,
      tools: deps.tools,
      ...(deps.focus ? { focus: deps.focus } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  } catch (error) {
    deps.emit({ type: 'compaction_end', reason, changed: false });
    throw error;
  }
  // Cancelled while the summary was made (a service that answered anyway): the history stays
  // exactly as it was, never replaced after the user stopped it.
  if (!next || deps.signal?.aborted) {
    deps.emit({ type: 'compaction_end', reason, changed: false });
    return false;
  }
  const outcome: CompactionOutcome = Array.isArray(next) ? { messages: next } : next;
  await deps.conversation.replace(startableHistory(outcome.messages));
  deps.anchor.current = undefined;
  const after: ContextState = {
    ...state,
    compacted: true,
    tokensAfter: estimateTokens(deps.conversation.messages, undefined, service),
    history: deps.conversation.messages,
    ...(outcome.report ? { report: outcome.report } : {}),
    reinject: [],
  };
  await deps.hooks.postCompact.promise(after, deps.context);
  const parts = (after.reinject ?? []).filter((part) => typeof part === 'string' && part.trim() !== '');
  if (parts.length > 0) {
    // Appended (and so persisted) after the compaction record; it stays for the rest of the session.
    await deps.conversation.append({ role: 'user', content: [{ type: 'text', text: `<system-reminder>\nRestored after the conversation was summarised:\n\n${parts.join('\n\n')}\n</system-reminder>` }] });
  }
  deps.emit({ type: 'compaction_end', reason, changed: true, ...(outcome.report ? { notice: outcome.report.notice } : {}) });
  return true;
}
