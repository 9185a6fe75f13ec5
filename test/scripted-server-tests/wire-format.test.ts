// Raw HTTP checks: byte format of the SSE streams, routing, the request log, delays, shutdown.
import http from 'node:http';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';

let server: ScriptedServer;

beforeEach(async () => {
  server = await startScriptedServer();
});

afterEach(async () => {
  await server.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

interface RawEvent {
  event: string | null;
  data: string;
}

function parseSse(text: string): RawEvent[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const lines = frame.split('\n');
      if (lines.length === 2) {
        expect(lines[0]).toMatch(/^event: [a-z_]+$/);
        expect(lines[1]).toMatch(/^data: /);
        return { event: lines[0]!.slice('event: '.length), data: lines[1]!.slice('data: '.length) };
      }
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^data: /);
      return { event: null, data: lines[0]!.slice('data: '.length) };
    });
}

const anthropicRequest = { model: 'claude-x', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] };
const openaiRequest = {
  model: 'gpt-x',
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content: 'hi' }],
};

describe('Anthropic SSE bytes', () => {
  test('event order, event names match data types, content-type', async () => {
    server.push({
      thinking: { text: 'think', signature: 'sig' },
      text: 'hello',
      toolCalls: [{ name: 'edit', input: { file_path: 'src/index.ts', old: 'a', new: 'b' } }],
    });
    const response = await post('/v1/messages', anthropicRequest);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    for (const event of events) expect(JSON.parse(event.data).type).toBe(event.event);

    const names = events.map((event) => event.event);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(names.filter((name) => name === 'content_block_start')).toHaveLength(3);
    expect(names.filter((name) => name === 'content_block_stop')).toHaveLength(3);

    const data = events.map((event) => JSON.parse(event.data));
    expect(data[0].message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null });
    expect(data[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    expect(data.find((d) => d.delta?.type === 'signature_delta')).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: 'sig' },
    });
    const toolStart = data.find((d) => d.content_block?.type === 'tool_use');
    expect(toolStart).toEqual({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: expect.stringMatching(/^toolu_01/), name: 'edit', input: {} },
    });
    expect(data.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 20 },
    });
  });

  test('input_json_delta fragments: 3 or more, one boundary inside a string literal', async () => {
    const input = { file_path: 'src/index.ts', content: 'x' };
    server.push({ toolCalls: [{ name: 'write', input }] });
    const events = parseSse(await (await post('/v1/messages', anthropicRequest)).text());
    const fragments = events
      .map((event) => JSON.parse(event.data))
      .filter((d) => d.delta?.type === 'input_json_delta')
      .map((d) => d.delta.partial_json as string);
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    expect(fragments.join('')).toBe(JSON.stringify(input));
    // Some boundary falls strictly inside a quoted string (odd number of quotes before it).
    let offset = 0;
    const insideString = fragments.slice(0, -1).some((fragment) => {
      offset += fragment.length;
      const quotes = (JSON.stringify(input).slice(0, offset).match(/"/g) ?? []).length;
      return quotes % 2 === 1;
    });
    expect(insideString).toBe(true);
  });

  test('a mid-stream error is an `event: error` frame and ends the response', async () => {
    server.push({ text: 'abc', streamError: {} });
    const events = parseSse(await (await post('/v1/messages', anthropicRequest)).text());
    expect(events.map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'error']);
    expect(JSON.parse(events[2]!.data)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });
});

describe('OpenAI SSE bytes', () => {
  test('data-only frames, role first, [DONE] last, usage:null on choice chunks', async () => {
    server.push({ text: 'hello world, this is long enough to split' });
    const response = await post('/v1/chat/completions', openaiRequest);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.every((event) => event.event === null)).toBe(true);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks[0].choices[0]).toEqual({
      index: 0,
      delta: { role: 'assistant', content: '', refusal: null },
      logprobs: null,
      finish_reason: null,
    });
    for (const chunk of chunks.slice(0, -1)) expect(chunk.usage).toBeNull();
    expect(chunks.at(-2).choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
    expect(chunks.at(-1).choices).toEqual([]);
    expect(chunks.at(-1).usage.prompt_tokens).toBe(100);
  });

  test('a tool-only answer carries the role on the first tool-call chunk', async () => {
    server.push({ toolCalls: [{ name: 'ls', input: {} }] });
    const events = parseSse(await (await post('/chat/completions', openaiRequest)).text());
    const first = JSON.parse(events[0]!.data);
    expect(first.choices[0].delta).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [{ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'ls', arguments: '' } }],
    });
  });

  test('a mid-stream error is a data-only {"error": ...} frame without [DONE]', async () => {
    server.push({ text: 'abc', streamError: { afterEvents: 1, type: 'server_error', message: 'upstream died' } });
    const events = parseSse(await (await post('/v1/chat/completions', openaiRequest)).text());
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1]!.data)).toEqual({
      error: { message: 'upstream died', type: 'server_error', param: null, code: null },
    });
  });
});

describe('routing, log and timing', () => {
  test('unknown paths get 404 and do not consume a turn', async () => {
    server.push({ text: 'kept' });
    const response = await post('/v1/completions', {});
    expect(response.status).toBe(404);
    expect((await fetch(`${server.url}/v1/messages`)).status).toBe(404); // GET
    expect(server.remaining()).toBe(1);
    expect(server.requests).toHaveLength(0);
  });

  test('requests are logged in order across protocols, including errors', async () => {
    server.push({ text: 'one' }, { httpError: { status: 400 } }, { text: 'three' });
    await (await post('/v1/messages', { ...anthropicRequest, system: 'sys A' }, { 'x-api-key': 'k1' })).text();
    await (await post('/v1/chat/completions', { ...openaiRequest, model: 'm2' })).text();
    await (await post('/chat/completions', { ...openaiRequest, model: 'm3', stream: false })).text();
    await (await post('/v1/messages', 'not json{')).text();
    await (await post('/v1/messages', anthropicRequest)).text(); // script exhausted

    expect(server.requests.map((r) => [r.protocol, r.path])).toEqual([
      ['anthropic', '/v1/messages'],
      ['openai', '/v1/chat/completions'],
      ['openai', '/chat/completions'],
      ['anthropic', '/v1/messages'],
      ['anthropic', '/v1/messages'],
    ]);
    const [first, second, third, fourth, fifth] = server.requests;
    expect(first!.body.system).toBe('sys A');
    expect(first!.headers['x-api-key']).toBe('k1');
    expect(first!.method).toBe('POST');
    expect(JSON.parse(first!.rawBody)).toEqual(first!.body);
    expect(second!.body.model).toBe('m2');
    expect(third!.body.model).toBe('m3');
    expect(fourth!.body).toBeNull();
    expect(fourth!.rawBody).toBe('not json{');
    expect(fifth!.receivedAt).toBeGreaterThanOrEqual(first!.receivedAt);
    expect(server.remaining()).toBe(0);
  });

  test('exhausted script: protocol-shaped 500 that the SDKs will not retry', async () => {
    const anthropic = await post('/v1/messages', anthropicRequest);
    expect(anthropic.status).toBe(500);
    expect(anthropic.headers.get('x-should-retry')).toBe('false');
    expect(await anthropic.json()).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'scripted server: no scripted turn left for request #1' },
    });
    const openai = await post('/v1/chat/completions', openaiRequest);
    expect(await openai.json()).toEqual({
      error: { message: 'scripted server: no scripted turn left for request #2', type: 'server_error', param: null, code: null },
    });
  });

  test('delayMs holds the headers back; chunkDelayMs spaces the events', async () => {
    server.push({ text: ['a', 'b', 'c'], delayMs: 150 }, { text: ['a', 'b', 'c'], chunkDelayMs: 40 });
    let started = Date.now();
    const delayed = await post('/v1/messages', anthropicRequest);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await delayed.text();

    started = Date.now();
    const spaced = await post('/v1/messages', anthropicRequest);
    const headersAfter = Date.now() - started;
    const events = parseSse(await spaced.text());
    const total = Date.now() - started;
    expect(headersAfter).toBeLessThan(100);
    // 9 events → 8 gaps of 40 ms.
    expect(events).toHaveLength(9);
    expect(total).toBeGreaterThanOrEqual(8 * 40 - 10);
  });

  test('close() ends keep-alive and in-flight connections promptly', async () => {
    server.push({ text: 'x', delayMs: 5000 });
    const agent = new http.Agent({ keepAlive: true });
    const idle = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/nope`, { method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(idle).toBe(404);
    const inFlight = post('/v1/messages', anthropicRequest).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
    // fetch's TypeError comes from another realm under jest, so match by name.
    expect(await inFlight).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    agent.destroy();
  });
});
