// provider-openai through the real openai SDK against the scripted model server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Container } from 'inversify';
import plugin from '../../../plugins/provider-openai/index.js';
import { usesMaxCompletionTokens } from '../../../plugins/provider-openai/request.js';
import { startScriptedServer, type ScriptedServer } from '../../scripted-server/index.js';
import { TOKENS } from '../../../types/index.js';
import type { Message, Provider, ProviderEvent, ProviderFactory, ProviderSettings } from '../../../types/index.js';
import { EDIT_SCHEMA, TOOLS, collect, last, manyRequestsOnOneSignal, only, request, textOf } from '../../support/provider-test-helpers.js';

const MODEL = 'gpt-scripted-1';
const LABEL = 'OpenAI-compatible API "openai"';

let server: ScriptedServer;
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
    name: 'openai',
    protocol: 'openai',
    model: MODEL,
    apiKey: 'test-key',
    baseUrl: `${server.url}/v1`,
    contextWindow: 128_000,
    maxTokens: 2048,
    maxRetries: 2,
    retryBaseDelayMs: 5,
    ...overrides,
  });
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/** Runs `fn` with some environment variables replaced, restoring them afterwards. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

describe('plugin and factory', () => {
  test('binds a ProviderFactory with the OpenAI defaults', () => {
    expect(plugin.name).toBe('provider-openai');
    expect(factory.protocol).toBe('openai');
    expect(factory.apiKeyEnv).toBe('OPENAI_API_KEY');
    expect(factory.baseUrlEnv).toBe('OPENAI_BASE_URL');
    expect(factory.defaultContextWindow).toBe(128_000);
    const p = provider({ name: 'deepseek', model: 'deepseek-chat', contextWindow: 64_000 });
    expect([p.id, p.protocol, p.model, p.contextWindow]).toEqual(['deepseek', 'openai', 'deepseek-chat', 64_000]);
  });
});

describe('request shape', () => {
  test('one system message, full tool schemas, max_tokens, include_usage, streamed text and usage', async () => {
    server.push({ text: ['Hel', 'lo', '!'], usage: { input: 50, output: 9, cacheRead: 30 } });
    const events = await collect(provider({ maxTokens: 777 }), request({ tools: TOOLS }));
    expect(events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: '!' },
      // prompt_tokens 80 of which 30 cached → 50 uncached input
      { type: 'usage', usage: { input: 50, output: 9, cacheWrite: 0, cacheRead: 30 } },
      { type: 'done', content: [{ type: 'text', text: 'Hello!' }], stopReason: 'stop' },
    ]);

    const logged = server.requests[0]!;
    expect(logged.path).toBe('/v1/chat/completions');
    expect(logged.headers['authorization']).toBe('Bearer test-key');
    const body = logged.body;
    expect(body.model).toBe(MODEL);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    // a compatible endpoint (base_url set) gets max_tokens
    expect(body.max_tokens).toBe(777);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are MewCode.\n\ncwd: /repo' },
      { role: 'user', content: 'hello' },
    ]);
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'edit_file', description: 'Edit a file', parameters: EDIT_SCHEMA } },
      { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: TOOLS[1]!.inputSchema } },
    ]);
  });

  test('an empty environment leaves just the stable prompt; images become data: URL parts; no tools → no tools field', async () => {
    server.push({ text: 'ok' });
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
      },
    ];
    await collect(provider(), request({ system: { stable: 'S', environment: '' }, messages }));
    const body = server.requests[0]!.body;
    expect(body.messages[0]).toEqual({ role: 'system', content: 'S' });
    expect(body.messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
    expect(body.tools).toBeUndefined();
  });

  test('one tool message per result (errors marked), raw arguments, thinking dropped, reminder last', async () => {
    server.push({ text: 'fine' });
    const messages: Message[] = [
      user('fix the bug'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I will read both', signature: '' },
          { type: 'text', text: 'Reading both files.' },
        ],
        toolCalls: [
          { id: 'call_a', name: 'read_file', input: '{"path": "a.ts", "limit": 1.50}' },
          { id: 'call_b', name: 'read_file', input: '{"path": "b.ts"' },
        ],
      },
      {
        role: 'tool',
        results: [
          { toolCallId: 'call_a', content: 'contents of a', isError: false },
          { toolCallId: 'call_b', content: 'ENOENT: b.ts does not exist', isError: true },
        ],
      },
      {
        role: 'assistant',
        content: [],
        toolCalls: [{ id: 'call_c', name: 'read_file', input: '{"path":"c.ts"}' }],
      },
      { role: 'tool', results: [{ toolCallId: 'call_c', content: 'Error: permission denied', isError: true }] },
    ];
    await collect(provider(), request({ messages, reminder: '<reminder>plan mode</reminder>' }));
    const body = server.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are MewCode.\n\ncwd: /repo' },
      { role: 'user', content: 'fix the bug' },
      {
        role: 'assistant',
        content: 'Reading both files.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path": "a.ts", "limit": 1.50}' } },
          { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path": "b.ts"' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'contents of a' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: ENOENT: b.ts does not exist' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_c', type: 'function', function: { name: 'read_file', arguments: '{"path":"c.ts"}' } }],
      },
      // already says it is an error: not prefixed twice
      { role: 'tool', tool_call_id: 'call_c', content: 'Error: permission denied' },
      { role: 'user', content: '<reminder>plan mode</reminder>' },
    ]);
    expect(server.requests[0]!.rawBody).not.toContain('I will read both');
  });

  test('the reminder after an assistant message is a trailing user message', async () => {
    server.push({ text: 'ok' });
    const messages: Message[] = [user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }], toolCalls: [] }];
    await collect(provider(), request({ messages, reminder: 'REMINDER' }));
    const body = server.requests[0]!.body;
    expect(body.messages.map((m: any) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'REMINDER' });
  });

  test('without base_url the client honours OPENAI_BASE_URL, and a non-OpenAI host still gets max_tokens', async () => {
    server.push({ text: 'via env' });
    const events = await withEnv({ OPENAI_BASE_URL: `${server.url}/v1` }, () =>
      collect(provider({ baseUrl: undefined, maxTokens: 321 }), request()),
    );
    expect(textOf(events)).toBe('via env');
    expect(server.requests[0]!.body.max_tokens).toBe(321);
    expect(server.requests[0]!.body.max_completion_tokens).toBeUndefined();
  });

  test('api.openai.com gets max_completion_tokens (reasoning models reject max_tokens)', () => {
    expect(usesMaxCompletionTokens('https://api.openai.com/v1')).toBe(true);
    expect(usesMaxCompletionTokens('http://127.0.0.1:8000/v1')).toBe(false);
    expect(usesMaxCompletionTokens('https://api.deepseek.com')).toBe(false);
    expect(usesMaxCompletionTokens('not a url')).toBe(false);
  });

  test('a keyless local endpoint works; api.openai.com without a key is an authentication error, sent nowhere', async () => {
    server.push({ text: 'local' });
    const local = await withEnv({ OPENAI_API_KEY: undefined }, () => collect(provider({ apiKey: undefined }), request()));
    expect(textOf(local)).toBe('local');

    const events = await withEnv({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined }, () =>
      collect(provider({ apiKey: undefined, baseUrl: undefined }), request()),
    );
    expect(events).toHaveLength(1);
    expect(last(events)).toMatchObject({ type: 'error', error: { kind: 'authentication' } });
    expect((last(events) as Extract<ProviderEvent, { type: 'error' }>).error.message).toContain('OPENAI_API_KEY');
    expect(server.requests).toHaveLength(1);
  });
});

describe('tool calls and reasoning', () => {
  test('parallel calls assembled by index keep the raw text exactly, malformed included; no arguments → "{}"', async () => {
    const precise = '{"path": "src/a.ts", "offset": 1.50, "limit": 1e2}';
    const malformed = '{"pattern": "foo\\"bar", "glob": ';
    server.push({
      toolCalls: [
        { id: 'call_1', name: 'read_file', input: precise },
        { id: 'call_2', name: 'grep', input: malformed },
        { id: 'call_3', name: 'list_files', input: '' },
      ],
    });
    const events = await collect(provider(), request({ tools: TOOLS }));
    expect(events.map((e) => e.type)).toEqual(['tool_calls', 'usage', 'done']);
    expect(only(events, 'tool_calls')[0]!.calls).toEqual([
      { id: 'call_1', name: 'read_file', input: precise },
      { id: 'call_2', name: 'grep', input: malformed },
      { id: 'call_3', name: 'list_files', input: '{}' },
    ]);
    expect(last(events)).toEqual({ type: 'done', content: [], stopReason: 'tool_calls' });
  });

  test('reasoning_content (DeepSeek) streams as thinking, is kept in done.content, and is never sent back', async () => {
    server.push({ thinking: { text: 'The user greets me; reply politely and briefly.', signature: '' }, text: 'Hi there!' });
    const events = await collect(provider({ name: 'deepseek' }), request());
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('thinking');
    expect(types.lastIndexOf('thinking')).toBeLessThan(types.indexOf('text'));
    const done = last(events);
    expect(done).toEqual({
      type: 'done',
      content: [
        { type: 'thinking', thinking: 'The user greets me; reply politely and briefly.', signature: '' },
        { type: 'text', text: 'Hi there!' },
      ],
      stopReason: 'stop',
    });
    if (done.type !== 'done') throw new Error('unreachable');

    server.push({ text: 'again' });
    await collect(
      provider({ name: 'deepseek' }),
      request({ messages: [user('hello'), { role: 'assistant', content: done.content, toolCalls: [] }, user('again?')] }),
    );
    expect(server.requests[1]!.body.messages[2]).toEqual({ role: 'assistant', content: 'Hi there!' });
    expect(server.requests[1]!.rawBody).not.toContain('reply politely');
  });
});

describe('errors', () => {
  test('prompt too long (context_length_exceeded) is typed, names the limit, and is not retried', async () => {
    server.push({ promptTooLong: true }, { text: 'never' });
    const events = await collect(provider(), request());
    expect(events).toHaveLength(1);
    const event = events[0]!;
    if (event.type !== 'error') throw new Error(`expected an error, got ${event.type}`);
    expect(event.error.kind).toBe('prompt_too_long');
    expect(event.error.status).toBe(400);
    expect(event.error.message).toBe(
      `Prompt is too long for the context window of ${MODEL} (128000 tokens): This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  test('a compatible server’s 400 with the documented context-length text but another code is prompt_too_long too', async () => {
    // DeepSeek's shape: OpenAI's documented sentence, without the context_length_exceeded code
    server.push({
      httpError: {
        status: 400,
        body: {
          error: {
            message:
              "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (70000 in the messages, 0 in the completion). Please reduce the length of the messages or completion.",
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_request_error',
          },
        },
      },
    });
    const [event] = await collect(provider({ model: 'deepseek-chat', contextWindow: 65_536 }), request());
    expect(event).toMatchObject({ type: 'error', error: { kind: 'prompt_too_long' } });
    expect((event as Extract<ProviderEvent, { type: 'error' }>).error.message).toMatch(
      /^Prompt is too long for the context window of deepseek-chat \(65536 tokens\): This model's maximum context length is 65536/,
    );
  });

  test('another 400 is bad_request', async () => {
    server.push({ httpError: { status: 400 } });
    const [event] = await collect(provider(), request());
    expect(event).toMatchObject({ type: 'error', error: { kind: 'bad_request', status: 400 } });
  });

  test('429 insufficient_quota with code null (the common real body) is not retried either', async () => {
    server.push({ httpError: { status: 429, body: { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', param: null, code: null } } } }, { text: 'unused' });
    const events = await collect(provider(), request());
    expect(events.map((e) => e.type)).toEqual(['error']);
    expect(last(events)).toMatchObject({ error: { kind: 'bad_request', status: 429 } });
    expect(server.remaining()).toBe(1);
  });

  test('429 insufficient_quota is not retried: waiting cannot fix an empty account', async () => {
    server.push({ httpError: { status: 429, body: { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } } } }, { text: 'unused' });
    const events = await collect(provider(), request());
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'bad_request', status: 429 }) }]);
    expect((events[0] as { error: Error }).error.message).toContain('quota exhausted');
    expect(server.requests).toHaveLength(1);
  });

  test('a stream cut off before finish_reason is an error, not a complete answer', async () => {
    const { createServer } = await import('node:http');
    const cut = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = { id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [{ index: 0, delta: { role: 'assistant', content: 'half an ans' }, finish_reason: null }] };
        res.end(`data: ${JSON.stringify(chunk)}\n\n`); // no finish_reason, no [DONE]
      });
    });
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    try {
      const address = cut.address() as { port: number };
      const events = await collect(provider({ baseUrl: `http://127.0.0.1:${address.port}/v1`, maxRetries: 0 }), request());
      expect(events.map((e) => e.type)).toEqual(['text', 'error']);
      expect(last(events)).toMatchObject({ type: 'error', error: { kind: 'network', message: expect.stringContaining('no finish_reason') } });
    } finally {
      await new Promise((resolve) => cut.close(resolve));
    }
  });

  test('401 is an authentication error that says what to set', async () => {
    server.push({ httpError: { status: 401 } });
    const [event] = await collect(provider(), request());
    if (event?.type !== 'error') throw new Error('expected an error');
    expect(event.error.kind).toBe('authentication');
    expect(event.error.message).toContain('OPENAI_API_KEY');
    expect(server.requests).toHaveLength(1);
  });

  test('503 then success: a notice, then the text', async () => {
    server.push({ httpError: { status: 503 } }, { text: 'recovered' });
    const events = await collect(provider({ maxRetries: 4 }), request());
    expect(events.map((e) => e.type)).toEqual(['notice', 'text', 'usage', 'done']);
    expect(only(events, 'notice')[0]!.message).toMatch(
      new RegExp(`^${LABEL} server error \\(503\\); retrying in [\\d.]+ s \\(attempt 2 of 5\\)$`),
    );
    expect(textOf(events)).toBe('recovered');
  });

  test('429 then success honours retry-after; the label says OpenAI API for api.openai.com-style configs', async () => {
    server.push({ httpError: { status: 429, headers: { 'retry-after': '1' } } }, { text: 'after the wait' });
    const started = Date.now();
    const events = await collect(provider(), request());
    expect(only(events, 'notice').map((e) => e.message)).toEqual([
      `${LABEL} rate limited (429); retrying in 1 s (attempt 2 of 3)`,
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(textOf(events)).toBe('after the wait');

    server.push({ httpError: { status: 429 } }, { text: 'x' });
    const viaEnv = await withEnv({ OPENAI_BASE_URL: `${server.url}/v1` }, () =>
      collect(provider({ baseUrl: undefined }), request()),
    );
    expect(only(viaEnv, 'notice')[0]!.message).toMatch(/^OpenAI API rate limited \(429\); retrying in/);
  });

  test('retries exhausted: a terminal error with its kind', async () => {
    server.push({ httpError: { status: 429 } }, { httpError: { status: 429 } }, { httpError: { status: 429 } }, { text: 'never' });
    const events = await collect(provider({ maxRetries: 2 }), request());
    expect(events.map((e) => e.type)).toEqual(['notice', 'notice', 'error']);
    expect(last(events)).toMatchObject({ type: 'error', error: { kind: 'rate_limit', status: 429 } });
    expect(server.requests).toHaveLength(3);
    expect(server.remaining()).toBe(1);
  });

  test('a mid-stream error after text is terminal and not retried', async () => {
    server.push(
      // role chunk, "Par", "tial" → then the error chunk
      { text: ['Par', 'tial', ' answer'], streamError: { afterEvents: 3 } },
      { text: 'must not be requested' },
    );
    const events = await collect(provider(), request());
    expect(events.map((e) => e.type)).toEqual(['text', 'text', 'error']);
    expect(textOf(events)).toBe('Partial');
    const error = last(events);
    if (error.type !== 'error') throw new Error('expected an error');
    // {"error":{"type":"server_error",…}} in the stream
    expect(error.error.kind).toBe('server');
    expect(error.error.message).toContain('The server had an error');
    expect(server.requests).toHaveLength(1);
    expect(server.remaining()).toBe(1);
  });

  test('a connection reset before any output is a network error and is retried', async () => {
    server.push({ text: 'lost', connectionReset: { afterEvents: 1 } }, { text: 'second try' });
    const events = await collect(provider(), request());
    expect(only(events, 'notice')[0]!.message).toMatch(/connection failed; retrying in/);
    expect(textOf(events)).toBe('second try');
    expect(last(events).type).toBe('done');
  });

  test('a connection reset after text ends the response with a network error, not retried', async () => {
    server.push({ text: ['Par', 'tial', ' answer'], connectionReset: { afterEvents: 3 } }, { text: 'must not be requested' });
    const events = await collect(provider(), request());
    expect(events.map((e) => e.type).at(-1)).toBe('error');
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(last(events)).toMatchObject({ error: { kind: 'network' } });
    expect(server.remaining()).toBe(1);
  });

  test('a mid-stream error before any output is retried', async () => {
    server.push({ text: 'lost', streamError: { afterEvents: 1 } }, { text: 'second try' });
    const events = await collect(provider(), request());
    expect(only(events, 'notice')[0]!.message).toMatch(new RegExp(`^${LABEL} server error; retrying in`));
    expect(textOf(events)).toBe('second try');
  });
});

describe('cancellation', () => {
  test('aborting mid-stream ends promptly with cancelled and no done', async () => {
    server.push({ text: Array.from({ length: 40 }, (_, i) => `w${i} `), chunkDelayMs: 50 });
    const controller = new AbortController();
    let abortedAt = 0;
    const events = await collect(provider(), request(), controller.signal, (event) => {
      if (event.type === 'text' && abortedAt === 0) {
        abortedAt = Date.now();
        controller.abort();
      }
    });
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(events.some((e) => e.type === 'done' || e.type === 'usage')).toBe(false);
    expect(last(events)).toMatchObject({ type: 'error', error: { kind: 'cancelled' } });
  });

  test('aborting while waiting for the response headers ends promptly with cancelled', async () => {
    server.push({ text: 'late', delayMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const events = await collect(provider(), request(), controller.signal);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(events).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ kind: 'cancelled' }) })]);
  });
});

describe('a long run', () => {
  test('100 requests on one run signal leave no abort listener behind and print no warning', async () => {
    const result = await manyRequestsOnOneSignal(provider(), (i) => server.push({ text: `answer ${i}` }), 100);
    expect(result).toEqual({ warnings: [], listeners: 0, lastTypes: Array.from({ length: 100 }, () => 'done') });
  });
});

describe("the SDK's own output", () => {
  test('a chunk that is not JSON is a typed error, and the SDK prints nothing', async () => {
    const raw = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: {"id": "chatcmpl-1", "choices": [oops\n\n');
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const stderrWrite = jest.spyOn(process.stderr, 'write');
    try {
      const events = await collect(provider({ baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`, maxRetries: 0 }), request());
      expect(events.map((e) => e.type)).toEqual(['error']);
      expect(consoleError).not.toHaveBeenCalled();
      expect(stderrWrite).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      stderrWrite.mockRestore();
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});

describe('streams as real servers send them', () => {
  test('a content-filter first chunk with choices: [], usage: null chunks, obfuscation padding, a tool call without arguments, a final choices: [] usage chunk', async () => {
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: MODEL, system_fingerprint: null };
    const chunks = [
      { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] },
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }], usage: null, obfuscation: 'a1b2' },
      { ...base, choices: [{ index: 0, delta: { content: 'Checking.' }, logprobs: null, finish_reason: null }], usage: null, obfuscation: 'x' },
      { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'list_files', arguments: '' } }] }, logprobs: null, finish_reason: null }], usage: null },
      { ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }], usage: null, obfuscation: 'yz' },
      { ...base, choices: [], usage: { prompt_tokens: 900, completion_tokens: 12, total_tokens: 912, prompt_tokens_details: { cached_tokens: 800, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } } },
    ];
    const body = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
    const raw = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(body);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const events = await collect(provider({ baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`, maxRetries: 0 }), request({ tools: TOOLS }));
      expect(events.map((e) => e.type)).toEqual(['text', 'tool_calls', 'usage', 'done']);
      expect(only(events, 'tool_calls')[0]!.calls).toEqual([{ id: 'call_1', name: 'list_files', input: '{}' }]);
      expect(only(events, 'usage')[0]!.usage).toEqual({ input: 100, output: 12, cacheWrite: 0, cacheRead: 800 });
      expect(last(events)).toMatchObject({ type: 'done', stopReason: 'tool_calls' });
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});
