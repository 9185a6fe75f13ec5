/**
 * The request converters' id mapping on a history that repeats ids (a session saved before the
 * kernel gave each call its own id): each result pairs with the earliest unanswered call of its
 * id, so every tool_use / tool call gets exactly its own result, for both vendors.
 */
import type { Message } from '../../types/messages.js';
import { toAnthropicMessages } from '../../plugins/provider-anthropic/request.js';
import { toOpenAIMessages } from '../../plugins/provider-openai/request.js';
import { ANTHROPIC_TOOL_CALL_IDS, OPENAI_TOOL_CALL_IDS, ToolCallIdMapper } from '../../sdk/tool-call-ids.js';

const turn = (ids: string[], tag: string): Message[] => [
  { role: 'assistant', content: [], toolCalls: ids.map((id, i) => ({ id, name: 'read_file', input: JSON.stringify({ path: `${tag}${i}` }) })) },
  { role: 'tool', results: ids.map((id, i) => ({ toolCallId: id, content: `content of ${tag}${i}`, isError: false })) },
];

// Two calls `dup1` in one answer, `call_0` in two answers, and two calls with no id.
const history: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'go' }] },
  ...turn(['dup1', 'dup1', 'c3'], 'a'),
  ...turn(['call_0'], 'b'),
  ...turn(['call_0', '', ''], 'c'),
  { role: 'assistant', content: [{ type: 'text', text: 'done' }], toolCalls: [] },
  { role: 'user', content: [{ type: 'text', text: 'again' }] },
];

/** tool call id → [its input's path, the contents of every result naming it]. */
type Pairs = Map<string, string[]>;

function anthropicPairs(): Pairs {
  const pairs: Pairs = new Map();
  for (const param of toAnthropicMessages(history)) {
    if (typeof param.content === 'string') continue;
    for (const block of param.content) {
      if (block.type === 'tool_use') {
        expect(pairs.has(block.id)).toBe(false);
        pairs.set(block.id, [(block.input as { path: string }).path]);
      }
      if (block.type === 'tool_result') pairs.get(block.tool_use_id)!.push(String(block.content));
    }
  }
  return pairs;
}

function openaiPairs(): Pairs {
  const pairs: Pairs = new Map();
  for (const param of toOpenAIMessages({ system: { stable: 's', environment: '' }, messages: history, tools: [] })) {
    if (param.role === 'assistant') {
      for (const call of param.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        expect(pairs.has(call.id)).toBe(false);
        pairs.set(call.id, [(JSON.parse(call.function.arguments) as { path: string }).path]);
      }
    }
    if (param.role === 'tool') pairs.get(param.tool_call_id)!.push(String(param.content));
  }
  return pairs;
}

test.each([
  ['Anthropic', anthropicPairs],
  ['OpenAI', openaiPairs],
])('%s: every tool call of a history with repeated and empty ids has exactly its own result', (_vendor, pairsOf) => {
  const pairs = pairsOf();
  expect(pairs.size).toBe(7);
  for (const [id, [path, ...results]] of pairs) expect([id, results]).toEqual([id, [`content of ${path}`]]);
});

test('the mapper pairs results first in, first out, and maps the same history the same way every time', () => {
  for (const rule of [ANTHROPIC_TOOL_CALL_IDS, OPENAI_TOOL_CALL_IDS]) {
    const map = (): string[] => {
      const ids = new ToolCallIdMapper(rule);
      const calls = [ids.call('dup1'), ids.call('dup1'), ids.call('dup1')];
      return [...calls, ids.result('dup1'), ids.result('dup1'), ids.result('dup1')];
    };
    const mapped = map();
    expect(new Set(mapped.slice(0, 3)).size).toBe(3);
    expect(mapped.slice(3)).toEqual(mapped.slice(0, 3));
    expect(map()).toEqual(mapped);
  }
});
