/**
 * Policy plugins (DLP/redaction, model allowlists) fail closed: a postToolUse tap that throws or
 * answers malformed withholds the tool's output; a preModelRequest tap that throws, answers
 * malformed or refuses (`block`) stops the request before it is sent; and every model request —
 * a compaction summary included, on /compact and on resume — passes preModelRequest.
 */
import { MemoryReporter } from '../../kernel/reporter.js';
import { Kernel } from '../../kernel/kernel.js';
import { createCompactionPlugin } from '../../plugins/compaction/index.js';
import type { AgentEvent } from '../../types/events.js';
import type { ModelRequestContext } from '../../types/hooks.js';
import type { Message } from '../../types/messages.js';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../support/memory-provider.js';
import { sleepTool, toolsPlugin, type ToolLog } from '../support/test-tools.js';

const toolResults = (messages: readonly Message[]) => messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
const toolEnds = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'tool_end' ? [e.result] : []));

function postToolUse(name: string, answer: () => unknown): MewcodePlugin {
  return definePlugin({ name, apply: (kernel) => void kernel.hooks.postToolUse.tapPromise(name, async () => answer() as never) });
}

describe('postToolUse fails closed: the output is withheld', () => {
  test.each([
    ['throws', () => {
      throw new Error('redactor crashed');
    }, 'Output withheld: plugin org-redact failed in hook postToolUse: Error', 'plugin org-redact failed in hook postToolUse: redactor crashed'],
    ['answers malformed', () => 'not a result', 'Output withheld: plugin org-redact returned a malformed postToolUse result (a string)', 'plugin org-redact returned a malformed postToolUse result ("not a result")'],
  ])('a redaction tap that %s: the model, the user and history get an error result naming it, never the output', async (_what, answer, expected, warning) => {
    const log: ToolLog = { events: [] };
    const { kernel, model, reporter } = await bootKernel([useTools([call('sleep_read', { text: 'SECRET-42' })]), say('ok')], [toolsPlugin([sleepTool(log)]), postToolUse('org-redact', answer)]);
    const events = await runPrompt(kernel, 'go');
    expect(log.events).toEqual(['start:SECRET-42', 'end:SECRET-42']); // the tool ran
    const [result] = toolResults(kernel.conversation.messages);
    expect(result).toMatchObject({ isError: true });
    expect(result!.content).toContain(expected);
    expect(toolEnds(events)[0]).toEqual(result);
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain('echo SECRET-42');
    expect(reporter.warnings).toContain(warning); // in full for the user only
  });

  test('a later tap sees the withheld result, not the output (the session file records no secret)', async () => {
    const seen: string[] = [];
    const recorder = definePlugin({ name: 'recorder', apply: (kernel) => void kernel.hooks.postToolUse.tapPromise({ name: 'recorder', stage: 100 }, async (result) => (seen.push(result.content), result)) });
    const { kernel } = await bootKernel([useTools([call('sleep_read', { text: 'SECRET-42' })]), say('ok')], [toolsPlugin([sleepTool({ events: [] })]), postToolUse('org-redact', () => {
      throw new Error('boom');
    }), recorder]);
    await runPrompt(kernel, 'go');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^Output withheld: plugin org-redact failed/);
  });
});

describe('preModelRequest fails closed: the request is not sent', () => {
  function allowlist(answer: (request: unknown) => unknown): MewcodePlugin {
    return definePlugin({ name: 'org-models', apply: (kernel) => void kernel.hooks.preModelRequest.tapPromise('org-models', async (request) => answer(request) as never) });
  }

  test.each([
    ['throws', () => {
      throw new Error('model memory-model is not on the allowlist');
    }, 'plugin org-models failed in hook preModelRequest: Error'],
    ['answers malformed', () => 'nope', 'plugin org-models returned a malformed preModelRequest value (a string)'],
    ['refuses it (block)', (request: unknown) => ({ ...(request as object), block: { block: true, reason: 'model memory-model is not allowed', by: 'allowlist' } }), 'plugin org-models (allowlist) refused it: model memory-model is not allowed'],
  ])('a tap that %s: nothing reaches the provider; the run ends with an error naming the plugin and a valid history', async (_what, answer, expected) => {
    const later: string[] = [];
    const after = definePlugin({ name: 'after', apply: (kernel) => void kernel.hooks.preModelRequest.tapPromise('after', async (request) => (later.push('called'), request)) });
    const { kernel, model } = await bootKernel([say('must not be asked')], [allowlist(answer), after]);
    const events = await runPrompt(kernel, 'hello');
    expect(model.requests).toEqual([]);
    expect(later).toEqual([]);
    const done = doneEvent(events);
    expect(done.reason).toBe('error');
    expect(done.finalText).toBe(`(The run stopped: The model request was not sent: ${expected})`);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ kind: 'plugin', message: `The model request was not sent: ${expected}` });
    expect(kernel.conversation.messages.at(-1)!.role).toBe('assistant');
  });
});

describe('a compaction summary passes preModelRequest', () => {
  // Ten messages of ~4,000 tokens: the oldest five are summarised, the first carries the secret.
  const history: Message[] = Array.from({ length: 10 }, (_, i): Message =>
    i % 2 === 0
      ? { role: 'user', content: [{ type: 'text', text: `${i === 0 ? 'my token is SECRET-hunter2. ' : ''}${'x'.repeat(14_000)}` }] }
      : { role: 'assistant', content: [{ type: 'text', text: 'y'.repeat(14_000) }], toolCalls: [] },
  );

  function dlp(reasons: (string | undefined)[]): MewcodePlugin {
    return definePlugin({
      name: 'org-dlp',
      apply: (kernel) =>
        void kernel.hooks.preModelRequest.tapPromise('org-dlp', async (request, context: ModelRequestContext) => {
          reasons.push(context.reason);
          return { ...request, messages: JSON.parse(JSON.stringify(request.messages).replace(/SECRET-\w+/g, '[REDACTED]')) as Message[] };
        }),
    });
  }

  test.each([
    ['on resume (the history nearly fills the window)', 45_000],
    ['on /compact', 200_000],
  ])('%s: the DLP tap sees it (reason compaction) and the secret never reaches the provider', async (_when, contextWindow) => {
    const reasons: (string | undefined)[] = [];
    const model = memoryModel([say('<summary>S</summary>')], { contextWindow });
    const kernel = await Kernel.create({ plugins: [model.plugin, createCompactionPlugin(), dlp(reasons)], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
    const session = await kernel.resumeSession({ sessionId: '20261201-000000-abcd', messages: history });
    if (contextWindow === 200_000) expect(await session.compact('default')).toBe(true);
    expect(model.requests).toHaveLength(1);
    expect(reasons).toEqual(['compaction']);
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('[REDACTED]');
    expect(JSON.stringify(model.requests[0]!.messages)).not.toContain('SECRET-hunter2');
    expect(session.conversation.messages[0]).toMatchObject({ content: [{ text: expect.stringContaining('<summary>\nS\n</summary>') }, expect.anything()] });
  });

  test('a tap that refuses the summary request: nothing is sent and the compaction fails, naming the plugin', async () => {
    const model = memoryModel([say('<summary>S</summary>')], { contextWindow: 200_000 });
    const refuse = definePlugin({
      name: 'org-models',
      apply: (kernel) => void kernel.hooks.preModelRequest.tapPromise('org-models', async (request, context) => (context.reason === 'compaction' ? { ...request, block: { block: true, reason: 'no summaries', by: 'org-models' } } : request)),
    });
    const kernel = await Kernel.create({ plugins: [model.plugin, createCompactionPlugin(), refuse], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
    const session = await kernel.resumeSession({ sessionId: '20261201-000000-abcd', messages: history });
    await expect(session.compact('default')).rejects.toThrow('The model request was not sent: plugin org-models refused it: no summaries');
    expect(model.requests).toEqual([]);
    expect(session.conversation.messages).toHaveLength(history.length);
  });
});
