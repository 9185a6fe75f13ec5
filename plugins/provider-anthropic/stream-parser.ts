/**
 * Anthropic raw stream events → ProviderEvents (P1, P3). Deltas are emitted as they arrive;
 * `finish()` yields the tool calls, the usage and `done` once the message is complete.
 */
import type {
  ContentBlock,
  RawContentBlockDelta,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { ProviderError } from '../../types/index.js';
import type { AssistantContentBlock, ProviderEvent, Refusal, ToolCall, Usage } from '../../types/index.js';

type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  /** `raw` is the argument JSON exactly as the model streamed it. */
  | { type: 'tool_use'; id: string; name: string; raw: string }
  /** Server tools and future block types: not ours to keep. */
  | { type: 'ignored' };

export class AnthropicStreamParser {
  readonly #blocks: Block[] = [];
  readonly #usage: Usage = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  #stopReason: string | null = null;
  #refusal: Refusal | undefined;
  #sawUsage = false;
  #complete = false;

  /** Feeds one raw event; returns the deltas it produced. */
  push(event: RawMessageStreamEvent): ProviderEvent[] {
    switch (event.type) {
      case 'message_start': {
        // Gateways drop `usage` now and then: the turn goes on, and its usage is unknown (no usage
        // event) unless a count arrives, never zeros that would pass for a measurement.
        const usage = event.message.usage as Partial<typeof event.message.usage> | undefined;
        if (typeof usage?.input_tokens === 'number' || typeof usage?.output_tokens === 'number') this.#sawUsage = true;
        this.#usage.input = usage?.input_tokens ?? 0;
        this.#usage.output = usage?.output_tokens ?? 0;
        this.#usage.cacheWrite = usage?.cache_creation_input_tokens ?? 0;
        this.#usage.cacheRead = usage?.cache_read_input_tokens ?? 0;
        return [];
      }
      case 'content_block_start':
        return this.#startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.#delta(event.index, event.delta);
      case 'content_block_stop':
        return [];
      case 'message_delta': {
        this.#stopReason = event.delta.stop_reason ?? this.#stopReason;
        const details = event.delta.stop_details;
        if (details?.type === 'refusal') this.#refusal = withoutNulls({ category: details.category, explanation: details.explanation });
        const usage = event.usage as Partial<typeof event.usage> | undefined;
        if (!usage) return [];
        if (typeof usage.input_tokens === 'number' || typeof usage.output_tokens === 'number') this.#sawUsage = true;
        // message_delta carries the final output count; the other counters are cumulative totals
        // that appear only when they apply, so they overwrite and never add.
        this.#usage.output = usage.output_tokens ?? this.#usage.output;
        if (usage.input_tokens != null) this.#usage.input = usage.input_tokens;
        if (usage.cache_creation_input_tokens != null) this.#usage.cacheWrite = usage.cache_creation_input_tokens;
        if (usage.cache_read_input_tokens != null) this.#usage.cacheRead = usage.cache_read_input_tokens;
        return [];
      }
      case 'message_stop':
        this.#complete = true;
        return [];
      default:
        return [];
    }
  }

  #startBlock(index: number, block: ContentBlock): ProviderEvent[] {
    switch (block.type) {
      case 'text':
        this.#blocks[index] = { type: 'text', text: block.text };
        return block.text === '' ? [] : [{ type: 'text', text: block.text }];
      case 'thinking':
        this.#blocks[index] = { type: 'thinking', thinking: block.thinking, signature: block.signature };
        return block.thinking === '' ? [] : [{ type: 'thinking', thinking: block.thinking }];
      case 'redacted_thinking':
        this.#blocks[index] = { type: 'redacted_thinking', data: block.data };
        return [];
      case 'tool_use':
        this.#blocks[index] = { type: 'tool_use', id: block.id, name: block.name, raw: '' };
        return [];
      default:
        this.#blocks[index] = { type: 'ignored' };
        return [];
    }
  }

  #delta(index: number, delta: RawContentBlockDelta): ProviderEvent[] {
    const block = this.#blocks[index];
    if (!block) return [];
    switch (delta.type) {
      case 'text_delta':
        if (block.type !== 'text' || delta.text === '') return [];
        block.text += delta.text;
        return [{ type: 'text', text: delta.text }];
      case 'thinking_delta':
        if (block.type !== 'thinking' || delta.thinking === '') return [];
        block.thinking += delta.thinking;
        return [{ type: 'thinking', thinking: delta.thinking }];
      case 'signature_delta':
        if (block.type === 'thinking') block.signature = delta.signature;
        return [];
      case 'input_json_delta':
        if (block.type === 'tool_use') block.raw += delta.partial_json;
        return [];
      default:
        return [];
    }
  }

  /** What the server has counted so far, for a response that fails before its end (it was billed). */
  usageSoFar(): Usage | undefined {
    return this.#sawUsage ? { ...this.#usage } : undefined;
  }

  /** The closing events. Throws a `network` ProviderError if the stream stopped before message_stop. */
  finish(): ProviderEvent[] {
    if (!this.#complete) {
      throw new ProviderError('network', 'Anthropic API stream ended before the message was complete');
    }
    const content: AssistantContentBlock[] = [];
    const calls: ToolCall[] = [];
    for (const block of this.#blocks) {
      if (!block) continue;
      switch (block.type) {
        case 'text':
          if (block.text !== '') content.push({ type: 'text', text: block.text });
          break;
        case 'thinking':
          content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
          break;
        case 'redacted_thinking':
          content.push({ type: 'redacted_thinking', data: block.data });
          break;
        case 'tool_use':
          calls.push({ id: block.id, name: block.name, input: block.raw === '' ? '{}' : block.raw });
          break;
        case 'ignored':
          break;
      }
    }
    const events: ProviderEvent[] = [];
    if (calls.length > 0) events.push({ type: 'tool_calls', calls });
    if (this.#sawUsage) events.push({ type: 'usage', usage: { ...this.#usage } });
    const stopReason = this.#stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn');
    const refusal = stopReason === 'refusal' ? (this.#refusal ?? {}) : undefined;
    events.push({ type: 'done', content, stopReason, ...(refusal ? { refusal } : {}) });
    return events;
  }
}

function withoutNulls(details: { category: string | null; explanation: string | null }): Refusal {
  return { ...(details.category ? { category: details.category } : {}), ...(details.explanation ? { explanation: details.explanation } : {}) };
}
