/** The Anthropic Messages provider (P1, P3, P6). */
import type { Anthropic } from './vendor.js';
import { keepingPartialUsage, requestSignal, withProviderRetry } from '../../sdk/provider-retry.js';
import type { ModelRequest, Provider, ProviderEvent, ProviderSettings } from '../../types/index.js';
import { ANTHROPIC_LABEL, classifyAnthropicError } from './errors.js';
import { toAnthropicParams } from './request.js';
import { createAnthropicClient, loadAnthropicSdk, type AnthropicSdk } from './sdk.js';
import { AnthropicStreamParser } from './stream-parser.js';

export class AnthropicProvider implements Provider {
  readonly protocol = 'anthropic' as const;
  readonly id: string;
  readonly model: string;
  readonly contextWindow: number;
  readonly #settings: ProviderSettings;
  #sdk: AnthropicSdk | undefined;
  #client: Promise<Anthropic> | undefined;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.id = settings.name;
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    return withProviderRetry({
      label: ANTHROPIC_LABEL,
      maxRetries: this.#settings.maxRetries,
      baseDelayMs: this.#settings.retryBaseDelayMs,
      signal,
      attempt: () => this.#attempt(request, signal),
      classify: (error) =>
        classifyAnthropicError(error, this.#sdk, {
          model: this.model,
          contextWindow: this.contextWindow,
          providerName: this.id,
          baseUrl: this.#settings.baseUrl ?? process.env['ANTHROPIC_BASE_URL'],
        }),
    });
  }

  warm(): void {
    this.#clientForRequest().catch(() => undefined);
  }

  /** One client, however many callers ask first (warm() and the first request may overlap). */
  #clientForRequest(): Promise<Anthropic> {
    this.#client ??= loadAnthropicSdk().then((sdk) => {
      this.#sdk = sdk;
      return createAnthropicClient(sdk, this.#settings);
    }, (error: unknown) => {
      this.#client = undefined; // a later request tries again
      throw error;
    });
    return this.#client;
  }

  #attempt(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const parser = new AnthropicStreamParser();
    return keepingPartialUsage(this.#events(request, signal, parser), parser, signal);
  }

  async *#events(request: ModelRequest, signal: AbortSignal, parser: AnthropicStreamParser): AsyncGenerator<ProviderEvent, void, undefined> {
    const client = await this.#clientForRequest();
    // The raw event stream, not `messages.stream()`: that helper parses every tool call's JSON as
    // it arrives and ends the whole run on JSON the model got wrong, where the loop would have
    // answered that one call with an error result the model can correct (K1). Our parser keeps
    // the raw text.
    const perRequest = requestSignal(signal);
    try {
      const stream = await client.messages.create(toAnthropicParams(request, this.#settings), { signal: perRequest.signal });
      let readToEnd = false;
      try {
        for await (const event of stream) {
          yield* parser.push(event);
        }
        readToEnd = true;
      } finally {
        // Failed or abandoned by the consumer: abort, so the connection is released. A body read to
        // its end has released it already, and an abort there only costs time between turns (the
        // first one builds Node's DOMException machinery, ≈ 1 ms).
        if (!readToEnd) stream.controller.abort();
      }
    } finally {
      perRequest.release();
    }
    // The SDK's stream ends quietly when aborted: a cut-off response must never look complete.
    if (signal.aborted) return;
    yield* parser.finish();
  }
}
