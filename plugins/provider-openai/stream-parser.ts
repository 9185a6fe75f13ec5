/**
 * OpenAI Chat Completions chunks → ProviderEvents (P1, P4). Deltas are emitted as they
 * arrive; `finish()` yields the tool calls, the usage and `done`.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import { ThinkTagSplitter } from './think-tags.js';
import type { AssistantContentBlock, ProviderEvent, Refusal, ToolCall, Usage } from '../../types/index.js';

/**
 * Fields compatible servers add to a delta: DeepSeek streams its reasoning as `reasoning_content`,
 * OpenRouter, Ollama and newer vLLM as `reasoning` (OpenRouter may send both with the same text).
 */
interface ExtendedDelta extends ChatCompletionChunk.Choice.Delta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/** A tool call fragment as servers really send it: Gemini's OpenAI endpoint omits `index`. */
type ToolCallFragment = Omit<ChatCompletionChunk.Choice.Delta.ToolCall, 'index'> & { index?: number } & Record<string, unknown>;

/** The fragment fields that are the call itself; anything else is vendor metadata kept with it. */
const CALL_FIELDS = new Set(['index', 'id', 'type', 'function']);

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
  /** vendor fields beside the call (Gemini 3's `extra_content`), last value wins */
  fields: Record<string, unknown>;
}

export class OpenAIStreamParser {
  /** text and thinking in order of arrival; consecutive deltas of one kind form one block */
  readonly #blocks: ({ type: 'text'; text: string } | { type: 'thinking'; thinking: string })[] = [];
  /** calls in order of their first fragment */
  readonly #calls: PendingCall[] = [];
  /** the latest call of each streamed `index` */
  readonly #byIndex = new Map<number, PendingCall>();
  readonly #think = new ThinkTagSplitter();
  readonly #providerName: string;
  #usage: Usage = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  #sawUsage = false;
  #finishReason: string | null = null;
  /** The model's `refusal` text (structured outputs), the explanation of a declined answer. */
  #refusalText = '';
  /** Content-filter categories the server marked as filtered (Azure). */
  readonly #filteredCategories: string[] = [];

  /** `providerName`: the configured provider, recorded with vendor fields of its tool calls. */
  constructor(providerName = '') {
    this.#providerName = providerName;
  }

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
    const reasoning = [delta.reasoning_content, delta.reasoning].find((r): r is string => typeof r === 'string' && r !== '');
    if (reasoning !== undefined) events.push(...this.#thinking(reasoning));
    // A model that writes its reasoning into the content between <think> tags (Qwen, Ollama,
    // DeepSeek distills): that part is thinking, never the answer.
    if (typeof delta.content === 'string' && delta.content !== '') {
      for (const part of this.#think.push(delta.content)) events.push(...(part.thinking ? this.#thinking(part.text) : this.#text(part.text)));
    }
    // A refusal is the model's answer in place of content: the user should read it.
    if (typeof delta.refusal === 'string' && delta.refusal !== '') events.push(...this.#text(delta.refusal));
    if (typeof delta.refusal === 'string') this.#refusalText += delta.refusal;
    for (const fragment of (delta.tool_calls ?? []) as ToolCallFragment[]) this.#addFragment(fragment);
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

  #thinking(thinking: string): ProviderEvent[] {
    if (thinking === '') return [];
    this.#appendThinking(thinking);
    return [{ type: 'thinking', thinking }];
  }

  #text(text: string): ProviderEvent[] {
    if (text === '') return [];
    this.#appendText(text);
    return [{ type: 'text', text }];
  }

  /**
   * Which call a fragment continues. Servers differ: OpenAI sends `index` with every fragment and
   * the id with the first; Gemini sends whole calls without `index`; some reuse an index for the
   * next call with a new id, some repeat the id on every fragment, a few give parallel calls one id.
   * So with an index: its call continues unless the fragment brings another id (a new call);
   * without one: the call of that id continues, else a fragment naming a function starts a call and
   * one that does not continues the last call.
   */
  #addFragment(fragment: ToolCallFragment): void {
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : undefined;
    const name = typeof fragment.function?.name === 'string' && fragment.function.name !== '' ? fragment.function.name : undefined;
    const index = typeof fragment.index === 'number' ? fragment.index : undefined;
    let call: PendingCall | undefined;
    if (index !== undefined) {
      const atIndex = this.#byIndex.get(index);
      if (atIndex && (id === undefined || atIndex.id === '' || atIndex.id === id)) call = atIndex;
    } else if (id !== undefined) call = this.#calls.find((c) => c.id === id);
    else if (name === undefined) call = this.#calls.at(-1);
    if (!call) {
      call = { id: id ?? '', name: '', raw: '', fields: {} };
      this.#calls.push(call);
    }
    if (index !== undefined) this.#byIndex.set(index, call);
    if (call.id === '' && id !== undefined) call.id = id;
    if (call.name === '' && name !== undefined) call.name = name;
    call.raw += fragment.function?.arguments ?? '';
    for (const [key, value] of Object.entries(fragment)) if (!CALL_FIELDS.has(key) && value !== undefined && value !== null) call.fields[key] = value;
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
    for (const part of this.#think.end()) part.thinking ? this.#thinking(part.text) : this.#text(part.text);
    // Chat Completions has no thinking signature; the converter never sends thinking back.
    const content: AssistantContentBlock[] = this.#blocks.map((block) =>
      block.type === 'text' ? { type: 'text', text: block.text } : { type: 'thinking', thinking: block.thinking, signature: '' },
    );
    const calls: ToolCall[] = this.#calls.map((call, index) => ({
      // a few compatible servers omit the id; the tool result still needs one to pair with
      id: call.id !== '' ? call.id : `call_${index}_${Math.random().toString(36).slice(2, 10)}`,
      name: call.name,
      input: call.raw === '' ? '{}' : call.raw,
      ...(Object.keys(call.fields).length > 0 ? { vendorFields: { provider: this.#providerName, fields: call.fields } } : {}),
    }));
    const events: ProviderEvent[] = [];
    if (calls.length > 0) events.push({ type: 'tool_calls', calls });
    // A server that reports no usage (llama.cpp, LM Studio, some proxies) sends no usage event:
    // zeros would pass for a measurement and anchor the context estimate at nothing.
    if (this.#sawUsage) events.push({ type: 'usage', usage: { ...this.#usage } });
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
