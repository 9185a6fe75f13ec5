/**
 * `/compact [focus]`: compact the session's history now (manual compaction, C7: it ignores the
 * automatic breaker); the focus is passed into the summary prompt. The kernel owns the procedure
 * (`session.compact`); the rewrite itself is the CompactionService bound under
 * TOKENS.CompactionService, which a build may not have. A cancel (the run's signal) aborts the
 * summary request and keeps the history exactly as it was.
 */
import type { Command } from '../../types/commands.js';
import type { KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';

export const NO_COMPACTION_SERVICE =
  'Cannot compact: this build has no compaction service (no plugin binds TOKENS.CompactionService), so the conversation is kept as it is.';

export const COMPACTION_CANCELLED = 'Compaction cancelled: the conversation is kept as it is.';

export function compactCommand(kernel: Pick<KernelApi, 'container'>): Command {
  return {
    name: 'compact',
    description: 'Compact the conversation now (summarise older turns to free context; a focus says what the summary should keep)',
    argumentHint: '[focus]',
    async run(session, args, { mode, signal }) {
      if (!kernel.container.isBound(TOKENS.CompactionService)) return { isError: true, output: NO_COMPACTION_SERVICE };
      const focus = args.trim();
      const before = session.conversation.messages.length;
      if (before === 0) return { output: 'Nothing to compact: the conversation is empty.' };
      let changed: boolean;
      try {
        changed = await session.compact(mode, { ...(focus ? { focus } : {}), ...(signal ? { signal } : {}) });
      } catch (error) {
        if (signal?.aborted) return { isError: true, output: COMPACTION_CANCELLED };
        return { isError: true, output: `Compaction failed, so the conversation is kept as it is: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (!changed && signal?.aborted) return { isError: true, output: COMPACTION_CANCELLED };
      if (!changed) return { output: `Nothing was compacted: the history (${plural(before)}) is unchanged.` };
      return { output: `Compacted the conversation${focus ? ` (focus: ${focus})` : ''}: ${plural(before)} before, ${plural(session.conversation.messages.length)} now.` };
    },
  };
}

function plural(count: number): string {
  return `${count} message${count === 1 ? '' : 's'}`;
}
