/** The OpenAI Chat Completions provider, for api.openai.com and compatible endpoints (P1, P4, P6). */
import type OpenAI from 'openai';
import { keepingPartialUsage, requestSignal, withProviderRetry } from '../../sdk/provider-retry.js';
import { ProviderError } from '../../types/index.js';
import type { ModelRequest, Provider, ProviderEvent, ProviderSettings } from '../../types/index.js';
import { classifyOpenAIError } from './errors.js';
import { toOpenAIParams } from './request.js';
import { createOpenAIClient, loadOpenAISdk, type OpenAISdk } from './sdk.js';
import { OpenAIStreamParser } from './stream-parser.js';

export class OpenAIProvider implements Provider {
  readonly protocol = 'openai' as const;
  readonly id: string;
  readonly model: string;
  readonly contextWindow: number;
  readonly #settings: ProviderSettings;
  readonly #label: string;
  #sdk: OpenAISdk | undefined;
  #client: Promise<OpenAI> | undefined;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.id = settings.name;
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.#label = settings.baseUrl === undefined ? 'OpenAI API' : `OpenAI-compatible API "${settings.name}"`;
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    return withProviderRetry({
      label: this.#label,
      maxRetries: this.#settings.maxRetries,
      baseDelayMs: this.#settings.retryBaseDelayMs,
      signal,
      attempt: () => this.#attempt(request, signal),
      classify: (error) =>
        classifyOpenAIError(error, this.#sdk, {
          label: this.#label,
          model: this.model,
          contextWindow: this.contextWindow,
          providerName: this.id,
          baseUrl: this.#settings.baseUrl ?? process.env['OPENAI_BASE_URL'],
        }),
    });
  }

  warm(): void {
    this.#clientForRequest().catch(() => undefined);
  }

  /** One client, however many callers ask first (warm() and the first request may overlap). */
  #clientForRequest(): Promise<OpenAI> {
    this.#client ??= loadOpenAISdk().then((sdk) => {
      this.#sdk = sdk;
      return createOpenAIClient(sdk, this.#settings);
    }, (error: unknown) => {
      this.#client = undefined; // a later request tries again
      throw error;
    });
    return this.#client;
  }

  #attempt(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const parser = new OpenAIStreamParser(this.id);
    return keepingPartialUsage(this.#events(request, signal, parser), parser, signal);
  }

  async *#events(request: ModelRequest, signal: AbortSignal, parser: OpenAIStreamParser): AsyncGenerator<ProviderEvent, void, undefined> {
    const client = await this.#clientForRequest();
    const perRequest = requestSignal(signal);
    try {
      const stream = await client.chat.completions.create(toOpenAIParams(request, this.#settings, client.baseURL), { signal: perRequest.signal });
      for await (const chunk of stream) {
        yield* parser.push(chunk);
      }
    } finally {
      perRequest.release();
    }
    // The SDK's stream ends quietly when aborted: a cut-off response must not look complete.
    if (signal.aborted) return;
    // Without a finish_reason the body ended early (the SDK does not notice): partial text or
    // tool-call JSON must not pass for a complete answer. Thrown errors are classified and,
    // when nothing was shown yet, retried.
    if (!parser.complete) throw new ProviderError('network', `${this.#label}: the response stream ended before the model finished (no finish_reason)`);
    yield* parser.finish();
  }
}
