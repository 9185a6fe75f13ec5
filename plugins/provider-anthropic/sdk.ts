/**
 * The Anthropic SDK is loaded on the first request, never at start-up (it costs ≈100 ms to
 * import and a session may never use this provider). Only types are imported statically; what is
 * loaded is the part of the SDK the provider uses (vendor.ts).
 */
import type { Anthropic } from './vendor.js';
import type { ProviderSettings } from '../../types/index.js';
import { createNodeFetch, sharedNodeFetch } from '../../sdk/http/node-fetch.js';
import { readableVendorResponses } from '../../sdk/http/vendor-responses.js';
import { vendorLogger } from '../../sdk/vendor-logger.js';

export type AnthropicSdk = typeof import('./vendor.js');

let sdkPromise: Promise<AnthropicSdk> | undefined;

/** One import for the process; a failed import is retried on the next call. */
export function loadAnthropicSdk(): Promise<AnthropicSdk> {
  sdkPromise ??= import('./vendor.js').catch((error: unknown) => {
    sdkPromise = undefined;
    throw error;
  });
  return sdkPromise;
}

export function createAnthropicClient(sdk: AnthropicSdk, settings: ProviderSettings): Anthropic {
  return new sdk.Anthropic({
    // With a bearer token and no key, no x-api-key either (the SDK would read ANTHROPIC_API_KEY).
    ...(settings.authToken !== undefined && settings.apiKey === undefined ? { apiKey: null, authToken: settings.authToken } : { apiKey: settings.apiKey }),
    // undefined → the SDK's default, which honours ANTHROPIC_BASE_URL
    baseURL: settings.baseUrl,
    // retries are ours (sdk/provider-retry.ts): they yield notices and never repeat streamed text
    maxRetries: 0,
    // node:http instead of Node's undici-based fetch: ≈ 35 ms less before the first request;
    // error bodies of any shape and 200s that are no event stream made readable (vendor-responses.ts)
    fetch: readableVendorResponses(settings.timeoutMs === undefined ? sharedNodeFetch() : createNodeFetch({ idleTimeoutMs: settings.timeoutMs }), 'anthropic'),
    ...(settings.timeoutMs === undefined ? {} : { timeout: settings.timeoutMs }),
    // the SDK's own log lines never reach the user's terminal (MEWCODE_DEBUG=sdk shows them)
    logger: vendorLogger('@anthropic-ai/sdk'),
    ...(openTelemetryWanted() ? {} : { openTelemetry: false as const }),
  });
}

/**
 * The SDK traces every request with OpenTelemetry by default: it builds a span's attributes from
 * the request and injects trace context, ≈ 0.3 ms of every turn gap here, even when nothing
 * records them (no tracer provider is registered, so the spans are dropped). Tracing stays the
 * SDK's default when someone can receive it: a plugin registered an OpenTelemetry API in the
 * process (the API's global, keyed by `Symbol.for('opentelemetry.js.api.1')`), or the user set
 * the SDK's own `ANTHROPIC_OPEN_TELEMETRY` variable.
 */
export function openTelemetryWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.ANTHROPIC_OPEN_TELEMETRY !== undefined) return true;
  const registered = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[Symbol.for('opentelemetry.js.api.1')];
  return registered?.trace !== undefined;
}
