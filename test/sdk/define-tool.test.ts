/** defineTool: the zod schema is what the model sees, what the kernel checks, and execute's input type. */
import * as z from 'zod';
import * as zm from 'zod/mini';
import { ContainerModule } from 'inversify';
import { defineTool } from '../../sdk/define-tool.js';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { Tool } from '../../types/tools.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { bootKernel, runPrompt } from '../support/boot.js';

type Results = { toolCallId: string; content: string; isError: boolean }[];
const resultsOf = (model: { requests: { messages: readonly unknown[] }[] }, request: number): Results =>
  (model.requests[request]!.messages.at(-1) as { results: Results }).results;
const plugin = (tool: Tool, extra: Partial<Parameters<typeof definePlugin>[0]> = {}) =>
  definePlugin({ name: 'shout-plugin', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(tool)), ...extra });

function shout(seen: unknown[]) {
  return defineTool({
    name: 'shout',
    description: 'Upper-cases a text.',
    input: z.strictObject({ text: z.string().min(1).describe('What to shout'), times: z.number().int().positive().default(1) }),
    readOnly: true,
    execute: ({ text, times }) => {
      seen.push({ text, times });
      // Compiles only because `text` is inferred as string and `times` as number.
      return { content: text.toUpperCase().repeat(times) };
    },
  });
}

test('the model sees the JSON Schema derived from the zod schema', async () => {
  const tool = shout([]);
  expect(tool.inputSchema).toEqual({
    type: 'object',
    properties: { text: { type: 'string', minLength: 1, description: 'What to shout' }, times: { type: 'integer', exclusiveMinimum: 0, maximum: expect.any(Number), default: 1 } },
    required: ['text'],
    additionalProperties: false,
  });
  const { kernel, model } = await bootKernel([say('hi')], [plugin(tool)]);
  await runPrompt(kernel, 'go');
  expect(model.requests[0]!.tools.find((t) => t.name === 'shout')?.inputSchema).toEqual(tool.inputSchema);
});

test('a valid input reaches execute parsed (defaults filled)', async () => {
  const seen: unknown[] = [];
  const { kernel, model } = await bootKernel([useTools([call('shout', { text: 'hey' })]), say('ok')], [plugin(shout(seen))]);
  await runPrompt(kernel, 'go');
  expect(seen).toEqual([{ text: 'hey', times: 1 }]);
  expect(resultsOf(model, 1)[0]).toMatchObject({ isError: false, content: 'HEY' });
});

test.each([
  [{}, /Invalid arguments for shout: text: .*expected string/i],
  [{ text: '' }, /Invalid arguments for shout: text: .*>=1 characters/i],
  [{ text: 'a', times: 0 }, /Invalid arguments for shout: times: .*>0/i],
  [{ text: 'a', loud: true }, /Invalid arguments for shout: Unrecognized key: "loud"/i],
  [{ text: 42, times: 'x' }, /text: .*; times: /],
])('input %j is refused before hooks, permissions or execute, naming the field', async (input, message) => {
  const seen: unknown[] = [];
  const hookSaw: unknown[] = [];
  const watcher = { apply: (k: any) => k.hooks.preToolUse.tapPromise('shout-plugin', async (d: unknown, ctx: { input: unknown }) => (hookSaw.push(ctx.input), d)) };
  const { kernel, model } = await bootKernel([useTools([call('shout', input)]), say('ok')], [plugin(shout(seen), watcher)]);
  await runPrompt(kernel, 'go');
  const [result] = resultsOf(model, 1);
  expect(result!.isError).toBe(true);
  expect(result!.content).toMatch(message);
  expect(result!.content).toMatch(/Send the call again/);
  expect(seen).toEqual([]);
  expect(hookSaw).toEqual([]);
});

test('a PreToolUse hook that rewrites the input into an invalid one is refused, naming the hook, and the refusal is recorded (permissionDecided)', async () => {
  const seen: unknown[] = [];
  const decided: unknown[] = [];
  const rewriter = {
    apply: (k: any) => {
      k.hooks.preToolUse.tapPromise('shout-plugin:rewrite', async (d: object) => ({ ...d, input: { text: 7 } }));
      k.hooks.permissionDecided.tapPromise('shout-plugin:audit', async (d: { allowed: boolean; verdict: { decision: string; layer: string } }) => void decided.push([d.allowed, d.verdict.decision, d.verdict.layer]));
    },
  };
  const { kernel, model } = await bootKernel([useTools([call('shout', { text: 'ok' })]), say('ok')], [plugin(shout(seen), rewriter)]);
  await runPrompt(kernel, 'go');
  expect(resultsOf(model, 1)[0]).toMatchObject({ isError: true, content: expect.stringMatching(/\[hook .*\] rewrote the arguments into ones shout does not accept: text: /) });
  expect(seen).toEqual([]);
  expect(decided).toEqual([[false, 'deny', expect.stringMatching(/^hook:/)]]);
});

test('zod/mini schemas work the same', async () => {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: 'count',
    description: 'Counts.',
    input: zm.object({ n: zm.int() }),
    readOnly: true,
    execute: ({ n }) => (seen.push(n), { content: String(n + 1) }),
  });
  expect(tool.inputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
  const { kernel, model } = await bootKernel([useTools([call('count', { n: 'x' }), call('count', { n: 4 })]), say('ok')], [plugin(tool)]);
  await runPrompt(kernel, 'go');
  expect(resultsOf(model, 1).map((r) => r.isError)).toEqual([true, false]);
  expect(seen).toEqual([4]);
});

test('an input schema that is not an object is a TypeError naming the tool', () => {
  expect(() => defineTool({ name: 'bad', description: 'x', input: z.string(), execute: () => ({ content: '' }) })).toThrow(/defineTool\("bad"\): input must be an object schema/);
});

test('a validateInput that throws is a failed check, not a crash', async () => {
  const tool: Tool = { ...shout([]), validateInput: () => { throw new Error('boom'); } };
  const { kernel, model } = await bootKernel([useTools([call('shout', { text: 'a' })]), say('ok')], [plugin(tool)]);
  await runPrompt(kernel, 'go');
  expect(resultsOf(model, 1)[0]).toMatchObject({ isError: true, content: expect.stringContaining("the tool's input check failed: boom") });
});
