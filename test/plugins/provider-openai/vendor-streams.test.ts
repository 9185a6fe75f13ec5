// provider-openai against raw servers that stream as particular vendors do (Gemini's OpenAI
// endpoint, OpenRouter, Ollama, vLLM, llama.cpp): shapes the scripted server never produces.
import { Container } from 'inversify';
import plugin from '../../../plugins/provider-openai/index.js';
import { toOpenAIParams } from '../../../plugins/provider-openai/request.js';
import { TOKENS } from '../../../types/index.js';
import type { Message, Provider, ProviderFactory, ProviderSettings } from '../../../types/index.js';
import { TOOLS, collect, last, only, request, textOf } from '../../support/provider-test-helpers.js';
import { sse, startRawVendorServer, type RawResponse, type RawVendorServer } from '../../support/raw-vendor-server.js';

let factory: ProviderFactory;
let server: RawVendorServer | undefined;

beforeAll(() => {
  const container = new Container();
  container.load(plugin.bindings!);
  factory = container.get<ProviderFactory>(TOKENS.ProviderFactory);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function provider(responses: RawResponse[], overrides: Partial<ProviderSettings> = {}): Promise<Provider> {
  server = await startRawVendorServer(responses);
  return factory.create({
    name: 'vendor',
    protocol: 'openai',
    model: 'm',
    apiKey: 'k',
    baseUrl: `${server.url}/v1`,
    contextWindow: 128_000,
    maxTokens: 1024,
    maxRetries: 0,
    retryBaseDelayMs: 1,
    ...overrides,
  });
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const USAGE = { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } };
const fn = (id: string | undefined, name: string | undefined, args: string, more: Record<string, unknown> = {}) => ({
  ...(id === undefined ? {} : { id }),
  type: 'function',
  function: { ...(name === undefined ? {} : { name }), arguments: args },
  ...more,
});

describe('tool calls as vendors number them', () => {
  test('Gemini: calls without `index`, one per chunk, stay separate calls', async () => {
    const p = await provider([{ body: sse([
      chunk({ role: 'assistant', tool_calls: [fn('g1', 'read_file', '{"path":"a"}')] }),
      chunk({ tool_calls: [fn('g2', 'read_file', '{"path":"b"}')] }),
      chunk({}, 'tool_calls', USAGE),
    ]) }]);
    const events = await collect(p, request({ tools: TOOLS }));
    expect(only(events, 'tool_calls')[0]!.calls).toEqual([
      { id: 'g1', name: 'read_file', input: '{"path":"a"}' },
      { id: 'g2', name: 'read_file', input: '{"path":"b"}' },
    ]);
  });

  test('Gemini: several calls without `index` in one chunk, and without ids, stay separate', async () => {
    const p = await provider([{ body: sse([
      chunk({ role: 'assistant', tool_calls: [fn(undefined, 'read_file', '{"path":"a"}'), fn(undefined, 'grep', '{"pattern":"x"}')] }),
      chunk({}, 'tool_calls', USAGE),
    ]) }]);
    const calls = only(await collect(p, request({ tools: TOOLS })), 'tool_calls')[0]!.calls;
    expect(calls.map((c) => [c.name, c.input])).toEqual([['read_file', '{"path":"a"}'], ['grep', '{"pattern":"x"}']]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
  });

  test('a new id on an index already used starts a new call; the same id repeated continues it', async () => {
    const p = await provider([{ body: sse([
      chunk({ tool_calls: [{ index: 0, ...fn('a', 'read_file', '{"pa') }] }),
      chunk({ tool_calls: [{ index: 0, ...fn('a', undefined, 'th":"x"}') }] }),
      chunk({ tool_calls: [{ index: 0, ...fn('b', 'grep', '{"pattern":"y"}') }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '' } }] }),
      chunk({}, 'tool_calls', USAGE),
    ]) }]);
    expect(only(await collect(p, request({ tools: TOOLS })), 'tool_calls')[0]!.calls).toEqual([
      { id: 'a', name: 'read_file', input: '{"path":"x"}' },
      { id: 'b', name: 'grep', input: '{"pattern":"y"}' },
    ]);
  });
});

test('parallel calls given one id on different indexes stay separate; an id arriving after the first fragment is kept', async () => {
  const p = await provider([{ body: sse([
    chunk({ tool_calls: [{ index: 0, ...fn('same', 'read_file', '{"path":"a"}') }, { index: 1, ...fn('same', 'read_file', '{"path":"b"}') }] }),
    chunk({ tool_calls: [{ index: 2, type: 'function', function: { name: 'grep', arguments: '{"pat' } }] }),
    chunk({ tool_calls: [{ index: 2, id: 'late', function: { arguments: 'tern":"x"}' } }] }),
    chunk({}, 'tool_calls', USAGE),
  ]) }]);
  expect(only(await collect(p, request({ tools: TOOLS })), 'tool_calls')[0]!.calls).toEqual([
    { id: 'same', name: 'read_file', input: '{"path":"a"}' },
    { id: 'same', name: 'read_file', input: '{"path":"b"}' },
    { id: 'late', name: 'grep', input: '{"pattern":"x"}' },
  ]);
});

describe('usage a server does not report', () => {
  test('no usage in the stream: no usage event (unknown), not zeros', async () => {
    const p = await provider([{ body: sse([chunk({ content: 'hi' }), chunk({}, 'stop')]) }]);
    const events = await collect(p, request());
    expect(events.map((e) => e.type)).toEqual(['text', 'done']);
  });
});

describe('reasoning as vendors stream it', () => {
  test('`reasoning` (OpenRouter, Ollama, vLLM) is thinking, like `reasoning_content`', async () => {
    const p = await provider([{ body: sse([chunk({ reasoning: 'Let me ' }), chunk({ reasoning: 'think.' }), chunk({ content: 'Answer.' }), chunk({}, 'stop', USAGE)]) }]);
    const events = await collect(p, request());
    expect(only(events, 'thinking').map((e) => e.thinking).join('')).toBe('Let me think.');
    expect(textOf(events)).toBe('Answer.');
    expect(last(events)).toMatchObject({ type: 'done', content: [{ type: 'thinking', thinking: 'Let me think.' }, { type: 'text', text: 'Answer.' }] });
  });

  test('both fields in one delta (OpenRouter sends the same text twice) count once', async () => {
    const p = await provider([{ body: sse([chunk({ reasoning: 'R', reasoning_content: 'R' }), chunk({ content: 'A' }), chunk({}, 'stop', USAGE)]) }]);
    expect(only(await collect(p, request()), 'thinking').map((e) => e.thinking).join('')).toBe('R');
  });

  test('<think>…</think> opening the content (Qwen, DeepSeek distills) is thinking, split anywhere', async () => {
    const parts = ['\n<thi', 'nk>step one', ', step two</th', 'ink>\n\nThe', ' answer.'];
    const p = await provider([{ body: sse([...parts.map((content) => chunk({ content })), chunk({}, 'stop', USAGE)]) }]);
    const events = await collect(p, request());
    expect(textOf(events)).toBe('The answer.');
    expect(only(events, 'thinking').map((e) => e.thinking).join('')).toBe('step one, step two');
    expect(last(events)).toMatchObject({ type: 'done', content: [{ type: 'thinking', thinking: 'step one, step two' }, { type: 'text', text: 'The answer.' }] });
  });

  test('an unclosed <think> is all thinking; <think> later in the answer is text', async () => {
    let p = await provider([{ body: sse([chunk({ content: '<think>only reasoning' }), chunk({}, 'length', USAGE)]) }]);
    let events = await collect(p, request());
    expect(textOf(events)).toBe('');
    expect(last(events)).toMatchObject({ type: 'done', content: [{ type: 'thinking', thinking: 'only reasoning' }] });
    await server!.close();
    p = await provider([{ body: sse([chunk({ content: 'Use <think> tags.' }), chunk({}, 'stop', USAGE)]) }]);
    events = await collect(p, request());
    expect(textOf(events)).toBe('Use <think> tags.');
  });
});

describe('vendor fields on tool calls', () => {
  const gemini = { extra_content: { google: { thought_signature: 'c2lnbmF0dXJl' } } };

  test('Gemini 3 thought_signature is kept and sent back on the same provider, not to another', async () => {
    const p = await provider([
      { body: sse([chunk({ role: 'assistant', tool_calls: [fn('g1', 'read_file', '{"path":"a"}', gemini)] }), chunk({}, 'tool_calls', USAGE)]) },
      { body: sse([chunk({ content: 'ok' }), chunk({}, 'stop', USAGE)]) },
    ]);
    const calls = only(await collect(p, request({ tools: TOOLS })), 'tool_calls')[0]!.calls;
    expect(calls[0]!.vendorFields).toEqual({ provider: 'vendor', fields: gemini });
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [], toolCalls: calls },
      { role: 'tool', results: [{ toolCallId: 'g1', content: 'A', isError: false }] },
      { role: 'assistant', content: [], toolCalls: [{ id: 'o1', name: 'read_file', input: '{}', vendorFields: { provider: 'other', fields: gemini } }] },
      { role: 'tool', results: [{ toolCallId: 'o1', content: 'B', isError: false }] },
    ];
    await collect(p, request({ tools: TOOLS, messages: history }));
    const sent = (server!.bodies[1] as { messages: { role: string; tool_calls?: Record<string, unknown>[] }[] }).messages.filter((m) => m.tool_calls);
    expect(sent[0]!.tool_calls![0]).toEqual({ id: 'g1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' }, ...gemini });
    expect(sent[1]!.tool_calls![0]).toEqual({ id: 'o1', type: 'function', function: { name: 'read_file', arguments: '{}' } });
  });
});

describe('error bodies as vendors shape them', () => {
  const json = (status: number, body: unknown): RawResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const errorOf = async (responses: RawResponse[], overrides: Partial<ProviderSettings> = {}) => {
    const events = await collect(await provider(responses, overrides), request());
    return only(events, 'error')[0]!.error;
  };

  test('vLLM < 0.10.1 flat body: the vendor message, and a context overflow is recognised', async () => {
    const error = await errorOf([json(400, { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.", type: 'BadRequestError', param: null, code: 400 })]);
    expect(error.kind).toBe('prompt_too_long');
    expect(error.message).toContain('maximum context length is 4096 tokens');
    // the server's own limit is below the configured window: the way out is context_window
    expect(error.message).toMatch(/context_window/);
    expect(error.message).toContain('4096');
  });

  test('Mistral flat body and Gemini array body keep the vendor message', async () => {
    let error = await errorOf([json(400, { object: 'error', message: 'Invalid model: mistral-huge', type: 'invalid_model', param: null, code: '1500' })]);
    expect([error.kind, error.message]).toEqual(['bad_request', expect.stringContaining('Invalid model: mistral-huge')]);
    await server!.close();
    error = await errorOf([json(400, [{ error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }])]);
    expect(error.message).toContain('exceeds the maximum number of tokens allowed');
    expect(error.kind).toBe('prompt_too_long');
  });

  test('an HTML error page is cut to its title; a 403 from a proxy does not blame the API key', async () => {
    const page = `<!DOCTYPE html><html><head><title>Access denied | api.example.com used Cloudflare</title></head><body>${'<p>x</p>'.repeat(1000)}</body></html>`;
    const error = await errorOf([{ status: 403, headers: { 'content-type': 'text/html' }, body: page }]);
    expect(error.message).toContain('Access denied | api.example.com used Cloudflare');
    expect(error.message.length).toBeLessThan(600);
    expect(error.message).not.toMatch(/API key/);
    expect(error.message).toMatch(/HTML/);
  });

  test('OpenRouter mid-stream error with a numeric code is classified by that status and retried', async () => {
    const midStream429 = sse([{ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }], error: { code: 429, message: 'Rate limit exceeded upstream' } }]);
    const p = await provider([{ body: `: OPENROUTER PROCESSING\n\n${midStream429}` }, { body: sse([chunk({ content: 'fine' }), chunk({}, 'stop', USAGE)]) }], { maxRetries: 1 });
    const events = await collect(p, request());
    expect(only(events, 'notice')[0]!.message).toMatch(/rate limit/i);
    expect(textOf(events)).toBe('fine');
  });
});

describe('a 200 that is not an event stream', () => {
  test('an HTML login page is said as such (content type, title) and not retried', async () => {
    const p = await provider([{ headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html><head><title>Sign in - Corporate SSO</title></head><body>…</body></html>' }], { maxRetries: 3 });
    const events = await collect(p, request());
    const error = only(events, 'error')[0]!.error;
    expect(error.message).toContain('text/html');
    expect(error.message).toContain('Sign in - Corporate SSO');
    expect(only(events, 'notice')).toEqual([]);
    expect(server!.bodies).toHaveLength(1);
  });

  test('a complete JSON chat answer from a gateway that ignores `stream` is accepted as the answer', async () => {
    const answer = { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer.', tool_calls: [{ id: 't1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } };
    const p = await provider([{ headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) }]);
    const events = await collect(p, request({ tools: TOOLS }));
    expect(textOf(events)).toBe('Whole answer.');
    expect(only(events, 'tool_calls')[0]!.calls).toEqual([{ id: 't1', name: 'read_file', input: '{"path":"a"}' }]);
    expect(last(events)).toMatchObject({ type: 'done', stopReason: 'tool_calls' });
  });
});

describe('max_tokens or max_completion_tokens', () => {
  const settings = (over: Partial<ProviderSettings>): ProviderSettings => ({ name: 'az', protocol: 'openai', model: 'gpt-4o', contextWindow: 1, maxTokens: 500, maxRetries: 0, retryBaseDelayMs: 1, ...over });
  const field = (over: Partial<ProviderSettings>, url: string) => {
    const params = toOpenAIParams(request(), settings(over), url) as unknown as Record<string, unknown>;
    return ['max_tokens', 'max_completion_tokens'].filter((key) => params[key] === 500);
  };
  const azure = 'https://my-resource.openai.azure.com/openai/deployments/dep';
  test('Azure reasoning deployments (thinking on, or an o-series / gpt-5 model) get max_completion_tokens', () => {
    expect(field({ thinking: { enabled: true, budgetTokens: 2048 } }, azure)).toEqual(['max_completion_tokens']);
    expect(field({ model: 'o3-mini' }, azure)).toEqual(['max_completion_tokens']);
    expect(field({ model: 'gpt-5-mini' }, 'https://x.cognitiveservices.azure.com/openai/v1')).toEqual(['max_completion_tokens']);
    expect(field({}, azure)).toEqual(['max_tokens']);
  });
  test('the provider entry chooses (max_completion_tokens: true|false), whatever the host', () => {
    expect(field({ maxCompletionTokens: true }, 'http://127.0.0.1:8000/v1')).toEqual(['max_completion_tokens']);
    expect(field({ maxCompletionTokens: false }, 'https://api.openai.com/v1')).toEqual(['max_tokens']);
    expect(field({}, 'https://api.openai.com/v1')).toEqual(['max_completion_tokens']);
  });
});

describe('Mistral tool call ids', () => {
  test('ids from other vendors become 9 alphanumerics for Mistral, results still pair, and Mistral ids stay', async () => {
    const p = await provider([{ body: sse([chunk({ content: 'ok' }), chunk({}, 'stop', USAGE)]) }], { model: 'mistral-large-latest' });
    const ids = ['call_Ajf8XbQeTd2KcMcEjpnyRqV3', 'toolu_01A09q90qw90lq917835lq9', 'D681PevKs', 'call_0'];
    const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
    for (const id of ids) {
      history.push({ role: 'assistant', content: [], toolCalls: [{ id, name: 'read_file', input: '{}' }] });
      history.push({ role: 'tool', results: [{ toolCallId: id, content: 'r', isError: false }] });
    }
    await collect(p, request({ tools: TOOLS, messages: history }));
    const sent = (server!.bodies[0] as { messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[] }).messages;
    const callIds = sent.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    const resultIds = sent.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    for (const id of callIds) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(resultIds).toEqual(callIds);
    expect(new Set(callIds).size).toBe(4);
    expect(callIds[2]).toBe('D681PevKs');
  });
});

describe('a server that goes silent', () => {
  test('a stall mid-stream is reported as the idle timeout (configurable per entry), not as a reset', async () => {
    const p = await provider([{ body: sse([chunk({ content: 'Hel' })], false), hold: true }], { timeoutMs: 300 });
    const started = Date.now();
    const events = await collect(p, request());
    const error = only(events, 'error')[0]!.error;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.message).toMatch(/idle timeout/);
    expect(error.message).toContain('0.3 s');
    expect(error.message).not.toMatch(/ECONNRESET/);
  });
});
