/**
 * A model's tool call ids as the kernel keeps them: a repeated id within one answer, an id reused
 * in a later turn, and a missing id each get a fresh id as the answer arrives, so the tool events,
 * the hooks, the history and both vendors' requests pair every call with its own result.
 */
import { ContainerModule } from 'inversify';
import type { AgentEvent } from '../../types/events.js';
import type { Message, ToolCall } from '../../types/messages.js';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { Tool } from '../../types/tools.js';
import { say, useTools } from '../support/memory-provider.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { sleepTool, toolsPlugin, type ToolLog } from '../support/test-tools.js';
import { historyProblems } from './kernel-v2-helpers.js';
import { toAnthropicMessages } from '../../plugins/provider-anthropic/request.js';
import { toOpenAIMessages } from '../../plugins/provider-openai/request.js';

const echo = (id: string, text: string): ToolCall => ({ id, name: 'sleep_read', input: JSON.stringify({ ms: text === 'a' ? 30 : 0, text }) });

/** Each call's id and the text it echoed, as the history pairs them. */
function pairs(messages: readonly Message[]): { id: string; asked: string; answered: string[] }[] {
  const out: { id: string; asked: string; answered: string[] }[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const next = messages[index + 1];
    for (const call of message.toolCalls) {
      const answered = next?.role === 'tool' ? next.results.filter((r) => r.toolCallId === call.id).map((r) => r.content) : [];
      out.push({ id: call.id, asked: `echo ${String((JSON.parse(call.input) as { text: string }).text)}`, answered });
    }
  });
  return out;
}

/** Every tool_use of an Anthropic request with the contents of the tool_results that name it. */
function anthropicPairs(messages: readonly Message[]): Record<string, string[]> {
  const uses: Record<string, string[]> = {};
  const params = toAnthropicMessages(messages);
  for (const param of params) {
    if (typeof param.content === 'string') continue;
    for (const block of param.content) {
      if (block.type === 'tool_use') {
        expect(uses[block.id]).toBeUndefined(); // each id once
        uses[block.id] = [`${block.name}:${JSON.stringify(block.input)}`];
      }
      if (block.type === 'tool_result') uses[block.tool_use_id]?.push(String(block.content));
    }
  }
  return uses;
}

function openaiPairs(messages: readonly Message[]): Record<string, string[]> {
  const uses: Record<string, string[]> = {};
  for (const param of toOpenAIMessages({ system: { stable: 's', environment: '' }, messages, tools: [] })) {
    if (param.role === 'assistant') {
      for (const call of param.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        expect(uses[call.id]).toBeUndefined();
        uses[call.id] = [`${call.function.name}:${call.function.arguments}`];
      }
    }
    if (param.role === 'tool') uses[param.tool_call_id]?.push(String(param.content));
  }
  return uses;
}

test('repeated, reused and missing ids become unique as the answer arrives; events, hooks, history and both requests pair each call with its own result', async () => {
  const log: ToolLog = { events: [] };
  const seen: string[] = [];
  const recorder = definePlugin({
    name: 'id-recorder',
    apply(kernel) {
      kernel.hooks.postToolUse.tapPromise('id-recorder', async (result, context) => {
        seen.push(`${context.call.id}=${result.toolCallId}:${result.content}`);
        return result;
      });
    },
  });
  const { kernel, model } = await bootKernel(
    [
      // One answer: `dup1` twice (the first one slower, so results finish out of order) and one with no id.
      useTools([echo('dup1', 'a'), echo('dup1', 'b'), echo('', 'c')]),
      // The next answer reuses `dup1`, and names one `dup1_2` itself (taken by now).
      useTools([echo('dup1', 'd'), echo('dup1_2', 'e')]),
      say('done'),
    ],
    [toolsPlugin([sleepTool(log)]), recorder],
  );
  const events: AgentEvent[] = await runPrompt(kernel, 'go');
  expect(doneEvent(events).reason).toBe('completed');

  const history = kernel.conversation.messages;
  expect(historyProblems(history)).toEqual([]);
  const paired = pairs(history);
  expect(paired.map((p) => p.id)).toEqual(['dup1', 'dup1_2', 'call_1', 'dup1_3', 'dup1_2_2']);
  for (const { asked, answered } of paired) expect(answered).toEqual([asked]);

  // The events a front end shows: one start and one end per id, each end with its own output.
  const ends = events.filter((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end');
  expect(ends.map((e) => `${e.call.id}=${e.result.toolCallId}:${e.result.content}`)).toEqual(paired.map((p) => `${p.id}=${p.id}:${p.asked}`));
  expect(new Set(events.filter((e) => e.type === 'tool_start').map((e) => (e as { call: ToolCall }).call.id)).size).toBe(5);
  // The hooks saw the same ids.
  expect([...seen].sort()).toEqual(paired.map((p) => `${p.id}=${p.id}:${p.asked}`).sort());

  // What the model was sent for its last turn (the second and third requests), in both vendors' terms.
  for (const request of model.requests.slice(1)) expect(historyProblems([...request.messages, { role: 'assistant', content: [], toolCalls: [] }])).toEqual([]);
  for (const uses of [anthropicPairs(history), openaiPairs(history)]) {
    expect(Object.keys(uses)).toHaveLength(5);
    for (const [id, [call, ...results]] of Object.entries(uses)) {
      const text = (JSON.parse(call!.slice(call!.indexOf(':') + 1)) as { text: string }).text;
      expect([id, results]).toEqual([id, [`echo ${text}`]]);
    }
  }
});

test("a sub-agent's calls never reuse an id of its parent's (or a sibling's): one front end, hook and audit log sees them all", async () => {
  const log: ToolLog = { events: [] };
  const seen: string[] = [];
  const delegate: Tool = {
    name: 'delegate',
    description: 'Runs a sub-agent.',
    inputSchema: { type: 'object' },
    readOnly: false,
    async execute(_input, ctx) {
      for (const child of [ctx.session.fork({ context: 'none' }), ctx.session.fork({ context: 'none' })]) {
        for await (const event of child.run({ prompt: 'help', mode: 'bypassPermissions', signal: ctx.signal })) void event;
      }
      return { content: 'delegated' };
    },
  };
  const plugin = definePlugin({
    name: 'delegation',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(delegate)),
    apply(kernel) {
      kernel.hooks.postToolUse.tapPromise('delegation', async (result, context) => {
        seen.push(`${context.agentId === 'main' ? 'main' : 'child'}:${context.call.id}`);
        return result;
      });
    },
  });
  // A server that numbers calls per answer: the parent's `call_0`, then each child's `call_0`.
  const { kernel } = await bootKernel(
    [
      useTools([{ id: 'call_0', name: 'delegate', input: '{}' }]),
      useTools([echo('call_0', 'x')]),
      say('first child done'),
      useTools([echo('call_0', 'y')]),
      say('second child done'),
      say('all done'),
    ],
    [toolsPlugin([sleepTool(log)]), plugin],
  );
  const events = await runPrompt(kernel, 'go');
  expect(doneEvent(events).finalText).toBe('all done');
  expect(seen).toEqual(['child:call_0_2', 'child:call_0_3', 'main:call_0']);
});
