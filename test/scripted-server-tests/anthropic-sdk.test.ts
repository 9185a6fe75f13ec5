// The real Anthropic SDK against the scripted server.
import Anthropic from '@anthropic-ai/sdk';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';

const MODEL = 'claude-scripted-1';

let server: ScriptedServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startScriptedServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
});

function stream(extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) {
  return client.messages.stream({
    model: MODEL,
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'hello' }],
    ...extra,
  });
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('Anthropic Messages streaming', () => {
  test('text arrives in several deltas and assembles into the final message', async () => {
    const text = 'Hello from the scripted server, streamed in pieces.';
    server.push({ text });
    const s = stream();
    const deltas: string[] = [];
    s.on('text', (delta) => deltas.push(delta));
    const message = await s.finalMessage();

    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe(text);
    expect(message.content).toEqual([{ type: 'text', text }]);
    expect(message.model).toBe(MODEL);
    expect(message.id).toMatch(/^msg_01[0-9A-Za-z]{22}$/);
    expect(message.role).toBe('assistant');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.stop_sequence).toBeNull();
  });

  test('an array of text gives exactly one delta per element', async () => {
    server.push({ text: ['a', 'bc', '', 'déf 🐱'] });
    const s = stream();
    const deltas: string[] = [];
    s.on('text', (delta) => deltas.push(delta));
    const message = await s.finalMessage();
    expect(deltas).toEqual(['a', 'bc', '', 'déf 🐱']);
    expect(message.content).toEqual([{ type: 'text', text: 'abcdéf 🐱' }]);
  });

  test('thinking block with signature round-trips before the text', async () => {
    server.push({
      thinking: { text: 'The user greets me; I should greet back politely and briefly.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
      text: 'Hi!',
    });
    const s = stream({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    const thinkingDeltas: string[] = [];
    s.on('thinking', (delta) => thinkingDeltas.push(delta));
    const message = await s.finalMessage();

    expect(thinkingDeltas.length).toBeGreaterThan(1);
    expect(message.content).toEqual([
      {
        type: 'thinking',
        thinking: 'The user greets me; I should greet back politely and briefly.',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h',
      },
      { type: 'text', text: 'Hi!' },
    ]);
  });

  test('parallel tool calls with mid-token split input reassemble exactly', async () => {
    const readInput = { path: 'src/some/deeply/nested/file.ts', limit: 200, flags: ['a', 'b'] };
    const grepInput = { pattern: 'fo"o\\bar', note: 'ünïcødé 🐱 text' };
    server.push({
      text: 'Let me look.',
      toolCalls: [
        { name: 'read_file', input: readInput },
        { id: 'toolu_fixed_id', name: 'grep', input: grepInput },
      ],
    });
    const s = stream();
    const fragments: string[] = [];
    s.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        fragments.push(event.delta.partial_json);
      }
    });
    const message = await s.finalMessage();

    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toHaveLength(3);
    const [text, read, grep] = message.content as any[];
    expect(text).toEqual({ type: 'text', text: 'Let me look.' });
    expect(read).toMatchObject({ type: 'tool_use', name: 'read_file', input: readInput });
    expect(read.id).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);
    expect(grep).toEqual({ type: 'tool_use', id: 'toolu_fixed_id', name: 'grep', input: grepInput });
    // 3+ fragments per call, none of them valid JSON on its own.
    expect(fragments.length).toBeGreaterThanOrEqual(6);
    expect(fragments.join('')).toBe(JSON.stringify(readInput) + JSON.stringify(grepInput));
  });

  test('a string tool input is sent verbatim, even when malformed', async () => {
    server.push({ toolCalls: [{ name: 'bash', input: '{"command": "ls -la", "timeout": 12' }] });
    const s = stream();
    let raw = '';
    s.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') raw += event.delta.partial_json;
    });
    const message = await s.finalMessage();
    expect(raw).toBe('{"command": "ls -la", "timeout": 12');
    // Worth knowing: the SDK partial-parses malformed input silently (the trailing number is dropped),
    // so code that must detect malformed arguments has to accumulate input_json_delta itself.
    expect((message.content[0] as Anthropic.ToolUseBlock).input).toEqual({ command: 'ls -la' });
  });

  test('usage maps to input/cache/output token fields', async () => {
    server.push({ text: 'ok', usage: { input: 1234, output: 56, cacheWrite: 789, cacheRead: 4321 } });
    const message = await stream().finalMessage();
    expect(message.usage).toMatchObject({
      input_tokens: 1234,
      output_tokens: 56,
      cache_creation_input_tokens: 789,
      cache_read_input_tokens: 4321,
    });
  });

  test('default usage and an explicit stop reason', async () => {
    server.push({ text: 'truncat', stopReason: 'max_tokens' });
    const message = await stream().finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage).toMatchObject({
      input_tokens: 100,
      output_tokens: 20,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
  });

  test('non-streaming create returns the equivalent JSON message', async () => {
    server.push({ thinking: { text: 'hmm', signature: 'sig' }, text: 'done', toolCalls: [{ name: 't', input: { a: 1 } }] });
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(message.model).toBe(MODEL);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'text', text: 'done' },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_01/), name: 't', input: { a: 1 } },
    ]);
  });
});

describe('Anthropic errors', () => {
  test.each([
    [400, 'invalid_request_error', Anthropic.BadRequestError],
    [401, 'authentication_error', Anthropic.AuthenticationError],
    [403, 'permission_error', Anthropic.PermissionDeniedError],
    [404, 'not_found_error', Anthropic.NotFoundError],
    [429, 'rate_limit_error', Anthropic.RateLimitError],
    [500, 'api_error', Anthropic.InternalServerError],
    [529, 'overloaded_error', Anthropic.InternalServerError],
  ])('HTTP %i surfaces as an APIError with the documented body (%s)', async (status, type, errorClass) => {
    server.push({ httpError: { status } });
    const error = await rejection(stream().finalMessage());
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toBeInstanceOf(errorClass);
    expect(error.status).toBe(status);
    expect(error.error).toEqual({ type: 'error', error: { type, message: expect.any(String) } });
    expect(error.error.error.type).toBe(type);
    expect(error.type).toBe(type);
    expect(error.requestID).toMatch(/^req_/);
    if (status === 429 || status === 529) expect(error.headers.get('retry-after')).toBe('0');
  });

  test('custom error body and headers are sent as given', async () => {
    const body = { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } };
    server.push({ httpError: { status: 429, body, headers: { 'retry-after': '7' } } });
    const error = await rejection(stream().finalMessage());
    expect(error.status).toBe(429);
    expect(error.error).toEqual(body);
    expect(error.headers.get('retry-after')).toBe('7');
    expect(error.headers.get('retry-after-ms')).toBeNull();
  });

  test('SDK-level retries after 429/529 are fast and consume the next turn', async () => {
    const retrying = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 3 });
    server.push({ httpError: { status: 529 } }, { httpError: { status: 429 } }, { httpError: { status: 529 } }, { text: 'finally' });
    const started = Date.now();
    const message = await retrying.messages
      .stream({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(server.requests).toHaveLength(4);
    // The SDK's own back-off for three retries is at least 2.6 s (0.5, 1 and 2 s, less 25% jitter);
    // the server's retry-after-ms makes them immediate.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('prompt too long gives the documented 400 body', async () => {
    server.push({ promptTooLong: true });
    const error = await rejection(stream().finalMessage());
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
    });
  });

  test('a mid-stream error event makes the SDK throw', async () => {
    server.push({ text: 'this will be cut off before the end', streamError: { afterEvents: 4 } });
    const s = stream();
    const deltas: string[] = [];
    s.on('text', (delta) => deltas.push(delta));
    const error = await rejection(s.finalMessage());
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.status).toBeUndefined();
    expect(error.error).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(error.type).toBe('overloaded_error');
    expect(deltas).toHaveLength(1); // message_start, content_block_start, ping, one delta
  });

  test('mid-stream error type and message can be scripted', async () => {
    server.push({ text: 'x', streamError: { afterEvents: 0, type: 'api_error', message: 'boom' } });
    const error = await rejection(stream().finalMessage());
    expect(error.error).toEqual({ type: 'error', error: { type: 'api_error', message: 'boom' } });
  });

  test('an exhausted script answers 500 naming the request number', async () => {
    server.push({ text: 'only one' });
    await stream().finalMessage();
    const error = await rejection(stream().finalMessage());
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error.status).toBe(500);
    expect(error.error.error.message).toBe('scripted server: no scripted turn left for request #2');
    expect(error.message).toContain('no scripted turn left for request #2');
  });
});
