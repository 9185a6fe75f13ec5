/** The Anthropic Messages provider (SPEC P1, P3, P6). */
import type Anthropic from '@anthropic-ai/sdk';
import { withProviderRetry } from '../../sdk/provider-retry.js';
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
  #client: Anthropic | undefined;

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
        classifyAnthropicError(error, this.#sdk, { model: this.model, contextWindow: this.contextWindow }),
    });
  }

  async #clientForRequest(): Promise<Anthropic> {
    if (!this.#client) {
      this.#sdk = await loadAnthropicSdk();
      this.#client = createAnthropicClient(this.#sdk, this.#settings);
    }
    return this.#client;
  }

  async *#attempt(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent, void, undefined> {
    const client = await this.#clientForRequest();
    const stream = client.messages.stream(toAnthropicParams(request, this.#settings), { signal });
    const parser = new AnthropicStreamParser();
    try {
      for await (const event of stream) {
        yield* parser.push(event);
      }
      // The MessageStream iterator can end quietly when an error (or abort) arrives while no read
      // is pending; `done()` rejects with that error.
      await stream.done();
    } finally {
      // The consumer stopped early (or we failed): release the connection.
      if (!stream.ended) stream.abort();
    }
    // A cut-off response must never look complete.
    if (signal.aborted) return;
    yield* parser.finish();
  }
}
