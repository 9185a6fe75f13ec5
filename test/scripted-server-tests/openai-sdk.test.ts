// The real OpenAI SDK against the scripted server.
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';

const MODEL = 'gpt-scripted-1';

let server: ScriptedServer;
let client: OpenAI;

beforeEach(async () => {
  server = await startScriptedServer();
  client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
});

async function collect(includeUsage = true): Promise<ChatCompletionChunk[]> {
  const stream = await client.chat.completions.create({
    model: MODEL,
    stream: true,
    ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
    messages: [{ role: 'user', content: 'hello' }],
  });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('OpenAI Chat Completions streaming', () => {
  test('role delta first, then content deltas, finish_reason stop, usage chunk last', async () => {
    const text = 'Hello from the scripted server, streamed in pieces.';
    server.push({ text });
    const chunks = await collect();

    const choiceChunks = chunks.filter((chunk) => chunk.choices.length > 0);
    expect(choiceChunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const content = choiceChunks.map((chunk) => chunk.choices[0]!.delta.content ?? '').join('');
    expect(content).toBe(text);
    expect(choiceChunks.filter((chunk) => chunk.choices[0]!.delta.content).length).toBeGreaterThan(2);
    expect(choiceChunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');

    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 });
    for (const chunk of chunks) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe(MODEL);
      expect(chunk.id).toMatch(/^chatcmpl-[0-9A-Za-z]{29}$/);
      expect(chunk.id).toBe(chunks[0]!.id);
    }
  });

  test('without include_usage there is no usage chunk', async () => {
    server.push({ text: 'hi' });
    const chunks = await collect(false);
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true);
    expect(chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
  });

  test('parallel tool calls: indexed deltas, id/type/name first, split arguments reassemble', async () => {
    const readInput = { path: 'src/some/deeply/nested/file.ts', limit: 200 };
    const grepInput = { pattern: 'fo"o\\bar', note: 'ünïcødé 🐱 text' };
    server.push({
      toolCalls: [
        { name: 'read_file', input: readInput },
        { id: 'call_fixed', name: 'grep', input: grepInput },
      ],
    });
    const chunks = await collect();
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(deltas[0]!.role).toBe('assistant');

    const calls: { id?: string; type?: string; name?: string; args: string; pieces: number }[] = [];
    for (const delta of deltas) {
      for (const call of delta.tool_calls ?? []) {
        const slot = (calls[call.index] ??= { args: '', pieces: 0 });
        if (call.id !== undefined) {
          // Only the first chunk of a call names it.
          expect(slot.id).toBeUndefined();
          slot.id = call.id;
          slot.type = call.type;
          slot.name = call.function?.name;
        } else {
          expect(call.function?.name).toBeUndefined();
          slot.pieces++;
        }
        slot.args += call.function?.arguments ?? '';
      }
    }
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ type: 'function', name: 'read_file' });
    expect(calls[0]!.id).toMatch(/^call_[0-9A-Za-z]{24}$/);
    expect(calls[1]).toMatchObject({ id: 'call_fixed', type: 'function', name: 'grep' });
    expect(JSON.parse(calls[0]!.args)).toEqual(readInput);
    expect(JSON.parse(calls[1]!.args)).toEqual(grepInput);
    expect(calls[0]!.pieces).toBeGreaterThanOrEqual(3);
    expect(calls[1]!.pieces).toBeGreaterThanOrEqual(3);

    const finish = chunks.flatMap((chunk) => chunk.choices).filter((choice) => choice.finish_reason);
    expect(finish.map((choice) => choice.finish_reason)).toEqual(['tool_calls']);
  });

  test('the SDK stream helper assembles text + tool calls into a final completion', async () => {
    server.push({ text: 'Reading.', toolCalls: [{ name: 'read_file', input: { path: 'a.ts' } }] });
    const stream = client.chat.completions.stream({
      model: MODEL,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
    });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(message.content).toBe('Reading.');
    expect(message.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
    ]);
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.usage?.prompt_tokens).toBe(100);
  });

  test('usage maps prompt = input + cacheRead and cached_tokens = cacheRead', async () => {
    server.push({ text: 'ok', usage: { input: 1000, output: 42, cacheRead: 600, cacheWrite: 99 } });
    const chunks = await collect();
    expect(chunks.at(-1)!.usage).toEqual({
      prompt_tokens: 1600,
      completion_tokens: 42,
      total_tokens: 1642,
      prompt_tokens_details: { cached_tokens: 600, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    });
  });

  test('Anthropic-style stop reasons are translated; thinking becomes reasoning_content', async () => {
    server.push({ thinking: { text: 'pondering deeply', signature: 'ignored' }, text: 'cut', stopReason: 'max_tokens' });
    const chunks = await collect();
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta as Record<string, unknown>));
    expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toBe('pondering deeply');
    const finish = chunks.flatMap((chunk) => chunk.choices).find((choice) => choice.finish_reason);
    expect(finish!.finish_reason).toBe('length');
  });

  test('non-streaming create returns the equivalent chat.completion', async () => {
    server.push({ text: 'plain', usage: { input: 5, output: 6 } });
    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(MODEL);
    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'plain' });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
  });
});

describe('OpenAI errors', () => {
  test.each([
    [400, OpenAI.BadRequestError, 'invalid_request_error', null],
    [401, OpenAI.AuthenticationError, 'invalid_request_error', 'invalid_api_key'],
    [404, OpenAI.NotFoundError, 'invalid_request_error', 'model_not_found'],
    [429, OpenAI.RateLimitError, 'requests', 'rate_limit_exceeded'],
    [500, OpenAI.InternalServerError, 'server_error', null],
    [503, OpenAI.InternalServerError, 'server_error', null],
  ])('HTTP %i surfaces as the SDK APIError with the documented body', async (status, errorClass, type, code) => {
    server.push({ httpError: { status } });
    const error = await rejection(collect());
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toBeInstanceOf(errorClass);
    expect(error.status).toBe(status);
    expect(error.error).toEqual({ message: expect.any(String), type, param: null, code });
    expect(error.type).toBe(type);
    expect(error.code).toBe(code);
    expect(error.requestID).toMatch(/^req_/);
  });

  test('prompt too long surfaces as context_length_exceeded', async () => {
    server.push({ promptTooLong: true });
    const error = await rejection(collect());
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('context_length_exceeded');
    expect(error.param).toBe('messages');
    expect(error.message).toContain("This model's maximum context length is 128000 tokens");
  });

  test('retries after 429 are fast and consume the next turn', async () => {
    const retrying = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 3 });
    server.push({ httpError: { status: 429 } }, { httpError: { status: 429 } }, { httpError: { status: 429 } }, { text: 'ok' });
    const started = Date.now();
    const completion = await retrying.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices[0]!.message.content).toBe('ok');
    expect(server.requests).toHaveLength(4);
    // The SDK's own back-off for three retries is at least 2.6 s (0.5, 1 and 2 s, less 25% jitter);
    // the server's retry-after-ms makes them immediate.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('a mid-stream error chunk makes the SDK throw', async () => {
    server.push({ text: 'this will be cut off before the end', streamError: { afterEvents: 2 } });
    const stream = await client.chat.completions.create({
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    const seen: ChatCompletionChunk[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of stream) seen.push(chunk);
      })(),
    );
    expect(seen).toHaveLength(2);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBeUndefined();
    expect(error.error).toMatchObject({ type: 'server_error', message: expect.any(String) });
  });

  test('an exhausted script answers 500 naming the request number', async () => {
    const error = await rejection(collect());
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error.status).toBe(500);
    expect(error.error.message).toBe('scripted server: no scripted turn left for request #1');
  });
});
