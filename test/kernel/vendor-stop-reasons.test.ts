// What the loop makes of answers vendors end unusually: usage that is missing or all zeros, a stop
// at the context window instead of max_tokens, an answer that is only reasoning.
import { ContainerModule } from 'inversify';
import { COMPLETION_NOTE } from '../../kernel/agent-loop.js';
import { definePlugin } from '../../types/plugin.js';
import type { CompactionService } from '../../types/session.js';
import type { ProviderEvent } from '../../types/provider.js';
import type { UsageAnchor } from '../../types/token-estimate.js';
import { TOKENS } from '../../types/tokens.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { call } from '../support/memory-provider.js';
import { toolsPlugin, writeTool } from '../support/test-tools.js';

const zeroUsage: ProviderEvent = { type: 'usage', usage: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 } };

test('usage of all zeros (a server that fills it in without counting) does not anchor the estimate', async () => {
  const anchors: (UsageAnchor | undefined)[] = [];
  const service: CompactionService = {
    estimateTokens: (messages, anchor) => {
      anchors.push(anchor);
      return messages.length;
    },
    shouldCompact: () => false,
    compact: async (messages) => ({ messages: [...messages], report: { notice: '' } as never }),
  };
  const plugin = definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
  const { kernel } = await bootKernel([
    [{ type: 'text', text: 'a' }, zeroUsage, { type: 'done', content: [{ type: 'text', text: 'a' }], stopReason: 'stop' }],
    [{ type: 'text', text: 'b' }, { type: 'done', content: [{ type: 'text', text: 'b' }], stopReason: 'stop' }],
  ], [plugin]);
  await runPrompt(kernel, 'one');
  await runPrompt(kernel, 'two');
  expect(anchors.filter((a) => a !== undefined)).toEqual([]);
});

test('Anthropic model_context_window_exceeded is announced like max_tokens, and a cut tool call does not run', async () => {
  const log = { events: [] as string[] };
  const cut = { ...call('write_note', {}), input: '{"text": "half' };
  const { kernel } = await bootKernel([
    [{ type: 'tool_calls', calls: [cut] }, { type: 'done', content: [], stopReason: 'model_context_window_exceeded' }],
    [{ type: 'text', text: 'ok' }, { type: 'done', content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' }],
  ], [toolsPlugin([writeTool(log)])]);
  const events = await runPrompt(kernel, 'go');
  expect(events).toContainEqual(expect.objectContaining({ type: 'notice', message: expect.stringContaining('context window') }));
  const results = kernel.conversation.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
  expect(results[0]).toMatchObject({ isError: true, content: expect.stringContaining('split the work') });
  expect(log.events).toEqual([]);
});

test('an answer that is only reasoning is not a silent "(Task completed.)"', async () => {
  const { kernel } = await bootKernel([[{ type: 'thinking', thinking: 'hmm' }, { type: 'done', content: [{ type: 'thinking', thinking: 'hmm', signature: '' }], stopReason: 'stop' }]]);
  const events = await runPrompt(kernel, 'go');
  expect(events).toContainEqual({ type: 'notice', message: expect.stringContaining('only reasoning') });
  expect(doneEvent(events).finalText).not.toBe(COMPLETION_NOTE);
  expect(doneEvent(events).finalText).toContain('no answer');
});
