/**
 * The openai SDK is loaded on the first request, never at start-up (≈45 ms to import, and a
 * session may never use this provider). Only types are imported statically.
 */
import type OpenAI from 'openai';
import { ProviderError } from '../../types/index.js';
import type { ProviderSettings } from '../../types/index.js';
import { createNodeFetch, sharedNodeFetch } from '../../sdk/http/node-fetch.js';
import { readableVendorResponses } from '../../sdk/http/vendor-responses.js';
import { vendorLogger } from '../../sdk/vendor-logger.js';
import { usesMaxCompletionTokens } from './request.js';

export type OpenAISdk = typeof import('openai');

let sdkPromise: Promise<OpenAISdk> | undefined;

/** One import for the process; a failed import is retried on the next call. */
export function loadOpenAISdk(): Promise<OpenAISdk> {
  sdkPromise ??= import('openai').catch((error: unknown) => {
    sdkPromise = undefined;
    throw error;
  });
  return sdkPromise;
}

/**
 * Local OpenAI-compatible servers (Ollama, vLLM) need no key, but the SDK refuses to start
 * without one; for them a placeholder is sent. api.openai.com always needs a real key.
 */
const KEYLESS_PLACEHOLDER = 'no-api-key';

export function createOpenAIClient(sdk: OpenAISdk, settings: ProviderSettings): OpenAI {
  const options = {
    // undefined → the SDK's default, which honours OPENAI_BASE_URL
    baseURL: settings.baseUrl,
    // retries are ours (sdk/provider-retry.ts): they yield notices and never repeat streamed text
    maxRetries: 0,
    // node:http instead of Node's undici-based fetch: ≈ 35 ms less before the first request;
    // error bodies of any shape and 200s that are no event stream made readable (vendor-responses.ts)
    fetch: readableVendorResponses(settings.timeoutMs === undefined ? sharedNodeFetch() : createNodeFetch({ idleTimeoutMs: settings.timeoutMs }), 'openai'),
    ...(settings.timeoutMs === undefined ? {} : { timeout: settings.timeoutMs }),
    // the SDK's own log lines never reach the user's terminal (MEWCODE_DEBUG=sdk shows them)
    logger: vendorLogger('openai'),
  };
  const apiKey = settings.apiKey ?? process.env['OPENAI_API_KEY'];
  if (apiKey !== undefined && apiKey !== '') return new sdk.OpenAI({ ...options, apiKey });
  const probe = new sdk.OpenAI({ ...options, apiKey: KEYLESS_PLACEHOLDER });
  if (!usesMaxCompletionTokens(probe.baseURL)) return probe;
  throw new ProviderError(
    'authentication',
    `OpenAI API key missing for provider "${settings.name}": set OPENAI_API_KEY or api_key in the provider configuration`,
  );
}
