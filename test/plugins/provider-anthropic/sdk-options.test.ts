/**
 * The options MewCode gives the Anthropic SDK's client: OpenTelemetry tracing (which costs time in
 * every turn gap) is off unless something in the process can receive it.
 */
import { createAnthropicClient, loadAnthropicSdk, openTelemetryWanted } from '../../../plugins/provider-anthropic/sdk.js';
import type { ProviderSettings } from '../../../types/index.js';

const OTEL_KEY = Symbol.for('opentelemetry.js.api.1');
const settings: ProviderSettings = { name: 'anthropic', protocol: 'anthropic', model: 'claude-test', apiKey: 'test-key', baseUrl: 'http://127.0.0.1:9', contextWindow: 200_000, maxTokens: 1024 } as ProviderSettings;
const globals = globalThis as unknown as Record<symbol, unknown>;

afterEach(() => {
  delete globals[OTEL_KEY];
  delete process.env.ANTHROPIC_OPEN_TELEMETRY;
});

test('tracing is off when no tracer provider is registered and the SDK variable is unset', async () => {
  expect(openTelemetryWanted({})).toBe(false);
  const client = createAnthropicClient(await loadAnthropicSdk(), settings);
  expect(client.openTelemetry.traces.enabled).toBe(false);
});

test('a registered OpenTelemetry API (a plugin set a tracer provider) keeps the SDK default: on', async () => {
  globals[OTEL_KEY] = { version: '1.9.0', trace: { getTracer: () => undefined } };
  expect(openTelemetryWanted({})).toBe(true);
  const client = createAnthropicClient(await loadAnthropicSdk(), settings);
  expect(client.openTelemetry.traces.enabled).toBe(true);
});

test('the API registered without a tracer provider (only diag, say) does not count', () => {
  globals[OTEL_KEY] = { version: '1.9.0', diag: {} };
  expect(openTelemetryWanted({})).toBe(false);
});

test('ANTHROPIC_OPEN_TELEMETRY leaves the choice to the SDK, which reads it', async () => {
  expect(openTelemetryWanted({ ANTHROPIC_OPEN_TELEMETRY: 'true' })).toBe(true);
  process.env.ANTHROPIC_OPEN_TELEMETRY = 'false';
  const off = createAnthropicClient(await loadAnthropicSdk(), settings);
  expect(off.openTelemetry.traces.enabled).toBe(false);
  process.env.ANTHROPIC_OPEN_TELEMETRY = 'true';
  const on = createAnthropicClient(await loadAnthropicSdk(), settings);
  expect(on.openTelemetry.traces.enabled).toBe(true);
});
