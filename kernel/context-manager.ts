/**
 * Calls the `manageContext` hook (where the compaction plugin lives) and keeps the usage anchor
 * honest: after a compaction the old anchor no longer describes the history (C8).
 */
import type { AgentEvent, CompactionReason } from '../types/events.js';
import type { KernelHooks, ManageContextContext } from '../types/hooks.js';
import type { Message } from '../types/messages.js';
import { estimateTokens, type UsageAnchor } from './context-estimate.js';

export interface ContextManagerDeps {
  hooks: KernelHooks;
  messages(): readonly Message[];
  anchor: { current: UsageAnchor | undefined };
  context: ManageContextContext;
  emit(event: AgentEvent): void;
}

/** Returns true when the history was compacted. Auto checks announce only a real compaction. */
export async function manageContext(reason: CompactionReason, deps: ContextManagerDeps): Promise<boolean> {
  const state = {
    reason,
    estimatedTokens: estimateTokens(deps.messages(), deps.anchor.current),
    contextWindow: deps.context.provider.contextWindow,
    compacted: false,
  };
  const announce = reason !== 'auto';
  if (announce) deps.emit({ type: 'compaction_start', reason });
  const after = await deps.hooks.manageContext.promise(state, deps.context);
  if (after.compacted) {
    deps.anchor.current = undefined;
    if (!announce) deps.emit({ type: 'compaction_start', reason });
  }
  if (announce || after.compacted) deps.emit({ type: 'compaction_end', reason, changed: after.compacted });
  return after.compacted;
}
