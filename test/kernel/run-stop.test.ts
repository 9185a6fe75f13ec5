/**
 * A tool call's request to end the run (`stopRun` on a preToolUse decision or a postToolUse
 * result, types/hooks.ts RunStop): the batch finishes, the model is asked nothing more, the run
 * ends `stopped` with the reason for the user, and neither the history nor a later tap loses or
 * leaks it.
 */
import type { AgentEvent } from '../../types/events.js';
import type { ToolMessage } from '../../types/messages.js';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import type { Tool } from '../../types/tools.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { toolsPlugin } from '../support/test-tools.js';

const ran: string[] = [];
const probe: Tool = {
  name: 'probe',
  description: 'records that it ran',
  inputSchema: { type: 'object' },
  readOnly: true,
  async execute(input) {
    ran.push(String((input as { n?: unknown }).n));
    return { content: 'probed' };
  },
};

const STOP = { reason: 'the build is red', by: 'stopper' };

/** `first` asks the run to end; `later`, tapped after it, answers with a new value that does not carry the request. */
function stopper(hook: 'preToolUse' | 'postToolUse'): MewcodePlugin {
  return definePlugin({
    name: 'stopper',
    apply(kernel) {
      if (hook === 'preToolUse') {
        kernel.hooks.preToolUse.tapPromise({ name: 'stopper:first', stage: 1 }, async (decision) => ({ ...decision, stopRun: STOP }));
        kernel.hooks.preToolUse.tapPromise({ name: 'stopper:later', stage: 2 }, async (decision) => ({ input: decision.input, additionalContext: [...decision.additionalContext] }));
      } else {
        kernel.hooks.postToolUse.tapPromise({ name: 'stopper:first', stage: 1 }, async (result) => ({ ...result, stopRun: STOP }));
        kernel.hooks.postToolUse.tapPromise({ name: 'stopper:later', stage: 2 }, async (result) => ({ toolCallId: result.toolCallId, content: `${result.content}!`, isError: result.isError }));
      }
    },
  });
}

beforeEach(() => {
  ran.length = 0;
});

test.each(['preToolUse', 'postToolUse'] as const)('%s stopRun: the call runs, later calls of the turn do not, and the run ends stopped', async (hook) => {
  // Two calls of a tool that may write: each runs alone, so the second is a later batch.
  const writer: Tool = { ...probe, readOnly: false };
  const { kernel, model } = await bootKernel([useTools([call('probe', { n: 1 }), call('probe', { n: 2 })]), say('asked again')], [toolsPlugin([writer]), stopper(hook)]);
  const events: AgentEvent[] = await runPrompt(kernel, 'go');
  await kernel.shutdown();
  expect(ran).toEqual(['1']);
  expect(model.requests).toHaveLength(1);
  const done = doneEvent(events);
  expect(done.reason).toBe('stopped');
  expect(done.finalText).toBe('stopper stopped the run: the build is red');
  expect(events.find((e) => e.type === 'notice' && e.message.includes('the build is red'))).toBeDefined();
  // History: both calls have results, none carries the request, and no text in it says the reason.
  const messages = kernel.session.conversation.messages;
  const tool = messages.find((m): m is ToolMessage => m.role === 'tool')!;
  expect(tool.results.map((r) => Object.keys(r).sort())).toEqual([
    ['content', 'isError', 'toolCallId'],
    ['content', 'isError', 'toolCallId'],
  ]);
  expect(tool.results[1]!.content).toContain('stopped the run before this call started');
  expect(JSON.stringify(messages)).not.toContain('the build is red');
  expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: '(Stopped by stopper.)' }] });
});

test('concurrency-safe calls of the same batch all run; the model is not asked again', async () => {
  const { kernel, model } = await bootKernel([useTools([call('probe', { n: 1 }), call('probe', { n: 2 })]), say('asked again')], [toolsPlugin([probe]), stopper('postToolUse')]);
  const events = await runPrompt(kernel, 'go');
  await kernel.shutdown();
  expect(ran.sort()).toEqual(['1', '2']);
  expect(model.requests).toHaveLength(1);
  expect(doneEvent(events).reason).toBe('stopped');
});
