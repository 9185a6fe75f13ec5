/** Turn limits, unknown-tool stop, plan reminders, final-text rules. */
import { historyOf } from '../../kernel/agent-session.js';
import type { ProviderEvent } from '../../types/provider.js';
import { call, say, useTools, fail } from '../support/memory-provider.js';
import { bootKernel, collect, doneEvent, runPrompt } from '../support/boot.js';
import { sleepTool, toolsPlugin, writeTool } from '../support/test-tools.js';
import { SUBAGENT_MAX_TURNS, COMPLETION_NOTE, UNKNOWN_TOOLS_NOTE, maxIterationsNote } from '../../kernel/agent-loop.js';
import type { ResolvedConfig } from '../../types/config.js';
import { PLAN_REMINDER_FULL, PLAN_REMINDER_SHORT } from '../../kernel/reminders.js';

const log = { events: [] as string[] };
const tools = toolsPlugin([sleepTool(log), writeTool(log)]);

const toolTurns = (n: number, last = 'finished') => [...Array.from({ length: n }, () => useTools([call('sleep_read', { ms: 0, text: 'x' })])), say(last)];
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: (path) => `/p/.mewcode.yaml:${path.length}:1` });

test('turn limit: a main-session run has none of its own: 60 tool turns complete', async () => {
  const { kernel, model } = await bootKernel(toolTurns(60), [tools]);
  const events = await runPrompt(kernel, 'long task');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', iterations: 61, finalText: 'finished' });
  expect(model.requests).toHaveLength(61);
});

test('turn limit: maxTurns N allows exactly N model turns and leaves an assistant message last', async () => {
  // N turns fit: the answer on turn N completes.
  const fits = await bootKernel(toolTurns(4), [tools]);
  expect(doneEvent(await collect(fits.kernel.run({ prompt: 'go', mode: 'bypassPermissions', maxTurns: 5 }))).reason).toBe('completed');
  // One turn more than allowed: stopped after exactly N requests.
  const { kernel, model } = await bootKernel(toolTurns(5), [tools]);
  const events = await collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions', maxTurns: 5 }));
  expect(model.requests).toHaveLength(5);
  expect(doneEvent(events)).toMatchObject({ reason: 'max_iterations', iterations: 5 });
  expect(events.filter((e) => e.type === 'iteration').map((e) => (e as { iteration: number }).iteration)).toEqual([1, 2, 3, 4, 5]);
  expect(events).toContainEqual({ type: 'notice', message: maxIterationsNote(5) });
  expect(kernel.conversation.lastRole()).toBe('assistant');
});

test('turn limit: the run\'s limit beats max_turns from configuration, which beats the front end\'s default', async () => {
  const configured = { config: configWith({ max_turns: 3 }) };
  const byConfig = await bootKernel(toolTurns(10), [tools], configured);
  expect(doneEvent(await collect(byConfig.kernel.run({ prompt: 'go', mode: 'bypassPermissions', defaultMaxTurns: 7 }))).iterations).toBe(3);
  const byRun = await bootKernel(toolTurns(10), [tools], configured);
  expect(doneEvent(await collect(byRun.kernel.run({ prompt: 'go', mode: 'bypassPermissions', maxTurns: 6 }))).iterations).toBe(6);
  const byDefault = await bootKernel(toolTurns(10), [tools]);
  expect(doneEvent(await collect(byDefault.kernel.run({ prompt: 'go', mode: 'bypassPermissions', defaultMaxTurns: 7 }))).iterations).toBe(7);
});

test('turn limit: a bad max_turns is reported with its file and ignored', async () => {
  const { kernel, reporter } = await bootKernel(toolTurns(30), [tools], { config: configWith({ max_turns: 0 }) });
  expect(reporter.warnings.join('\n')).toMatch(/\/p\/\.mewcode\.yaml:\d+:1: max_turns: .*\(section ignored\)/);
  expect(doneEvent(await runPrompt(kernel, 'go')).reason).toBe('completed');
});

test('turn limit: a sub-agent stops after SUBAGENT_MAX_TURNS unless its session sets its own', async () => {
  const { kernel, model } = await bootKernel(toolTurns(40), [tools]);
  const child = kernel.createSession({ parent: kernel.session });
  const events = await collect(child.run({ prompt: 'sub', mode: 'bypassPermissions' }));
  expect(SUBAGENT_MAX_TURNS).toBe(25);
  expect(doneEvent(events)).toMatchObject({ reason: 'max_iterations', iterations: 25 });
  expect(model.requests).toHaveLength(25);
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
  Object.defineProperty(historyOf(kernel.session), 'messages', { get: () => { throw new Error('disk gone'); } });
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

test('a refusal ends the run as "refusal": tool calls of the refused turn never run, the refused partial turn is replaced in history by the note, and the user is told', async () => {
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
  // Not sent back as it was (Anthropic's guidance for streaming refusals): the note stands in for it.
  expect(kernel.conversation.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The model declined to continue (category: cyber): Not this one.' }], toolCalls: [], note: true });
  expect(events).toContainEqual({ type: 'notice', message: expect.stringMatching(/^The 6 characters of answer that arrived before the refusal were shown but are not kept in the session's history/) });
});
