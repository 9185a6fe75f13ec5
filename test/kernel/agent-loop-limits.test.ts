/** SPEC L1, L2, L5: iteration limits, unknown-tool stop, plan reminders, final-text rules. */
import type { ProviderEvent } from '../../types/provider.js';
import { call, say, useTools, fail } from '../support/memory-provider.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { sleepTool, toolsPlugin, writeTool } from '../support/test-tools.js';
import { MAX_ITERATIONS, COMPLETION_NOTE, UNKNOWN_TOOLS_NOTE, MAX_ITERATIONS_NOTE } from '../../kernel/agent-loop.js';
import { PLAN_REMINDER_FULL, PLAN_REMINDER_SHORT } from '../../kernel/reminders.js';

const log = { events: [] as string[] };
const tools = toolsPlugin([sleepTool(log), writeTool(log)]);

test('L1: a run stops after exactly 25 iterations and leaves an assistant message last', async () => {
  const steps = Array.from({ length: 30 }, () => useTools([call('sleep_read', { ms: 0, text: 'x' })]));
  const { kernel, model } = await bootKernel(steps, [tools]);
  const events = await runPrompt(kernel, 'loop forever');
  expect(MAX_ITERATIONS).toBe(25);
  expect(model.requests).toHaveLength(25);
  expect(doneEvent(events)).toMatchObject({ reason: 'max_iterations', iterations: 25 });
  expect(events.filter((e) => e.type === 'iteration').map((e) => (e as { iteration: number }).iteration)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  expect(events).toContainEqual({ type: 'notice', message: MAX_ITERATIONS_NOTE });
  expect(kernel.conversation.lastRole()).toBe('assistant');
});

test('L1: three consecutive all-unknown iterations stop the run; one known call resets the count', async () => {
  const steps = [
    useTools([call('nope_a')]),
    useTools([call('nope_b')]),
    useTools([call('nope_c'), call('sleep_read', { ms: 0, text: 'ok' })]),
    useTools([call('nope_d')]),
    useTools([call('nope_e')]),
    useTools([call('nope_f')]),
    say('never reached'),
  ];
  const { kernel, model } = await bootKernel(steps, [tools]);
  const events = await runPrompt(kernel, 'hallucinate');
  expect(model.requests).toHaveLength(6);
  expect(doneEvent(events).reason).toBe('unknown_tools');
  expect(events).toContainEqual({ type: 'notice', message: UNKNOWN_TOOLS_NOTE });
  const unknownResult = events.find((e) => e.type === 'tool_end' && e.call.name === 'nope_a');
  expect(unknownResult).toMatchObject({ result: { isError: true, content: expect.stringContaining('Unknown tool: nope_a') } });
  expect(kernel.conversation.lastRole()).toBe('assistant');
});

test('L1: sub-agent style limit of 2 unknown iterations is configurable', async () => {
  const { kernel, model } = await bootKernel([useTools([call('x')]), useTools([call('y')]), say('no')], [tools], { maxUnknownToolIterations: 2 });
  expect(doneEvent(await runPrompt(kernel, 'go')).reason).toBe('unknown_tools');
  expect(model.requests).toHaveLength(2);
});

test('L1/L2: plan mode offers read-only tools only and repeats the full reminder every 4 iterations', async () => {
  const steps = [...Array.from({ length: 5 }, () => useTools([call('sleep_read', { ms: 0, text: 'p' })])), say('the plan')];
  const { kernel, model } = await bootKernel(steps, [tools]);
  await runPrompt(kernel, 'plan it', 'plan');
  expect(model.requests.map((r) => r.tools.map((t) => t.name))).toEqual(Array.from({ length: 6 }, () => ['sleep_read']));
  expect(model.requests.map((r) => r.reminder)).toEqual([
    PLAN_REMINDER_FULL, PLAN_REMINDER_SHORT, PLAN_REMINDER_SHORT, PLAN_REMINDER_SHORT, PLAN_REMINDER_FULL, PLAN_REMINDER_SHORT,
  ]);
});

test('L2: outside plan mode every tool is offered and there is no reminder', async () => {
  const { kernel, model } = await bootKernel([say('hi')], [tools]);
  await runPrompt(kernel, 'hello', 'default');
  expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['sleep_read', 'write_note']);
  expect(model.requests[0]!.reminder).toBeUndefined();
});

test('L2: injected reminders are taken once and merged after the plan reminder', async () => {
  const { kernel, model } = await bootKernel([useTools([call('sleep_read', { ms: 0, text: 'a' })]), say('done')], [tools]);
  kernel.injectReminder('hook says hi');
  await runPrompt(kernel, 'go', 'plan');
  expect(model.requests[0]!.reminder).toBe(`${PLAN_REMINDER_FULL}\n\nhook says hi`);
  expect(model.requests[1]!.reminder).toBe(PLAN_REMINDER_SHORT);
});

test('L2: an empty final answer becomes a completion note, never an empty assistant message', async () => {
  const { kernel } = await bootKernel([[{ type: 'usage', usage: { input: 1, output: 0, cacheWrite: 0, cacheRead: 0 } }, { type: 'done', content: [], stopReason: 'end_turn' }]]);
  const events = await runPrompt(kernel, 'say nothing');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: COMPLETION_NOTE });
  expect(kernel.conversation.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: COMPLETION_NOTE }], toolCalls: [] });
});

test('L2: thinking blocks with signatures are kept in history; thinking is not final text', async () => {
  const { kernel } = await bootKernel([[
    { type: 'thinking', thinking: 'secret reasoning' },
    { type: 'text', text: 'answer' },
    { type: 'done', content: [{ type: 'thinking', thinking: 'secret reasoning', signature: 'sig' }, { type: 'text', text: 'answer' }], stopReason: 'end_turn' },
  ]]);
  const events = await runPrompt(kernel, 'think');
  expect(doneEvent(events).finalText).toBe('answer');
  expect(events).toContainEqual({ type: 'thinking', thinking: 'secret reasoning' });
  expect(kernel.conversation.messages.at(-1)).toMatchObject({ content: [{ type: 'thinking', signature: 'sig' }, { type: 'text', text: 'answer' }] });
});

test('L5: a stream error ends the run with an error and an assistant message last', async () => {
  const { kernel } = await bootKernel([fail('server', 'upstream exploded')]);
  const events = await runPrompt(kernel, 'go');
  expect(events).toContainEqual({ type: 'error', message: 'upstream exploded', kind: 'server' });
  expect(doneEvent(events).reason).toBe('error');
  expect(kernel.conversation.lastRole()).toBe('assistant');
  expect(kernel.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
});

test('L5: a context-management failure is an exit path that keeps history valid', async () => {
  const { kernel } = await bootKernel([say('unused')]);
  // A kernel-level failure (not a plugin tap, which is guarded): break the estimate input.
  Object.defineProperty(kernel.conversation, 'messages', { get: () => { throw new Error('disk gone'); } });
  const events = await runPrompt(kernel, 'go');
  expect(doneEvent(events).reason).toBe('error');
  expect(events.some((e) => e.type === 'error' && e.message.includes('disk gone'))).toBe(true);
});

test('K1: malformed tool input and throwing tools become error results, the loop continues', async () => {
  const thrower = { ...writeTool(log, 'explode'), async execute(): Promise<never> { throw new Error('kaboom'); } };
  const steps = [useTools([call('write_note', '{"text": "unterminated'), call('explode', { text: 'x' })]), say('recovered')];
  const { kernel, model } = await bootKernel(steps, [tools, toolsPlugin([thrower], 'thrower')]);
  const events = await runPrompt(kernel, 'go');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'recovered' });
  const results = (model.requests[1]!.messages.at(-1) as { results: { content: string; isError: boolean }[] }).results;
  expect(results[0]).toMatchObject({ isError: true, content: expect.stringContaining('Invalid arguments for write_note') });
  expect(results[1]).toMatchObject({ isError: true, content: 'Tool explode failed: kaboom' });
});

test('a refusal ends the run as "refusal": tool calls of the refused turn never run, history ends with what was shown', async () => {
  log.events.length = 0;
  const refused: ProviderEvent[] = [
    { type: 'text', text: 'Let me ' },
    { type: 'tool_calls', calls: [call('write_note', { text: 'y' })] },
    { type: 'done', content: [{ type: 'text', text: 'Let me ' }], stopReason: 'refusal', refusal: { category: 'cyber', explanation: 'Not this one.' } },
  ];
  const { kernel, model } = await bootKernel([refused, say('never asked')], [tools]);
  const events = await runPrompt(kernel, 'do it');
  expect(model.requests).toHaveLength(1);
  expect(log.events).toEqual([]);
  expect(doneEvent(events)).toMatchObject({ reason: 'refusal', finalText: 'The model declined to continue (category: cyber): Not this one.' });
  expect(events).toContainEqual({ type: 'error', message: 'The model declined to continue (category: cyber): Not this one.', kind: 'refusal' });
  expect(kernel.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  expect(kernel.conversation.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Let me ' }], toolCalls: [] });
});
