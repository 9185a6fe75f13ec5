/** C4: a resumed history that leaves less than 8,000 tokens of the window is compacted at once. */
import { ContainerModule } from 'inversify';
import { Kernel, RESUME_HEADROOM_TOKENS } from '../../kernel/kernel.js';
import { estimateTokens } from '../../kernel/context-estimate.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import type { Message } from '../../types/messages.js';
import { definePlugin } from '../../types/plugin.js';
import type { CompactionService } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import { memoryEnv, memoryModel } from '../support/memory-provider.js';

const history: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'x'.repeat(40_000) }] },
  { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] },
];
const summary: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'SUMMARY' }] }, { role: 'assistant', content: [{ type: 'text', text: 'noted' }], toolCalls: [] }];

async function resumeWithWindow(contextWindow: number): Promise<{ messages: readonly Message[]; compactions: string[] }> {
  const compactions: string[] = [];
  const service: CompactionService = {
    shouldCompact: () => false,
    compact: async (_messages, { reason }) => {
      compactions.push(reason);
      return summary;
    },
  };
  const plugin = definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
  const kernel = await Kernel.create({ plugins: [memoryModel([], { contextWindow }).plugin, plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
  const session = await kernel.resumeSession({ sessionId: '20261201-000000-abcd', messages: history });
  return { messages: session.conversation.messages, compactions };
}

test('exactly 8,000 tokens left: kept as it is; one token fewer: compacted (manual, so the breaker does not apply)', async () => {
  const tokens = estimateTokens(history, undefined);
  expect(RESUME_HEADROOM_TOKENS).toBe(8000);
  expect(await resumeWithWindow(tokens + RESUME_HEADROOM_TOKENS)).toEqual({ messages: history, compactions: [] });
  expect(await resumeWithWindow(tokens + RESUME_HEADROOM_TOKENS - 1)).toEqual({ messages: summary, compactions: ['manual'] });
});
