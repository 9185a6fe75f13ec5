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
