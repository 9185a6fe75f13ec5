/**
 * Switching a session's model at run time (issue 9): the next request goes to the new provider,
 * whose context window and max_tokens apply, with history valid for that vendor, through the
 * real SDKs against one scripted server that speaks both protocols.
 */
import { Kernel } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import providerAnthropic from '../../plugins/provider-anthropic/index.js';
import { toAnthropicParams } from '../../plugins/provider-anthropic/request.js';
import providerOpenai from '../../plugins/provider-openai/index.js';
import permissionMode from '../../plugins/permission-mode/index.js';
import type { AgentEvent } from '../../types/events.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { Tool } from '../../types/tools.js';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';
import { collect, doneEvent } from '../support/boot.js';
import { toolsPlugin } from '../support/test-tools.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

function configWith(sections: Record<string, unknown>): ResolvedConfig {
  return { layers: [], warnings: [], section: (key) => sections[key], locate: (path) => `/p/.mewcode.yaml:${path.length}:1` };
}

/** A read-only tool that, when called, switches its own session to the provider named in its input. */
const switcher: Tool = {
  name: 'switch_model',
  description: 'Switch the session to another provider.',
  inputSchema: { type: 'object', properties: { provider: { type: 'string' } }, required: ['provider'] },
  readOnly: true,
  async execute(input, context) {
    const next = context.session.switchModel({ provider: String(input.provider) });
    return { content: `now on ${next.id}` };
  },
};

async function boot(reporter = new MemoryReporter()): Promise<Kernel> {
  return Kernel.create({
    plugins: [providerAnthropic, providerOpenai, permissionMode, toolsPlugin([switcher])],
    projectRoot: '/tmp/project',
    homeDir: '/tmp/home',
    env: {},
    reporter,
    config: configWith({
      provider: 'claude',
      providers: [
        { name: 'claude', protocol: 'anthropic', model: 'claude-scripted', api_key: 'k', base_url: server.url, max_tokens: 4096, thinking: { enabled: true, budget_tokens: 1024 }, retry_base_delay_ms: 1 },
        { name: 'gpt', protocol: 'openai', model: 'gpt-scripted', api_key: 'k', base_url: `${server.url}/v1`, context_window: 64_000, max_tokens: 1000, retry_base_delay_ms: 1 },
      ],
    }),
  });
}

const run = (kernel: Kernel, prompt: string): Promise<AgentEvent[]> => collect(kernel.session.run({ prompt, mode: 'bypassPermissions' }));

test('mid-run, after a thinking turn with tool use, the next request goes to OpenAI and is valid for it', async () => {
  server.push(
    { thinking: { text: 'I should switch.', signature: 'sig-claude' }, text: 'Switching.', toolCalls: [{ id: 'toolu_switch', name: 'switch_model', input: { provider: 'gpt' } }] },
    { text: 'Answered by gpt.' },
  );
  const kernel = await boot();
  const events = await run(kernel, 'switch and answer');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'Answered by gpt.' });
  expect(server.requests.map((r) => r.protocol)).toEqual(['anthropic', 'openai']);

  const next = server.requests[1]!.body;
  expect(next.model).toBe('gpt-scripted');
  expect(next.max_tokens ?? next.max_completion_tokens).toBe(1000);
  const messages = next.messages as { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string; reasoning_content?: unknown }[];
  expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']); // no system-prompt plugin in this build
  const assistant = messages[1]!;
  expect(assistant.tool_calls?.map((call) => call.id)).toEqual(['toolu_switch']);
  expect(messages[2]!.tool_call_id).toBe('toolu_switch');
  // Neither the thinking text nor its Anthropic signature is sent to the other vendor.
  expect(JSON.stringify(next)).not.toContain('sig-claude');
  expect(JSON.stringify(next)).not.toContain('I should switch.');
  expect(kernel.session.currentProvider()).toMatchObject({ id: 'gpt', contextWindow: 64_000 });
});

test('switching back: the other vendor’s history is valid for Anthropic (its signed thinking kept, thinking off mid-tool-loop)', async () => {
  server.push(
    { thinking: { text: 'Switch to gpt.', signature: 'sig-1' }, text: 'Going.', toolCalls: [{ id: 'toolu_a', name: 'switch_model', input: { provider: 'gpt' } }] },
    { text: 'Back we go.', toolCalls: [{ id: 'call_b', name: 'switch_model', input: { provider: 'claude' } }] },
    { thinking: { text: 'Done.', signature: 'sig-2' }, text: 'Final from claude.' },
  );
  const kernel = await boot();
  const events = await run(kernel, 'round trip');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'Final from claude.' });
  expect(server.requests.map((r) => r.protocol)).toEqual(['anthropic', 'openai', 'anthropic']);
  const third = server.requests[2]!.body;
  // The assistant turn whose results are sent came from gpt: it has no thinking, so this one
  // request goes without thinking (the API would reject it otherwise).
  expect(third.thinking).toBeUndefined();
  const assistants = (third.messages as { role: string; content: { type: string; signature?: string }[] }[]).filter((m) => m.role === 'assistant');
  expect(assistants[0]!.content[0]).toMatchObject({ type: 'thinking', signature: 'sig-1' }); // claude's own, still valid at claude
  expect(assistants[1]!.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
  // A new prompt: thinking is on again.
  server.push({ text: 'ok' });
  await run(kernel, 'again');
  expect(server.requests[3]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
});

test('between runs: the models are listed without keys, one notice per real switch, an unknown name changes nothing', async () => {
  const reporter = new MemoryReporter();
  const kernel = await boot(reporter);
  expect(kernel.providers.models()).toEqual([
    { provider: 'claude', protocol: 'anthropic', model: 'claude-scripted', contextWindow: 200_000, maxTokens: 4096, active: true },
    { provider: 'gpt', protocol: 'openai', model: 'gpt-scripted', contextWindow: 64_000, maxTokens: 1000, active: false },
  ]);
  expect(() => kernel.session.switchModel({ provider: 'nope' })).toThrow('No usable provider named "nope" (configured: claude, gpt).');
  expect(kernel.session.currentProvider().id).toBe('claude');

  kernel.session.switchModel({ provider: 'gpt' });
  kernel.session.switchModel({ provider: 'gpt' }); // already there: no second notice
  const notices = reporter.notices.filter((n) => n.includes('Model switched'));
  expect(notices).toEqual(['Model switched to gpt-scripted (provider "gpt", context window 64,000 tokens); its prompt cache starts over with the next request.']);
  server.push({ text: 'hi from gpt' });
  const events = await run(kernel, 'hello');
  expect(doneEvent(events).finalText).toBe('hi from gpt');
  expect(server.requests[0]!.protocol).toBe('openai');
});

test('thinking recorded from another Anthropic-protocol provider is left out: its signature is valid only there', () => {
  const settings = { name: 'gateway-b', protocol: 'anthropic', model: 'm', contextWindow: 200_000, maxTokens: 4096, maxRetries: 0, retryBaseDelayMs: 1 };
  const params = toAnthropicParams(
    {
      system: { stable: '', environment: '' },
      tools: [],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'from a', signature: 'sig-a', provider: 'gateway-a' },
            { type: 'redacted_thinking', data: 'enc-a', provider: 'gateway-a' },
            { type: 'thinking', thinking: 'from b', signature: 'sig-b', provider: 'gateway-b' },
            { type: 'thinking', thinking: 'older history', signature: 'sig-old' },
            { type: 'text', text: 'answer' },
          ],
          toolCalls: [],
        },
        { role: 'user', content: [{ type: 'text', text: 'next' }] },
      ],
    },
    settings,
  );
  expect(params.messages[1]!.content).toEqual([
    { type: 'thinking', thinking: 'from b', signature: 'sig-b' },
    { type: 'thinking', thinking: 'older history', signature: 'sig-old' },
    { type: 'text', text: 'answer' },
  ]);
});

test('a model chosen alone stays with the provider it was chosen for, even when the process switches providers', async () => {
  const kernel = await boot();
  kernel.session.switchModel({ model: 'claude-other' });
  kernel.providers.switchTo('gpt');
  expect(kernel.session.currentProvider()).toMatchObject({ id: 'claude', model: 'claude-other', protocol: 'anthropic' });
});
