// provider-anthropic through the real @anthropic-ai/sdk against the scripted model server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Container } from 'inversify';
import plugin from '../../../plugins/provider-anthropic/index.js';
import { startScriptedServer, type ScriptedServer } from '../../scripted-server/index.js';
import { TOKENS } from '../../../types/index.js';
import type { Message, Provider, ProviderEvent, ProviderFactory, ProviderSettings } from '../../../types/index.js';
import { EDIT_SCHEMA, TOOLS, collect, last, manyRequestsOnOneSignal, only, request, textOf } from '../../support/provider-test-helpers.js';

const MODEL = 'claude-scripted-1';

let server: ScriptedServer;
const rawServers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(rawServers.map((raw) => new Promise((resolve) => raw.close(resolve))));
});
let factory: ProviderFactory;

beforeAll(() => {
  const container = new Container();
  container.load(plugin.bindings!);
  factory = container.get<ProviderFactory>(TOKENS.ProviderFactory);
});

beforeEach(async () => {
  server = await startScriptedServer();
});

afterEach(async () => {
  await server.close();
});

function provider(overrides: Partial<ProviderSettings> = {}): Provider {
  return factory.create({
    name: 'anthropic',
    protocol: 'anthropic',
    model: MODEL,
    apiKey: 'test-key',
    baseUrl: server.url,
    contextWindow: 200_000,
    maxTokens: 2048,
    maxRetries: 2,
    retryBaseDelayMs: 5,
    ...overrides,
  });
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const roles = (body: any): string[] => body.messages.map((m: any) => m.role);

describe('plugin and factory', () => {
  test('binds a ProviderFactory with the Anthropic defaults', () => {
    expect(plugin.name).toBe('provider-anthropic');
    expect(factory.protocol).toBe('anthropic');
    expect(factory.apiKeyEnv).toBe('ANTHROPIC_API_KEY');
    expect(factory.baseUrlEnv).toBe('ANTHROPIC_BASE_URL');
    expect(factory.defaultContextWindow).toBe(200_000);
    const p = provider({ name: 'work-proxy', contextWindow: 150_000 });
    expect([p.id, p.protocol, p.model, p.contextWindow]).toEqual(['work-proxy', 'anthropic', MODEL, 150_000]);
  });
});

describe('request shape', () => {
  test('system as two blocks with one cache breakpoint, full tool schemas, max_tokens, streamed text and usage', async () => {
    server.push({ text: ['Hel', 'lo', ' there'], usage: { input: 11, output: 7, cacheWrite: 5, cacheRead: 3 } });
    const events = await collect(provider({ maxTokens: 777 }), request({ tools: TOOLS }));

    expect(events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: ' there' },
      { type: 'usage', usage: { input: 11, output: 7, cacheWrite: 5, cacheRead: 3 } },
      { type: 'done', content: [{ type: 'text', text: 'Hello there' }], stopReason: 'end_turn' },
    ]);

    const [logged] = server.requests;
    expect(logged!.path).toBe('/v1/messages');
    // SDK 1.x sends the API key as a bearer token
    expect(logged!.headers['authorization']).toBe('Bearer test-key');
    const body = logged!.body;
    expect(body.model).toBe(MODEL);
    expect(body.max_tokens).toBe(777);
    expect(body.stream).toBe(true);
    expect(body.system).toEqual([
      { type: 'text', text: 'You are MewCode.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'cwd: /repo' },
    ]);
    // the stable block is the only cache breakpoint in the whole request
    expect(logged!.rawBody.match(/cache_control/g)).toHaveLength(1);
    expect(body.tools).toEqual([
      { name: 'edit_file', description: 'Edit a file', input_schema: EDIT_SCHEMA },
      { name: 'read_file', description: 'Read a file', input_schema: TOOLS[1]!.inputSchema },
    ]);
    expect(body.thinking).toBeUndefined();
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
  });

  test('an empty environment is omitted; no tools → no tools field; images are sent as base64', async () => {
    server.push({ text: 'ok' });
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'text', text: '' },
        ],
      },
    ];
    await collect(provider(), request({ system: { stable: 'S', environment: '' }, messages }));
    const body = server.requests[0]!.body;
    expect(body.system).toEqual([{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools).toBeUndefined();
    expect(body.messages[0].content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
  });

  test('all tool results of a turn go in one user message, merged with the next prompt and the reminder', async () => {
    server.push({ text: 'fine' });
    const messages: Message[] = [
      user('fix the bug'),
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Reading both files.' }],
        toolCalls: [
          { id: 'toolu_a', name: 'read_file', input: '{"path":"a.ts"}' },
          { id: 'toolu_b', name: 'read_file', input: '{"path":"b.ts"}' },
          { id: 'toolu_c', name: 'read_file', input: '{"path":"c.ts"}' },
        ],
      },
      {
        role: 'tool',
        results: [
          { toolCallId: 'toolu_a', content: 'contents of a', isError: false },
          { toolCallId: 'toolu_b', content: 'ENOENT: b.ts does not exist', isError: true },
          { toolCallId: 'toolu_c', content: 'contents of c', isError: false },
        ],
      },
      user('also check c'),
    ];
    await collect(provider(), request({ messages, reminder: '<reminder>plan mode</reminder>' }));
    const body = server.requests[0]!.body;
    expect(roles(body)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[1].content).toEqual([
      { type: 'text', text: 'Reading both files.' },
      { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.ts' } },
      { type: 'tool_use', id: 'toolu_c', name: 'read_file', input: { path: 'c.ts' } },
    ]);
    expect(body.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_a', content: 'contents of a', is_error: false },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: 'ENOENT: b.ts does not exist', is_error: true },
      { type: 'tool_result', tool_use_id: 'toolu_c', content: 'contents of c', is_error: false },
      { type: 'text', text: 'also check c' },
      { type: 'text', text: '<reminder>plan mode</reminder>' },
    ]);
  });

  test('the reminder becomes a new user message when the last message is the assistant', async () => {
    server.push({ text: 'ok' });
    const messages: Message[] = [
      user('hi'),
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }], toolCalls: [] },
    ];
    await collect(provider(), request({ messages, reminder: 'REMINDER' }));
    const body = server.requests[0]!.body;
    expect(roles(body)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2]).toEqual({ role: 'user', content: [{ type: 'text', text: 'REMINDER' }] });
  });

  test('the reminder joins the tool results when they are last; adjacent user messages merge; empty texts are never sent', async () => {
    server.push({ text: 'ok' });
    const messages: Message[] = [
      user('one'),
      user('two'),
      { role: 'assistant', content: [{ type: 'text', text: '' }], toolCalls: [{ id: 't1', name: 'read_file', input: '{}' }] },
      { role: 'tool', results: [{ toolCallId: 't1', content: 'x', isError: false }] },
    ];
    await collect(provider(), request({ messages, reminder: 'R' }));
    const body = server.requests[0]!.body;
    expect(roles(body)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[0].content).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(body.messages[1].content).toEqual([{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }]);
    expect(body.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'x', is_error: false },
      { type: 'text', text: 'R' },
    ]);
    expect(server.requests[0]!.rawBody).not.toMatch(/"text":""/);
  });
});

describe('tool calls', () => {
  test('parallel calls keep the raw argument text exactly, malformed included; no arguments → "{}"', async () => {
    const precise = '{"path": "src/a.ts", "offset": 1.50, "limit": 1e2}';
    const malformed = '{"pattern": "foo\\"bar", "glob": ';
    server.push({
      text: 'Let me look.',
      toolCalls: [
        { id: 'toolu_1', name: 'read_file', input: precise },
        { id: 'toolu_2', name: 'grep', input: malformed },
        { id: 'toolu_3', name: 'list_files', input: '' },
      ],
    });
    const events = await collect(provider(), request({ tools: TOOLS }));
    expect(events.map((e) => e.type)).toEqual(['text', 'tool_calls', 'usage', 'done']);
    expect(only(events, 'tool_calls')[0]!.calls).toEqual([
      { id: 'toolu_1', name: 'read_file', input: precise },
      { id: 'toolu_2', name: 'grep', input: malformed },
      { id: 'toolu_3', name: 'list_files', input: '{}' },
    ]);
    expect(last(events)).toEqual({ type: 'done', content: [{ type: 'text', text: 'Let me look.' }], stopReason: 'tool_use' });

    // Sent back: valid JSON as its object, the malformed one as {} (the tool reported the error).
    server.push({ text: 'done' });
    const calls = only(events, 'tool_calls')[0]!.calls;
    await collect(
      provider(),
      request({
        messages: [
          user('go'),
          { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }], toolCalls: calls },
          {
            role: 'tool',
            results: calls.map((c, i) => ({ toolCallId: c.id, content: `result ${i}`, isError: i === 1 })),
          },
        ],
      }),
    );
    const toolUses = server.requests[1]!.body.messages[1].content.filter((b: any) => b.type === 'tool_use');
    expect(toolUses.map((b: any) => b.input)).toEqual([{ path: 'src/a.ts', offset: 1.5, limit: 100 }, {}, {}]);
  });
});

describe('tool calls: JSON the model got wrong', () => {
  test('syntactically invalid (not merely truncated) arguments stay a call with its raw text, and the response completes', async () => {
    const invalid = '{"path": "a.ts",, "limit": tru}';
    server.push({ text: 'Reading.', toolCalls: [{ id: 'toolu_bad', name: 'read_file', input: invalid }, { id: 'toolu_ok', name: 'grep', input: { pattern: 'x' } }] });
    const events = await collect(provider(), request({ tools: TOOLS }));
    expect(events.map((e) => e.type)).toEqual(['text', 'tool_calls', 'usage', 'done']);
    expect(only(events, 'tool_calls')[0]!.calls).toEqual([
      { id: 'toolu_bad', name: 'read_file', input: invalid },
      { id: 'toolu_ok', name: 'grep', input: '{"pattern":"x"}' },
    ]);
  });
});

describe('extended thinking', () => {
  test('thinking streams first, is kept with its signature, and is sent back before tool_use with thinking still on', async () => {
    const thinkingText = 'The user wants the config. I should read package.json first, then answer.';
    server.push({
      thinking: { text: thinkingText, signature: 'EqQBCgIYAhIM-signature==' },
      text: 'Reading it.',
      toolCalls: [{ id: 'toolu_t', name: 'read_file', input: { path: 'package.json' } }],
    });
    const thinking = { enabled: true, budgetTokens: 1024 };
    const events = await collect(provider({ thinking, maxTokens: 4096 }), request({ tools: TOOLS }));

    const types = events.map((e) => e.type);
    expect(types.indexOf('thinking')).toBe(0);
    expect(types.lastIndexOf('thinking')).toBeLessThan(types.indexOf('text'));
    expect(only(events, 'thinking').map((e) => e.thinking).join('')).toBe(thinkingText);
    const done = last(events);
    expect(done).toEqual({
      type: 'done',
      content: [
        { type: 'thinking', thinking: thinkingText, signature: 'EqQBCgIYAhIM-signature==' },
        { type: 'text', text: 'Reading it.' },
      ],
      stopReason: 'tool_use',
    });
    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });

    if (done.type !== 'done') throw new Error('unreachable');
    const calls = only(events, 'tool_calls')[0]!.calls;
    server.push({ text: 'It is an ESM package.' });
    const second = await collect(
      provider({ thinking, maxTokens: 4096 }),
      request({
        tools: TOOLS,
        messages: [
          user('what kind of package is this?'),
          { role: 'assistant', content: done.content, toolCalls: calls },
          { role: 'tool', results: [{ toolCallId: 'toolu_t', content: '{"type":"module"}', isError: false }] },
        ],
      }),
    );
    expect(textOf(second)).toBe('It is an ESM package.');
    const body = server.requests[1]!.body;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(body.messages[1].content).toEqual([
      { type: 'thinking', thinking: thinkingText, signature: 'EqQBCgIYAhIM-signature==' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_t', name: 'read_file', input: { path: 'package.json' } },
    ]);
  });

  test('redacted thinking is sent back verbatim; thinking without a signature is not sent', async () => {
    server.push({ text: 'ok' });
    await collect(
      provider({ thinking: { enabled: true, budgetTokens: 2000 }, maxTokens: 8000 }),
      request({
        messages: [
          user('a'),
          {
            role: 'assistant',
            content: [
              { type: 'redacted_thinking', data: 'ENCRYPTED==' },
              { type: 'thinking', thinking: 'from another provider', signature: '' },
              { type: 'text', text: 'b' },
            ],
            toolCalls: [],
          },
          user('c'),
        ],
      }),
    );
    expect(server.requests[0]!.body.messages[1].content).toEqual([
      { type: 'redacted_thinking', data: 'ENCRYPTED==' },
      { type: 'text', text: 'b' },
    ]);
  });
});

describe('errors', () => {
  test('the other documented overflow ("input length and `max_tokens` exceed context limit") is prompt_too_long too', async () => {
    const message = 'input length and `max_tokens` exceed context limit: 197202 + 8192 > 200000, decrease input length or `max_tokens` and try again';
    server.push({ httpError: { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } } });
    const [event] = await collect(provider(), request());
    expect(event).toMatchObject({ type: 'error', error: { kind: 'prompt_too_long', status: 400 } });
  });

  test('prompt too long is typed, names the context limit, and is not retried', async () => {
    server.push({ promptTooLong: true }, { text: 'must not be used' });
    const events = await collect(provider(), request());
    expect(events).toHaveLength(1);
    const event = events[0]!;
    if (event.type !== 'error') throw new Error(`expected an error, got ${event.type}`);
    expect(event.error.kind).toBe('prompt_too_long');
    expect(event.error.status).toBe(400);
    expect(event.error.message).toBe(
      `Prompt is too long for the context window of ${MODEL} (200000 tokens): prompt is too long: 208310 tokens > 200000 maximum`,
    );
    expect(server.requests).toHaveLength(1);
  });

  test('another 400 invalid_request_error is bad_request, not prompt_too_long', async () => {
    server.push({ httpError: { status: 400 } });
    const [event] = await collect(provider(), request());
    expect(event).toMatchObject({ type: 'error', error: { kind: 'bad_request', status: 400 } });
    expect(server.requests).toHaveLength(1);
  });

  test('401 is an authentication error that says what to set', async () => {
    server.push({ httpError: { status: 401 } });
    const [event] = await collect(provider(), request());
    if (event?.type !== 'error') throw new Error('expected an error');
    expect(event.error.kind).toBe('authentication');
    expect(event.error.message).toContain('ANTHROPIC_API_KEY');
    expect(server.requests).toHaveLength(1);
  });

  test('529 overloaded, then success: a notice, then the text', async () => {
    server.push({ httpError: { status: 529 } }, { text: 'recovered' });
    const events = await collect(provider({ maxRetries: 4 }), request());
    expect(events.map((e) => e.type)).toEqual(['notice', 'text', 'usage', 'done']);
    expect(only(events, 'notice')[0]!.message).toMatch(
      /^Anthropic API overloaded \(529\); retrying in [\d.]+ s \(attempt 2 of 5\)$/,
    );
    expect(textOf(events)).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  test('429 then success honours retry-after (seconds)', async () => {
    server.push({ httpError: { status: 429, headers: { 'retry-after': '1' } } }, { text: 'after the wait' });
    const started = Date.now();
    const events = await collect(provider(), request());
    const elapsed = Date.now() - started;
    expect(only(events, 'notice').map((e) => e.message)).toEqual([
      'Anthropic API rate limited (429); retrying in 1 s (attempt 2 of 3)',
    ]);
    expect(textOf(events)).toBe('after the wait');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  test('retries exhausted: one notice per retry, then a terminal error with its kind', async () => {
    server.push({ httpError: { status: 500 } }, { httpError: { status: 503 } }, { httpError: { status: 500 } }, { text: 'never' });
    const events = await collect(provider({ maxRetries: 2 }), request());
    expect(events.map((e) => e.type)).toEqual(['notice', 'notice', 'error']);
    expect(only(events, 'notice').map((e) => e.message.replace(/[\d.]+ s/, 'N s'))).toEqual([
      'Anthropic API server error (500); retrying in N s (attempt 2 of 3)',
      'Anthropic API server error (503); retrying in N s (attempt 3 of 3)',
    ]);
    expect(last(events)).toMatchObject({ type: 'error', error: { kind: 'server', status: 500 } });
    expect(server.requests).toHaveLength(3);
    expect(server.remaining()).toBe(1);
  });

  test('backoff doubles from retryBaseDelayMs', async () => {
    server.push(
      { httpError: { status: 500 } },
      { httpError: { status: 500 } },
      { httpError: { status: 500 } },
      { text: 'ok' },
    );
    const events = await collect(provider({ maxRetries: 3, retryBaseDelayMs: 100 }), request());
    const delays = only(events, 'notice').map((e) => Number(/retrying in ([\d.]+) s/.exec(e.message)![1]) * 1000);
    expect(delays).toHaveLength(3);
    // 100, 200, 400 ms plus at most 20 % jitter
    [100, 200, 400].forEach((base, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(base);
      expect(delays[i]).toBeLessThanOrEqual(base * 1.2 + 10);
    });
    const gaps = server.requests.slice(1).map((r, i) => r.receivedAt - server.requests[i]!.receivedAt);
    expect(gaps[2]).toBeGreaterThanOrEqual(390);
    expect(textOf(events)).toBe('ok');
  });

  test('a mid-stream error before any output is retried (classified from the error type)', async () => {
    server.push({ text: 'lost', streamError: { afterEvents: 1, type: 'overloaded_error' } }, { text: 'second try' });
    const events = await collect(provider(), request());
    expect(only(events, 'notice')[0]!.message).toMatch(/^Anthropic API overloaded; retrying in/);
    expect(textOf(events)).toBe('second try');
    expect(last(events).type).toBe('done');
  });

  test('a mid-stream error after text is terminal and not retried', async () => {
    server.push(
      // message_start, content_block_start, ping, "Par", "tial" → then the error event
      { text: ['Par', 'tial', ' answer'], streamError: { afterEvents: 5, type: 'api_error', message: 'Internal server error' } },
      { text: 'must not be requested' },
    );
    const events = await collect(provider(), request());
    // the input tokens counted at message_start were billed: they are reported before the error
    expect(events.map((e) => e.type)).toEqual(['text', 'text', 'usage', 'error']);
    expect(only(events, 'usage')[0]!.usage).toEqual({ input: 100, output: 1, cacheWrite: 0, cacheRead: 0 });
    expect(textOf(events)).toBe('Partial');
    const error = last(events);
    if (error.type !== 'error') throw new Error('expected an error');
    expect(error.error.kind).toBe('server');
    expect(error.error.message).toContain('Internal server error');
    expect(server.requests).toHaveLength(1);
    expect(server.remaining()).toBe(1);
  });

  test('a mid-stream invalid_request_error is bad_request (from the body type, not the status)', async () => {
    server.push({ text: 'x', streamError: { afterEvents: 1, type: 'invalid_request_error', message: 'bad' } });
    const events = await collect(provider(), request());
    expect(events.map((e) => e.type)).toEqual(['usage', 'error']);
    expect(last(events)).toMatchObject({ error: { kind: 'bad_request' } });
  });

  test('a connection reset before any output is a network error and is retried', async () => {
    // message_start and content_block_start only: nothing shown yet
    server.push({ text: 'lost', connectionReset: { afterEvents: 2 } }, { text: 'second try' });
    const events = await collect(provider(), request());
    expect(only(events, 'notice')[0]!.message).toMatch(/^Anthropic API connection failed; retrying in/);
    expect(textOf(events)).toBe('second try');
    expect(last(events).type).toBe('done');
    expect(server.requests).toHaveLength(2);
  });

  test('a connection reset after text ends the response with a network error, not retried', async () => {
    server.push({ text: ['Par', 'tial', ' answer'], connectionReset: { afterEvents: 5 } }, { text: 'must not be requested' });
    const events = await collect(provider(), request());
    expect(events.map((e) => e.type)).toEqual(['text', 'text', 'usage', 'error']);
    const error = last(events);
    if (error.type !== 'error') throw new Error('expected an error');
    expect(error.error.kind).toBe('network');
    expect(error.error.message).toMatch(/^Anthropic API connection failed: terminated: aborted \(ECONNRESET\)/);
    expect(server.remaining()).toBe(1);
  });

  test('connection refused is a network error, retried, then terminal', async () => {
    const url = server.url;
    await server.close();
    const events = await collect(provider({ baseUrl: url, maxRetries: 1 }), request());
    expect(events.map((e) => e.type)).toEqual(['notice', 'error']);
    expect(only(events, 'notice')[0]!.message).toMatch(/^Anthropic API connection failed; retrying in/);
    expect(last(events)).toMatchObject({ error: { kind: 'network' } });
    // what failed underneath, not only the SDK's "Connection error."
    const port = new URL(url).port;
    expect(last(events)).toMatchObject({ error: { message: expect.stringMatching(new RegExp(`^Anthropic API connection failed: Connection error: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`)) } });
  });
});

describe('cancellation', () => {
  test('aborting mid-stream ends promptly with cancelled and no done', async () => {
    server.push({ text: Array.from({ length: 40 }, (_, i) => `w${i} `), chunkDelayMs: 50 });
    const controller = new AbortController();
    let abortedAt = 0;
    const events = await collect(provider(), request(), controller.signal, (event: ProviderEvent) => {
      if (event.type === 'text' && abortedAt === 0) {
        abortedAt = Date.now();
        controller.abort();
      }
    });
    const took = Date.now() - abortedAt;
    expect(took).toBeLessThan(500);
    expect(events.some((e) => e.type === 'done')).toBe(false);
    expect(last(events)).toMatchObject({ type: 'error', error: { kind: 'cancelled' } });
  });

  test('aborting during a retry wait ends promptly with cancelled', async () => {
    server.push({ httpError: { status: 429, headers: { 'retry-after': '20' } } }, { text: 'never' });
    const controller = new AbortController();
    let abortedAt = 0;
    const events = await collect(provider(), request(), controller.signal, (event) => {
      if (event.type === 'notice') {
        abortedAt = Date.now();
        setTimeout(() => controller.abort(), 20);
      }
    });
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(events.map((e) => e.type)).toEqual(['notice', 'error']);
    expect(only(events, 'notice')[0]!.message).toContain('retrying in 20 s');
    expect(last(events)).toMatchObject({ error: { kind: 'cancelled' } });
    expect(server.requests).toHaveLength(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collect(provider(), request(), controller.signal);
    expect(events).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ kind: 'cancelled' }) })]);
    expect(server.requests).toHaveLength(0);
  });

  test('a response read to its end aborts nothing (an abort there only costs time between turns)', async () => {
    server.push({ text: 'whole answer' });
    let aborts = 0;
    const Controller = AbortController;
    const original = Controller.prototype.abort;
    Controller.prototype.abort = function countedAbort(this: AbortController, reason?: unknown) {
      // The scripted server (in this process) aborts its own per-response controller on close.
      if (!new Error().stack?.includes('scripted-server')) aborts += 1;
      return original.call(this, reason);
    };
    try {
      const events = await collect(provider(), request());
      expect(textOf(events)).toBe('whole answer');
    } finally {
      Controller.prototype.abort = original;
    }
    expect(aborts).toBe(0);
  });

  test('a consumer that stops early is not kept waiting, and the provider stays usable', async () => {
    server.push({ text: Array.from({ length: 40 }, (_, i) => `w${i} `), chunkDelayMs: 30 });
    const p = provider();
    const started = Date.now();
    for await (const event of p.stream(request(), new AbortController().signal)) {
      if (event.type === 'text') break;
    }
    // well before the 40 × 30 ms script would have ended
    expect(Date.now() - started).toBeLessThan(600);
    server.push({ text: 'next' });
    const events = await collect(p, request());
    expect(textOf(events)).toBe('next');
  });
});

describe('a long run', () => {
  test('100 requests on one run signal leave no abort listener behind and print no warning', async () => {
    const result = await manyRequestsOnOneSignal(provider(), (i) => server.push({ text: `answer ${i}` }), 100);
    expect(result).toEqual({ warnings: [], listeners: 0, lastTypes: Array.from({ length: 100 }, () => 'done') });
  });
});

describe('streams as gateways send them', () => {
  test('no usage object anywhere and a ping between tool deltas: a complete turn whose usage is unknown (no usage event, not zeros)', async () => {
    const frames = [
      ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": ' } }],
      ['ping', { type: 'ping' }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"a.ts"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null } }],
      ['message_stop', { type: 'message_stop' }],
    ];
    const events = await collect(await rawProvider(frames), request({ tools: TOOLS }));
    expect(events.map((e) => e.type)).toEqual(['tool_calls', 'done']);
    expect(only(events, 'tool_calls')[0]!.calls).toEqual([{ id: 'toolu_1', name: 'read_file', input: '{"path": "a.ts"}' }]);
  });

  test('input_tokens only in message_delta, with the cache_creation sub-object and service_tier beside it', async () => {
    const usage = { input_tokens: 1200, cache_creation_input_tokens: 300, cache_read_input_tokens: 50, output_tokens: 7, cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 }, service_tier: 'standard' };
    const frames = [
      ['message_start', { type: 'message_start', message: { id: 'msg_2', type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage }],
      ['message_stop', { type: 'message_stop' }],
    ];
    const events = await collect(await rawProvider(frames), request());
    expect(only(events, 'usage')[0]!.usage).toEqual({ input: 1200, output: 7, cacheWrite: 300, cacheRead: 50 });
    expect(last(events)).toMatchObject({ type: 'done', stopReason: 'end_turn' });
  });
});

/** A provider whose server answers every request with exactly these SSE frames. */
async function rawProvider(frames: (string | object)[][]): Promise<Provider> {
  const body = frames.map(([event, data]) => `event: ${String(event)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  const raw = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(body);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawServers.push(raw);
  return provider({ baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, maxRetries: 0 });
}
