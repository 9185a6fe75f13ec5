/**
 * OpenAI Chat Completions chunks → ProviderEvents (P1, P4). Deltas are emitted as they
 * arrive; `finish()` yields the tool calls, the usage and `done`.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import type { AssistantContentBlock, ProviderEvent, Refusal, ToolCall, Usage } from '../../types/index.js';

/** Fields compatible servers add to a delta: DeepSeek streams its reasoning as `reasoning_content`. */
interface ExtendedDelta extends ChatCompletionChunk.Choice.Delta {
  reasoning_content?: string | null;
}

/** DeepSeek reports cache hits as `prompt_cache_hit_tokens` instead of `prompt_tokens_details`. */
interface ExtendedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  prompt_cache_hit_tokens?: number;
}

interface PendingCall {
  id: string;
  name: string;
  /** argument fragments concatenated exactly as streamed */
  raw: string;
}

export class OpenAIStreamParser {
  /** text and thinking in order of arrival; consecutive deltas of one kind form one block */
  readonly #blocks: ({ type: 'text'; text: string } | { type: 'thinking'; thinking: string })[] = [];
  readonly #calls = new Map<number, PendingCall>();
  #usage: Usage = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  #sawUsage = false;
  #finishReason: string | null = null;
  /** The model's `refusal` text (structured outputs), the explanation of a declined answer. */
  #refusalText = '';
  /** Content-filter categories the server marked as filtered (Azure). */
  readonly #filteredCategories: string[] = [];

  push(chunk: ChatCompletionChunk): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    if (chunk.usage) {
      this.#usage = mapUsage(chunk.usage as ExtendedUsage);
      this.#sawUsage = true;
    }
    // We ask for one choice (n defaults to 1).
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return events;
    const delta = (choice.delta ?? {}) as ExtendedDelta;
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') {
      this.#appendThinking(delta.reasoning_content);
      events.push({ type: 'thinking', thinking: delta.reasoning_content });
    }
    // A refusal is the model's answer in place of content: the user should read it.
    for (const text of [delta.content, delta.refusal]) {
      if (typeof text === 'string' && text !== '') {
        this.#appendText(text);
        events.push({ type: 'text', text });
      }
    }
    if (typeof delta.refusal === 'string') this.#refusalText += delta.refusal;
    for (const fragment of delta.tool_calls ?? []) {
      const call = this.#calls.get(fragment.index);
      if (!call) {
        this.#calls.set(fragment.index, {
          id: fragment.id ?? '',
          name: fragment.function?.name ?? '',
          raw: fragment.function?.arguments ?? '',
        });
      } else {
        // id and name come with the first fragment; later ones only carry argument text
        if (call.id === '' && fragment.id) call.id = fragment.id;
        if (call.name === '' && fragment.function?.name) call.name = fragment.function.name;
        call.raw += fragment.function?.arguments ?? '';
      }
    }
    this.#noteFilteredCategories(choice as { content_filter_results?: unknown });
    if (choice.finish_reason) this.#finishReason = choice.finish_reason;
    return events;
  }

  /**
   * Azure OpenAI reports its content filter per choice as
   * `content_filter_results: { hate: { filtered, severity }, violence: … }`: the filtered ones name
   * why a `content_filter` stop happened.
   */
  #noteFilteredCategories(choice: { content_filter_results?: unknown }): void {
    const results = choice.content_filter_results;
    if (typeof results !== 'object' || results === null) return;
    for (const [category, verdict] of Object.entries(results)) {
      if ((verdict as { filtered?: unknown } | null)?.filtered === true && !this.#filteredCategories.includes(category)) this.#filteredCategories.push(category);
    }
  }

  #appendText(text: string): void {
    const last = this.#blocks.at(-1);
    if (last?.type === 'text') last.text += text;
    else this.#blocks.push({ type: 'text', text });
  }

  #appendThinking(thinking: string): void {
    const last = this.#blocks.at(-1);
    if (last?.type === 'thinking') last.thinking += thinking;
    else this.#blocks.push({ type: 'thinking', thinking });
  }

  /** What the server has counted so far, for a response that fails before its end (it was billed). */
  usageSoFar(): Usage | undefined {
    return this.#sawUsage ? { ...this.#usage } : undefined;
  }

  /** Whether the server said why it stopped; a stream cut off by a proxy never does. */
  get complete(): boolean {
    return this.#finishReason !== null;
  }

  finish(): ProviderEvent[] {
    // Chat Completions has no thinking signature; the converter never sends thinking back.
    const content: AssistantContentBlock[] = this.#blocks.map((block) =>
      block.type === 'text' ? { type: 'text', text: block.text } : { type: 'thinking', thinking: block.thinking, signature: '' },
    );
    const calls: ToolCall[] = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        // a few compatible servers omit the id; the tool result still needs one to pair with
        id: call.id !== '' ? call.id : `call_${index}_${Math.random().toString(36).slice(2, 10)}`,
        name: call.name,
        input: call.raw === '' ? '{}' : call.raw,
      }));
    const events: ProviderEvent[] = [];
    if (calls.length > 0) events.push({ type: 'tool_calls', calls });
    events.push({ type: 'usage', usage: { ...this.#usage } });
    const stopReason = this.#finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
    // content_filter: the vendor's filter cut the answer; a refusal text alone is the model declining.
    const filtered = stopReason === 'content_filter';
    const refused = filtered || (this.#refusalText.trim() !== '' && calls.length === 0);
    const refusal: Refusal | undefined = refused
      ? {
          ...(filtered ? { by: 'content_filter' as const } : {}),
          ...(filtered && this.#filteredCategories.length > 0 ? { category: this.#filteredCategories.join(', ') } : {}),
          ...(this.#refusalText.trim() === '' ? {} : { explanation: this.#refusalText.trim() }),
        }
      : undefined;
    events.push({ type: 'done', content, stopReason, ...(refusal ? { refusal } : {}) });
    return events;
  }
}

/** prompt_tokens includes the cached part; `input` counts only the uncached tokens. */
export function mapUsage(usage: ExtendedUsage): Usage {
  const prompt = usage.prompt_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  return {
    input: Math.max(0, prompt - cached),
    output: usage.completion_tokens ?? 0,
    cacheWrite: 0,
    cacheRead: cached,
  };
}
