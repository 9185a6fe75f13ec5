// provider-anthropic against raw servers that answer as gateways and proxies do: shapes the
// scripted server never produces.
import { Container } from 'inversify';
import plugin from '../../../plugins/provider-anthropic/index.js';
import { TOKENS } from '../../../types/index.js';
import type { Provider, ProviderFactory, ProviderSettings } from '../../../types/index.js';
import { collect, request } from '../../support/provider-test-helpers.js';
import { anthropicSse, startRawVendorServer, type RawResponse, type RawVendorServer } from '../../support/raw-vendor-server.js';

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
    name: 'claude',
    protocol: 'anthropic',
    model: 'claude-x',
    apiKey: 'k',
    baseUrl: server.url,
    contextWindow: 200_000,
    maxTokens: 1024,
    maxRetries: 0,
    retryBaseDelayMs: 1,
    ...overrides,
  });
}

/** A text answer; `usage` objects as given (a gateway may leave them out). */
function textAnswer(text: string, startUsage?: Record<string, unknown>, endUsage?: Record<string, unknown>, stopReason = 'end_turn'): string {
  return anthropicSse([
    { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, ...(startUsage ? { usage: startUsage } : {}) } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, ...(endUsage ? { usage: endUsage } : {}) },
    { type: 'message_stop' },
  ]);
}

describe('usage a gateway does not report', () => {
  test('no usage anywhere in the stream: no usage event (unknown), not zeros', async () => {
    const p = await provider([{ body: textAnswer('hi') }]);
    expect((await collect(p, request())).map((e) => e.type)).toEqual(['text', 'done']);
  });

  test('reported usage is still a usage event', async () => {
    const p = await provider([{ body: textAnswer('hi', { input_tokens: 12, output_tokens: 1 }, { output_tokens: 3 }) }]);
    const events = await collect(p, request());
    expect(events.find((e) => e.type === 'usage')).toEqual({ type: 'usage', usage: { input: 12, output: 3, cacheWrite: 0, cacheRead: 0 } });
  });
});

describe('answers that are not the API', () => {
  test('an HTML 403 from a proxy is cut to its title and does not blame the API key', async () => {
    const page = `<html><head><title>403 Forbidden - corporate proxy</title></head><body>${'<div>blocked</div>'.repeat(800)}</body></html>`;
    const p = await provider([{ status: 403, headers: { 'content-type': 'text/html' }, body: page }]);
    const error = (await collect(p, request())).find((e) => e.type === 'error')!;
    const message = (error as { error: Error }).error.message;
    expect(message).toContain('403 Forbidden - corporate proxy');
    expect(message.length).toBeLessThan(600);
    expect(message).not.toMatch(/API key/);
  });

  test('a flat error body from a gateway keeps its message; an overflow in its words is prompt_too_long', async () => {
    const p = await provider([{ status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: "This model's maximum context length is 32768 tokens. However, your messages resulted in 40000 tokens." }) }]);
    const error = (await collect(p, request())).find((e) => e.type === 'error') as { error: { kind: string; message: string } };
    expect(error.error.kind).toBe('prompt_too_long');
    expect(error.error.message).toContain('maximum context length is 32768');
  });

  test('a 200 HTML login page says what the server sent and is not retried', async () => {
    const p = await provider([{ headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Log in to the gateway</title>' }], { maxRetries: 3 });
    const events = await collect(p, request());
    expect(events.map((e) => e.type)).toEqual(['error']);
    expect((events[0] as { error: Error }).error.message).toMatch(/text\/html.*Log in to the gateway/);
    expect(server!.bodies).toHaveLength(1);
  });

  test('a complete JSON message from a gateway that ignores `stream` is the answer', async () => {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Whole.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 4, output_tokens: 2 } };
    const p = await provider([{ headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) }]);
    const events = await collect(p, request());
    expect(events.filter((e) => e.type === 'text')).toEqual([{ type: 'text', text: 'Whole.' }]);
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'end_turn' });
  });
});

describe('ANTHROPIC_AUTH_TOKEN', () => {
  test('an auth token is sent as a Bearer Authorization header, without x-api-key', async () => {
    const p = await provider([{ body: textAnswer('hi', { input_tokens: 1, output_tokens: 1 }) }], { apiKey: undefined, authToken: 'tok-123' });
    const saved = process.env['ANTHROPIC_API_KEY'];
    delete process.env['ANTHROPIC_API_KEY'];
    try {
      await collect(p, request());
    } finally {
      if (saved !== undefined) process.env['ANTHROPIC_API_KEY'] = saved;
    }
    expect(server!.headers[0]!['authorization']).toBe('Bearer tok-123');
    expect(server!.headers[0]!['x-api-key']).toBeUndefined();
  });
});
