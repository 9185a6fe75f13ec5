/** L3, L4, L7, L8: ordered batch concurrency, cancellation, timeouts, run/compaction exclusion. */
import type { AgentEvent } from '../../types/events.js';
import type { Tool } from '../../types/tools.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { bootKernel, collect, doneEvent, runPrompt } from '../support/boot.js';
import { abortableDelay, sleepTool, toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';
import { definePlugin } from '../../types/plugin.js';
import { PermissionStage } from '../../types/permissions.js';
import { CANCELLED_BEFORE_START, CANCELLED_WHILE_RUNNING } from '../../kernel/tool-runner.js';
import { ensureAssistantTail } from '../../kernel/conversation.js';
import { historyOf } from '../../kernel/agent-session.js';
import type { CompactionService } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import { ContainerModule } from 'inversify';

function toolResults(model: { requests: { messages: readonly unknown[] }[] }, request: number): { toolCallId: string; content: string; isError: boolean }[] {
  return (model.requests[request]!.messages.at(-1) as { results: { toolCallId: string; content: string; isError: boolean }[] }).results;
}

test('L3: consecutive read-only calls run concurrently, starts announced together, ends and results in call order', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sleep_read', { ms: 150, text: 'a' }), call('sleep_read', { ms: 10, text: 'b' }), call('sleep_read', { ms: 80, text: 'c' })];
  const { kernel, model } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([sleepTool(log)])]);
  const events = await runPrompt(kernel, 'read three');
  // Concurrent, not serial: all three started before any ended, and they ended by duration.
  expect(log.events.slice(0, 3)).toEqual(['start:a', 'start:b', 'start:c']);
  expect(log.events.slice(3)).toEqual(['end:b', 'end:c', 'end:a']);
  const toolEvents = events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end').map((e) => `${e.type}:${(e as { call: { id: string } }).call.id}`);
  expect(toolEvents).toEqual([...calls.map((c) => `tool_start:${c.id}`), ...calls.map((c) => `tool_end:${c.id}`)]);
  expect(toolResults(model, 1)).toEqual(calls.map((c, i) => ({ toolCallId: c.id, content: `echo ${'abc'[i]}`, isError: false })));
});

test('L3: a side-effect call breaks the batch and runs alone, in order', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sleep_read', { ms: 40, text: 'r1' }), call('write_note', { text: 'w' }), call('sleep_read', { ms: 0, text: 'r2' })];
  const { kernel, model } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([sleepTool(log), writeTool(log)])]);
  await runPrompt(kernel, 'mixed');
  expect(log.events).toEqual(['start:r1', 'end:r1', 'write:w', 'start:r2', 'end:r2']);
  expect(toolResults(model, 1).map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
});

test('L3: a denied call in a batch yields an error result while the others run; the loop continues', async () => {
  const log: ToolLog = { events: [] };
  const denyB = definePlugin({
    name: 'deny-b',
    apply(kernel) {
      kernel.hooks.checkPermission.tapPromise({ name: 'deny-b', stage: PermissionStage.Rules }, async (request) =>
        request.input.text === 'b' ? { decision: 'deny', layer: 'deny-b', reason: 'b is secret' } : undefined,
      );
    },
  });
  const calls = [call('sleep_read', { ms: 5, text: 'a' }), call('sleep_read', { ms: 5, text: 'b' }), call('sleep_read', { ms: 5, text: 'c' })];
  const { kernel, model } = await bootKernel([useTools(calls), say('fine')], [toolsPlugin([sleepTool(log)]), denyB]);
  const events = await runPrompt(kernel, 'go');
  expect(doneEvent(events).reason).toBe('completed');
  const results = toolResults(model, 1);
  expect(results[1]).toEqual({ toolCallId: calls[1]!.id, isError: true, content: expect.stringContaining('Permission denied by deny-b: b is secret') });
  expect(results[0]!.isError).toBe(false);
  expect(results[2]!.isError).toBe(false);
  expect(log.events).not.toContain('start:b');
});

test('L3: in default mode a write call asks; with no UI to answer it is denied with a reason, read-only calls never ask', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sleep_read', { ms: 0, text: 'r' }), call('write_note', { text: 'w' })];
  const { kernel, model } = await bootKernel([useTools(calls), say('ok')], [toolsPlugin([sleepTool(log), writeTool(log)])]);
  const events = await runPrompt(kernel, 'go', 'default');
  const asks = events.filter((e): e is Extract<AgentEvent, { type: 'approval_request' }> => e.type === 'approval_request');
  expect(asks.map((a) => a.request.toolName)).toEqual(['write_note']);
  expect(asks[0]!.request.verdict).toMatchObject({ decision: 'ask', layer: 'permission-mode' });
  expect(toolResults(model, 1)[1]).toMatchObject({ isError: true, content: expect.stringContaining('Permission required: write_note needs approval') });
  expect(log.events).toEqual(['start:r', 'end:r']);
});

test('L3: approval answered allow runs the call; deny returns "User denied"', async () => {
  const log: ToolLog = { events: [] };
  let answer: 'allow_once' | 'deny' = 'allow_once';
  const ui = definePlugin({
    name: 'fake-ui',
    apply(kernel) {
      kernel.hooks.requestApproval.tapPromise('fake-ui', async () => ({ choice: answer, answeredBy: 'fake-ui', reason: 'not today' }));
    },
  });
  const steps = [useTools([call('write_note', { text: 'one' })]), say('a'), useTools([call('write_note', { text: 'two' })]), say('b')];
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([writeTool(log)]), ui]);
  await runPrompt(kernel, 'first', 'default');
  answer = 'deny';
  await runPrompt(kernel, 'second', 'default');
  expect(log.events).toEqual(['write:one']);
  expect(toolResults(model, 3)[0]).toMatchObject({ isError: true, content: 'User denied: not today' });
});

test('L4: cancellation stops running tools promptly; every unfinished call gets a cancelled result', async () => {
  const log: ToolLog = { events: [] };
  const calls = [call('sleep_read', { ms: 5_000, text: 'slow1' }), call('sleep_read', { ms: 5_000, text: 'slow2' }), call('write_note', { text: 'later' })];
  const { kernel } = await bootKernel([useTools(calls), say('never')], [toolsPlugin([sleepTool(log), writeTool(log)])]);
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(), 100);
  const events = await runPrompt(kernel, 'go', 'bypassPermissions', controller.signal);
  expect(performance.now() - started).toBeLessThan(3_000);
  expect(doneEvent(events).reason).toBe('cancelled');
  const toolMessage = kernel.conversation.messages.at(-2) as { role: string; results: { toolCallId: string; content: string; isError: boolean }[] };
  expect(toolMessage.role).toBe('tool');
  expect(toolMessage.results).toEqual([
    { toolCallId: calls[0]!.id, isError: true, content: CANCELLED_WHILE_RUNNING },
    { toolCallId: calls[1]!.id, isError: true, content: CANCELLED_WHILE_RUNNING },
    { toolCallId: calls[2]!.id, isError: true, content: CANCELLED_BEFORE_START },
  ]);
  expect(kernel.conversation.lastRole()).toBe('assistant');
  expect(log.events).not.toContain('write:later');
});

test('L4/L5: cancellation while streaming keeps the partial text and leaves an assistant message last', async () => {
  const controller = new AbortController();
  const { kernel } = await bootKernel([
    async function* (_request, signal) {
      yield { type: 'text', text: 'partial ' };
      controller.abort();
      await abortableDelay(10_000, signal).catch(() => undefined);
      yield { type: 'error', error: new (await import('../../types/provider.js')).ProviderError('cancelled', 'aborted') };
    },
  ]);
  const events = await runPrompt(kernel, 'go', 'default', controller.signal);
  expect(doneEvent(events).reason).toBe('cancelled');
  expect(kernel.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  expect(kernel.conversation.messages[1]).toMatchObject({ content: [{ type: 'text', text: 'partial ' }] });
});

function timedTool(declaredMs: number, sleepsMs: number, name: string, ignoresSignal = false): Tool {
  return {
    name,
    description: 'sleeps',
    inputSchema: { type: 'object' },
    readOnly: false,
    timeoutMs: () => declaredMs,
    async execute(_input, ctx) {
      if (ignoresSignal) await new Promise((r) => setTimeout(r, sleepsMs));
      else await abortableDelay(sleepsMs, ctx.signal);
      return { content: 'finished' };
    },
  };
}

test("L7: a tool's declared timeout is honoured beyond the kernel default (no hidden shorter cap)", async () => {
  const tool = timedTool(400, 200, 'patient');
  const { kernel, model } = await bootKernel([useTools([call('patient')]), say('ok')], [toolsPlugin([tool])], { defaultToolTimeoutMs: 50 });
  await runPrompt(kernel, 'go');
  expect(toolResults(model, 1)[0]).toMatchObject({ isError: false, content: 'finished' });
});

test('L7: a call that exceeds its timeout is an error result naming the limit', async () => {
  const { kernel, model } = await bootKernel([useTools([call('hasty')]), say('ok')], [toolsPlugin([timedTool(50, 10_000, 'hasty')])]);
  const started = performance.now();
  await runPrompt(kernel, 'go');
  expect(performance.now() - started).toBeLessThan(3_000);
  expect(toolResults(model, 1)[0]).toMatchObject({ isError: true, content: 'Tool hasty timed out after 50 ms.' });
});

test('L7: tools without their own timeout run under the kernel default', async () => {
  const log: ToolLog = { events: [] };
  const { kernel, model } = await bootKernel([useTools([call('sleep_read', { ms: 2_000, text: 'z' })]), say('ok')], [toolsPlugin([sleepTool(log)])], { defaultToolTimeoutMs: 60 });
  await runPrompt(kernel, 'go');
  expect(toolResults(model, 1)[0]).toMatchObject({ isError: true, content: 'Tool sleep_read timed out after 60 ms.' });
});

test('L8: a forced compaction waits for the running run and never overlaps it', async () => {
  const log: ToolLog = { events: [] };
  const order: string[] = [];
  const service: CompactionService = {
    shouldCompact: () => {
      order.push('check:auto');
      return false;
    },
    compact: async (_messages, { reason }) => {
      order.push(`compact:${reason}`);
      return undefined;
    },
  };
  const compaction = definePlugin({
    name: 'compaction-probe',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)),
    apply(kernel) {
      kernel.hooks.stop.tapPromise('compaction-probe', async () => void order.push('run-stopped'));
    },
  });
  const { kernel } = await bootKernel([useTools([call('sleep_read', { ms: 150, text: 'x' })]), say('ok')], [toolsPlugin([sleepTool(log)]), compaction]);
  const run = collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  await new Promise((r) => setTimeout(r, 20));
  const compacted = kernel.compactNow('default');
  await Promise.all([run, compacted]);
  expect(order).toEqual(['check:auto', 'check:auto', 'run-stopped', 'compact:manual']);
});

test('L2: prompt too long → one emergency compaction and one retry', async () => {
  const { ProviderError } = await import('../../types/provider.js');
  // A service that never asks for auto compaction and "compacts" by keeping the history as it is.
  const service: CompactionService = { shouldCompact: () => false, compact: async (messages, { reason }) => (reason === 'emergency' ? [...messages] : undefined) };
  const compaction = definePlugin({
    name: 'compaction-fake',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)),
  });
  const tooLong = [{ type: 'error' as const, error: new ProviderError('prompt_too_long', 'Prompt is too long for the context window (100000 tokens)') }];
  const { kernel, model } = await bootKernel([tooLong, say('fits now')], [compaction]);
  const events = await runPrompt(kernel, 'big');
  expect(model.requests).toHaveLength(2);
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'fits now' });
  expect(events.filter((e) => e.type.startsWith('compaction'))).toEqual([
    { type: 'compaction_start', reason: 'emergency' },
    { type: 'compaction_end', reason: 'emergency', changed: true },
  ]);

  // Without a compaction that helps, the typed error ends the run once, without a retry loop.
  const bare = await bootKernel([tooLong, say('unused')]);
  const bareEvents = await runPrompt(bare.kernel, 'big');
  expect(bare.model.requests).toHaveLength(1);
  expect(bareEvents).toContainEqual({ type: 'error', kind: 'prompt_too_long', message: expect.stringContaining('context window (100000 tokens)') });
});

test('K1/L5: a tool whose permissionTarget or timeoutMs throws, or which returns nothing, yields error results; history stays valid', async () => {
  const broken: Tool[] = [
    { name: 'bad_target', description: 'x', inputSchema: { type: 'object' }, readOnly: true, permissionTarget: () => { throw new Error('target exploded'); }, execute: async () => ({ content: 'never' }) },
    { name: 'bad_timeout', description: 'x', inputSchema: { type: 'object' }, readOnly: false, timeoutMs: () => { throw new Error('timeout exploded'); }, execute: async () => ({ content: 'ran anyway' }) },
    { name: 'nan_timeout', description: 'x', inputSchema: { type: 'object' }, readOnly: false, timeoutMs: () => Number.NaN, execute: async () => { await new Promise((r) => setTimeout(r, 30)); return { content: 'default timeout used' }; } },
    { name: 'returns_nothing', description: 'x', inputSchema: { type: 'object' }, readOnly: false, execute: async () => undefined as never },
  ];
  const calls = broken.map((t) => call(t.name));
  const { kernel, model } = await bootKernel([useTools(calls), say('recovered')], [toolsPlugin(broken)]);
  const events = await runPrompt(kernel, 'go');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'recovered' });
  expect(toolResults(model, 1)).toEqual([
    { toolCallId: calls[0]!.id, isError: true, content: 'Tool bad_target failed: target exploded' },
    { toolCallId: calls[1]!.id, isError: false, content: 'ran anyway' },
    { toolCallId: calls[2]!.id, isError: false, content: 'default timeout used' },
    { toolCallId: calls[3]!.id, isError: true, content: 'Tool returns_nothing failed: it returned no text result' },
  ]);
});

test('L5: a fault between the tool calls and their results still leaves every call answered', async () => {
  const { kernel } = await bootKernel([]);
  // The state a kernel fault leaves: an assistant turn whose calls never got results.
  const conversation = historyOf(kernel.session);
  await conversation.append({ role: 'user', content: [{ type: 'text', text: 'q' }] });
  await conversation.append({ role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'sleep_read', input: '{}' }] });
  await ensureAssistantTail(conversation, '(stopped)');
  expect(conversation.messages.slice(-2)).toEqual([
    { role: 'tool', results: [{ toolCallId: 'c1', isError: true, content: 'The run stopped before this call ran: (stopped)' }] },
    { role: 'assistant', content: [{ type: 'text', text: '(stopped)' }], toolCalls: [], note: true },
  ]);
});

test('plan mode refuses a call to a tool it did not offer, even if a rule would allow it', async () => {
  const log: ToolLog = { events: [] };
  const { kernel, model } = await bootKernel([useTools([call('write_note', { text: 'x' })]), say('plan')], [toolsPlugin([writeTool(log)])]);
  await runPrompt(kernel, 'go', 'plan');
  expect(toolResults(model, 1)[0]).toMatchObject({ isError: true, content: expect.stringContaining('write_note is not available in plan mode') });
  expect(log.events).toEqual([]);
});

test('L4: a call that finished during the cancellation grace reports its real result', async () => {
  const controller = new AbortController();
  const finishing: Tool = {
    name: 'finish_anyway', description: 'x', inputSchema: { type: 'object' }, readOnly: false,
    async execute() {
      controller.abort();
      await new Promise((r) => setTimeout(r, 20));
      return { content: 'written' };
    },
  };
  const c = call('finish_anyway');
  const { kernel } = await bootKernel([useTools([c]), say('never')], [toolsPlugin([finishing])]);
  await runPrompt(kernel, 'go', 'bypassPermissions', controller.signal);
  const toolMessage = kernel.conversation.messages.find((m) => m.role === 'tool') as { results: unknown[] };
  expect(toolMessage.results).toEqual([{ toolCallId: c.id, isError: false, content: 'written' }]);
});

test('a provider that throws is a provider error that keeps the partial text, not a context failure', async () => {
  const { kernel } = await bootKernel([
    async function* () {
      yield { type: 'text' as const, text: 'half an ans' };
      throw new Error('socket hang up');
    },
  ]);
  const events = await runPrompt(kernel, 'go');
  expect(events).toContainEqual({ type: 'error', kind: 'unknown', message: 'The provider failed: socket hang up' });
  expect(doneEvent(events).reason).toBe('error');
});

test('hitting max_tokens is announced, marked as the output limit (a front end reports the turn cut off)', async () => {
  const { kernel } = await bootKernel([[{ type: 'text', text: 'cut' }, { type: 'done', content: [{ type: 'text', text: 'cut' }], stopReason: 'max_tokens' }]]);
  const events = await runPrompt(kernel, 'go');
  expect(events).toContainEqual({ type: 'notice', message: expect.stringContaining('output token limit (max_tokens)'), outputLimit: true });
});
