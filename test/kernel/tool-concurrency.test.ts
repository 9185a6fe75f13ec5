/**
 * Calls that are not read-only but say they write nothing (`Tool.concurrencySafe`, bash's reading
 * commands) run concurrently with their neighbours; everything else keeps the model's order.
 * Concurrency is shown by counting the calls running at once, not by timing.
 */
import type { AgentEvent } from '../../types/events.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { Tool, ToolContext, ToolInput } from '../../types/tools.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { bootKernel, collect, doneEvent, runPrompt } from '../support/boot.js';
import { abortableDelay, toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';
import { definePlugin } from '../../types/plugin.js';
import { CANCELLED_BEFORE_START, CANCELLED_WHILE_RUNNING } from '../../kernel/tool-runner.js';
import { MIN_TOOL_CONCURRENCY } from '../../kernel/agent-loop.js';

type Results = { toolCallId: string; content: string; isError: boolean }[];
function toolResults(model: { requests: { messages: readonly unknown[] }[] }, request: number): Results {
  return (model.requests[request]!.messages.at(-1) as { results: Results }).results;
}
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

/**
 * A tool shaped like bash: not read-only, and concurrency-safe when its `cmd` starts with "read".
 * Each call stays running for 30 ms (`read-slow`: 5 s) and the tool counts the most calls seen
 * running at once: 1 means they ran one after another.
 */
function shellLikeTool(log: ToolLog, seen = { running: 0, most: 0 }): Tool & { seen: typeof seen } {
  return {
    seen,
    name: 'sh',
    description: 'Runs cmd.',
    inputSchema: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
    readOnly: false,
    permissionTarget: (input) => ({ kind: 'command', command: String(input.cmd) }),
    concurrencySafe: async (input: ToolInput) => String(input.cmd).startsWith('read'),
    async execute(input: ToolInput, ctx: ToolContext) {
      const cmd = String(input.cmd);
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      log.events.push(`start:${cmd}`);
      try {
        if (cmd === 'read-fail') throw new Error('disk on fire');
        await abortableDelay(cmd === 'read-slow' ? 5_000 : 30, ctx.signal);
        log.events.push(`end:${cmd}`);
        return { content: `ran ${cmd}` };
      } finally {
        seen.running--;
      }
    },
  };
}

const allow = definePlugin({ name: 'allow-all', apply: (k) => k.hooks.checkPermission.tapPromise({ name: 'allow-all', stage: 350 }, async () => ({ decision: 'allow', layer: 'allow-all' })) });

test('concurrency-safe calls of a side-effect tool run together; results in the model\'s order', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sh', { cmd: 'read-a' }), call('sh', { cmd: 'read-b' }), call('sh', { cmd: 'read-c' }), call('sh', { cmd: 'read-d' })];
  const tool = shellLikeTool(log);
  const { kernel, model } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([tool]), allow]);
  const events = await runPrompt(kernel, 'go', 'default');
  expect(doneEvent(events).reason).toBe('completed');
  expect(tool.seen.most).toBe(4);
  expect(log.events.slice(0, 4)).toEqual(['start:read-a', 'start:read-b', 'start:read-c', 'start:read-d']);
  expect(toolResults(model, 1)).toEqual(calls.map((c) => ({ toolCallId: c.id, content: `ran ${JSON.parse(c.input).cmd}`, isError: false })));
  const order = events.filter((e) => e.type === 'tool_end').map((e) => (e as { call: { id: string } }).call.id);
  expect(order).toEqual(calls.map((c) => c.id));
});

test('a call that may write splits the turn: the calls before it finish first, the ones after start after it', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sh', { cmd: 'read-a' }), call('sh', { cmd: 'read-b' }), call('sh', { cmd: 'write-x' }), call('write_note', { text: 'n' }), call('sh', { cmd: 'read-c' })];
  const { kernel, model } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([shellLikeTool(log), writeTool(log)]), allow]);
  await runPrompt(kernel, 'go', 'default');
  expect(log.events).toEqual(['start:read-a', 'start:read-b', 'end:read-a', 'end:read-b', 'start:write-x', 'end:write-x', 'write:n', 'start:read-c', 'end:read-c']);
  expect(toolResults(model, 1).map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
});

test('max_tool_concurrency caps how many run at once; the default is at least MIN_TOOL_CONCURRENCY', async () => {
  const capped = shellLikeTool({ events: [] });
  const calls = Array.from({ length: 6 }, (_, i) => call('sh', { cmd: `read-${i}` }));
  const one = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([capped]), allow], { config: configWith({ max_tool_concurrency: 2 }) });
  await runPrompt(one.kernel, 'go', 'default');
  expect(capped.seen.most).toBe(2);

  const open = shellLikeTool({ events: [] });
  const wide = Array.from({ length: MIN_TOOL_CONCURRENCY }, (_, i) => call('sh', { cmd: `read-${i}` }));
  const two = await bootKernel([useTools(wide), say('ok')], [toolsPlugin([open]), allow]);
  await runPrompt(two.kernel, 'go', 'default');
  expect(open.seen.most).toBe(MIN_TOOL_CONCURRENCY);
  expect(toolResults(two.model, 1).every((r) => !r.isError)).toBe(true);
});

test('a failing call mid-batch is an error result; its neighbours finish and history stays valid', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sh', { cmd: 'read-a' }), call('sh', { cmd: 'read-fail' }), call('sh', { cmd: 'read-c' })];
  const { kernel, model } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([shellLikeTool(log)]), allow]);
  const events = await runPrompt(kernel, 'go', 'default');
  const results = toolResults(model, 1);
  expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
  expect(results[1]).toMatchObject({ isError: true, content: expect.stringContaining('disk on fire') });
  expect(results[0]!.isError).toBe(false);
  expect(results[2]!.isError).toBe(false);
  expect(doneEvent(events).reason).toBe('completed');
  expect(kernel.conversation.lastRole()).toBe('assistant');
});

test('abort mid-batch: every call of the turn is answered (running ones cancelled, later ones never started)', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sh', { cmd: 'read-slow' }), call('sh', { cmd: 'read-slow' }), call('sh', { cmd: 'write-after' })];
  const tool = shellLikeTool(log);
  const { kernel } = await bootKernel([useTools(calls), say('never')], [toolsPlugin([tool]), allow]);
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  for await (const event of kernel.run({ prompt: 'go', mode: 'default', signal: controller.signal })) {
    events.push(event);
    if (event.type === 'tool_start' && events.filter((e) => e.type === 'tool_start').length === 2) setTimeout(() => controller.abort(), 50);
  }
  expect(doneEvent(events).reason).toBe('cancelled');
  const answered = kernel.conversation.messages.find((m) => m.role === 'tool') as { results: Results };
  expect(answered.results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
  expect(answered.results[0]!.content).toContain(CANCELLED_WHILE_RUNNING);
  expect(answered.results[2]!.content).toContain(CANCELLED_BEFORE_START);
  expect(log.events).not.toContain('start:write-after');
  expect(kernel.conversation.lastRole()).toBe('assistant');
});

test('approval questions in a concurrent batch are asked one at a time, in order, before any call runs', async () => {
  const log: ToolLog = { events: [] };
  let open = 0;
  let overlapped = false;
  const asked: string[] = [];
  const ui = definePlugin({
    name: 'slow-ui',
    apply(kernel) {
      kernel.hooks.requestApproval.tapPromise('slow-ui', async (request) => {
        open++;
        overlapped ||= open > 1;
        asked.push(String((request as { input: ToolInput }).input.cmd));
        await new Promise((resolve) => setTimeout(resolve, 20));
        open--;
        return { choice: 'allow_once', answeredBy: 'slow-ui' };
      });
    },
  });
  const calls = [call('sh', { cmd: 'read-a' }), call('sh', { cmd: 'read-b' }), call('sh', { cmd: 'read-c' })];
  const { kernel } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([shellLikeTool(log)]), ui]);
  await runPrompt(kernel, 'go', 'default');
  expect(asked).toEqual(['read-a', 'read-b', 'read-c']);
  expect(overlapped).toBe(false);
  expect(log.events.slice(0, 3)).toEqual(['start:read-a', 'start:read-b', 'start:read-c']);
});

test('a PreToolUse rewrite that makes a call unsafe runs the batch one call at a time', async () => {
  const log: ToolLog = { events: [] };
  const rewrite = definePlugin({
    name: 'rewriter',
    apply(kernel) {
      kernel.hooks.preToolUse.tapPromise('rewriter', async (decision, ctx) =>
        ctx.input.cmd === 'read-b' ? { ...decision, input: { cmd: 'write-b' } } : decision,
      );
    },
  });
  const calls = [call('sh', { cmd: 'read-a' }), call('sh', { cmd: 'read-b' })];
  const tool = shellLikeTool(log);
  const { kernel, model } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([tool]), allow, rewrite]);
  await runPrompt(kernel, 'go', 'default');
  expect(tool.seen.most).toBe(1);
  expect(log.events).toEqual(['start:read-a', 'end:read-a', 'start:write-b', 'end:write-b']);
  expect(toolResults(model, 1).map((r) => r.content)).toEqual(['ran read-a', 'ran write-b']);
});

test('a tool whose concurrencySafe throws runs alone', async () => {
  const log: ToolLog = { events: [] };
  const seen = { running: 0, most: 0 };
  const tool = { ...shellLikeTool(log, seen), concurrencySafe: () => { throw new Error('cannot tell'); } };
  const calls = [call('sh', { cmd: 'read-a' }), call('sh', { cmd: 'read-b' })];
  const { kernel } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([tool]), allow]);
  const events = await collect(kernel.run({ prompt: 'go', mode: 'default' }));
  expect(doneEvent(events).reason).toBe('completed');
  expect(seen.most).toBe(1);
  expect(log.events).toEqual(['start:read-a', 'end:read-a', 'start:read-b', 'end:read-b']);
});
