/**
 * Protocol-neutral request → OpenAI Chat Completions parameters (P4). Pure: no SDK at runtime.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions/completions';
import type {
  AssistantMessage,
  Message,
  ModelRequest,
  ProviderSettings,
  SystemPrompt,
  ToolDefinition,
  ToolMessage,
  ToolResult,
  UserMessage,
} from '../../types/index.js';
import { describeImage } from '../../types/index.js';
import { MISTRAL_TOOL_CALL_IDS, OPENAI_TOOL_CALL_IDS, ToolCallIdMapper, type ToolCallIdRule } from '../../sdk/tool-call-ids.js';

/**
 * One system message. Compatible endpoints disagree about several system messages (some keep
 * only the first, some reject them), and OpenAI's automatic prefix cache still covers `stable`
 * because it comes first.
 */
export function toOpenAISystem(system: SystemPrompt): ChatCompletionMessageParam[] {
  const text = [system.stable, system.environment].filter((part) => part !== '').join('\n\n');
  return text === '' ? [] : [{ role: 'system', content: text }];
}

export function toOpenAITools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/**
 * Plain string content unless the message has images: text-only content parts are not accepted
 * by every compatible endpoint, so several text blocks are joined with a blank line.
 */
function userMessage(message: UserMessage): ChatCompletionMessageParam | undefined {
  const hasImage = message.content.some((block) => block.type === 'image');
  if (!hasImage) {
    const text = message.content
      .map((block) => (block.type === 'text' ? block.text : ''))
      .filter((t) => t !== '')
      .join('\n\n');
    return text === '' ? undefined : { role: 'user', content: text };
  }
  const parts: ChatCompletionContentPart[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') parts.push({ type: 'text', text: block.text });
    } else {
      parts.push({ type: 'image_url', image_url: { url: `data:${block.mediaType};base64,${block.data}` } });
    }
  }
  return { role: 'user', content: parts };
}

/** How one request writes its history: fixed per request, shared by every message. */
interface Conversion {
  imagesAccepted: boolean;
  /** Send the model's reasoning back as `reasoning_content` (DeepSeek's thinking mode requires it in a tool loop). */
  reasoningContent: boolean;
  ids: ToolCallIdMapper;
  /** The configured provider this request goes to: only its own calls get their vendor fields back. */
  providerName: string | undefined;
}

/** Chat Completions has no standard field for thinking: it goes back only as `reasoning_content`, where the server wants it. */
function assistantMessage(message: AssistantMessage, conversion: Conversion): ChatCompletionMessageParam | undefined {
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  const reasoning = message.content.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
  // A turn with tool calls always carries the field (empty when its reasoning came from no
  // reasoning model, e.g. before a provider switch): the server checks that it is present.
  const withReasoning = conversion.reasoningContent && (reasoning !== '' || message.toolCalls.length > 0) ? { reasoning_content: reasoning } : {};
  if (message.toolCalls.length === 0) {
    return text === '' ? undefined : ({ role: 'assistant', content: text, ...withReasoning } as ChatCompletionMessageParam);
  }
  return {
    role: 'assistant',
    content: text === '' ? null : text,
    ...withReasoning,
    tool_calls: message.toolCalls.map((call) => ({
      id: conversion.ids.call(call.id),
      type: 'function' as const,
      // the raw text the model produced, never re-serialised (P2)
      function: { name: call.name, arguments: call.input },
      // Gemini 3 rejects a tool loop whose calls lack their `extra_content.google.thought_signature`;
      // another server may reject fields it does not know, so they go back only where they came from.
      ...(call.vendorFields && call.vendorFields.provider === conversion.providerName ? call.vendorFields.fields : {}),
    })),
  } as ChatCompletionMessageParam;
}

/**
 * The `tool` role has no error flag. A failed result is prefixed with "Error: " so the model
 * cannot mistake it for output, unless its text already starts with "error".
 */
export function toolResultContent(result: ToolResult): string {
  if (!result.isError || /^\s*error\b/i.test(result.content)) return result.content;
  return `Error: ${result.content}`;
}

function toMessages(message: Message, conversion: Conversion): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'user': {
      const converted = userMessage(message);
      return converted ? [converted] : [];
    }
    case 'assistant': {
      const converted = assistantMessage(message, conversion);
      return converted ? [converted] : [];
    }
    case 'tool':
      return toolMessages(message, conversion);
  }
}

/**
 * A `tool` message carries text only. Images a tool returned follow the batch's tool messages as
 * one user message of image parts, each introduced by the call it came from (the API requires
 * every tool message to follow its assistant turn directly, so they cannot come between them).
 * When the model takes no images (`images: false`), each is described in its result instead.
 */
function toolMessages(message: ToolMessage, conversion: Conversion): ChatCompletionMessageParam[] {
  const { imagesAccepted } = conversion;
  const out: ChatCompletionMessageParam[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const result of message.results) {
    const toolCallId = conversion.ids.result(result.toolCallId);
    const images = result.images ?? [];
    let content = toolResultContent(result);
    if (images.length > 0 && !imagesAccepted) {
      content = [content, ...images.map((image) => describeImage(image, 'this model is configured without image input'))].filter((t) => t !== '').join('\n');
    } else if (images.length > 0) {
      content = [content, `(${images.length === 1 ? 'an image follows' : `${images.length} images follow`} in the next message)`].filter((t) => t !== '').join('\n');
      parts.push({ type: 'text', text: `Image${images.length === 1 ? '' : 's'} returned by tool call ${toolCallId}:` });
      for (const image of images) parts.push({ type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } });
    }
    out.push({ role: 'tool', tool_call_id: toolCallId, content });
  }
  if (parts.length > 0) out.push({ role: 'user', content: parts });
  return out;
}

export function toOpenAIMessages(
  request: ModelRequest,
  imagesAccepted = true,
  reasoningContent = false,
  providerName?: string,
  idRule: ToolCallIdRule = OPENAI_TOOL_CALL_IDS,
): ChatCompletionMessageParam[] {
  // Ids recorded from another vendor (after a provider switch) are mapped to ones this API accepts.
  const conversion: Conversion = { imagesAccepted, reasoningContent, ids: new ToolCallIdMapper(idRule), providerName };
  const messages = [...toOpenAISystem(request.system), ...request.messages.flatMap((message) => toMessages(message, conversion))];
  // Chat Completions accepts consecutive user messages, so the reminder simply goes last.
  if (request.reminder !== undefined && request.reminder !== '') {
    messages.push({ role: 'user', content: request.reminder });
  }
  return messages;
}

/**
 * api.openai.com rejects `max_tokens` for reasoning models (o-series, gpt-5) and wants
 * `max_completion_tokens`; most compatible servers (vLLM, Ollama, DeepSeek, older proxies) only
 * know `max_tokens`. The choice follows the endpoint the client actually talks to.
 */
export function usesMaxCompletionTokens(baseURL: string): boolean {
  return isOpenAIHost(baseURL);
}

/** Mistral's models, on its API or served by vLLM with the Mistral tokenizer, which checks ids the same way. */
const MISTRAL_MODEL = /mistral|mixtral|codestral|devstral|magistral|ministral|pixtral/i;

/** Mistral accepts only 9-character alphanumeric tool call ids (400 otherwise); other servers the OpenAI rule. */
export function toolCallIdRule(settings: Pick<ProviderSettings, 'model'>, baseURL: string): ToolCallIdRule {
  let host = '';
  try {
    host = new URL(baseURL).hostname;
  } catch {
    // no host: the model name decides
  }
  return host.endsWith('mistral.ai') || MISTRAL_MODEL.test(settings.model) ? MISTRAL_TOOL_CALL_IDS : OPENAI_TOOL_CALL_IDS;
}

/** Model names of OpenAI's reasoning models (o1, o3-mini, o4-mini, gpt-5…), whatever the deployment is called. */
const REASONING_MODEL = /^(o\d|gpt-5)/i;

/**
 * Which field carries the output limit. The provider entry decides when it says
 * (`max_completion_tokens: true|false`); else api.openai.com gets `max_completion_tokens`, and so
 * does Azure OpenAI when the deployment reasons (thinking on, or an o-series / gpt-5 model): Azure's
 * reasoning deployments reject `max_tokens` as api.openai.com does.
 */
export function sendsMaxCompletionTokens(settings: Pick<ProviderSettings, 'model' | 'thinking' | 'maxCompletionTokens'>, baseURL: string): boolean {
  if (settings.maxCompletionTokens !== undefined) return settings.maxCompletionTokens;
  if (usesMaxCompletionTokens(baseURL)) return true;
  return isAzureHost(baseURL) && (settings.thinking?.enabled === true || REASONING_MODEL.test(settings.model));
}

function isAzureHost(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host.endsWith('.openai.azure.com') || host.endsWith('.cognitiveservices.azure.com') || host.endsWith('.services.ai.azure.com');
  } catch {
    return false;
  }
}

export function isOpenAIHost(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

export function toOpenAIParams(
  request: ModelRequest,
  settings: ProviderSettings,
  baseURL: string,
): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: settings.model,
    messages: toOpenAIMessages(request, settings.images !== false, sendsReasoningContent(settings), settings.name, toolCallIdRule(settings, baseURL)),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (sendsMaxCompletionTokens(settings, baseURL)) params.max_completion_tokens = settings.maxTokens;
  else params.max_tokens = settings.maxTokens;
  if (request.tools.length > 0) params.tools = toOpenAITools(request.tools);
  Object.assign(params, thinkingParams(settings, baseURL));
  return params;
}

/**
 * Models that require their `reasoning_content` back on the assistant turns of a tool loop
 * (DeepSeek's thinking mode answers 400 "Missing `reasoning_content` field" otherwise; Kimi's
 * thinking models likewise). Other servers may reject the unknown field (Groq does), so it is sent
 * only to these unless the provider entry says `reasoning_content: true`.
 */
const MODELS_NEEDING_REASONING_CONTENT = /^deepseek-reasoner$|deepseek-v3\.[1-9]|kimi-k2[.-].*thinking|kimi-k2\.5/i;

export function sendsReasoningContent(settings: Pick<ProviderSettings, 'model' | 'reasoningContent'>): boolean {
  return settings.reasoningContent ?? MODELS_NEEDING_REASONING_CONTENT.test(settings.model);
}

/**
 * `thinking:` of the provider entry, in the server's terms: Qwen (DashScope) takes
 * `enable_thinking` with a token budget; OpenAI and most compatible servers (Azure, Groq, xAI,
 * vLLM, Ollama) take `reasoning_effort`, for which the budget picks a level.
 */
export function thinkingParams(settings: Pick<ProviderSettings, 'model' | 'thinking'>, baseURL: string): Record<string, unknown> {
  const thinking = settings.thinking;
  if (!thinking?.enabled) return {};
  if (isDashScope(baseURL) || /^qwen/i.test(settings.model)) return { enable_thinking: true, thinking_budget: thinking.budgetTokens };
  return { reasoning_effort: reasoningEffort(thinking.budgetTokens) };
}

export function reasoningEffort(budgetTokens: number): 'low' | 'medium' | 'high' {
  if (budgetTokens <= 4_096) return 'low';
  if (budgetTokens <= 16_384) return 'medium';
  return 'high';
}

function isDashScope(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname.includes('dashscope');
  } catch {
    return false;
  }
}
