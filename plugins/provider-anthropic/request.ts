/**
 * Protocol-neutral request → Anthropic Messages parameters (P3). Pure: no SDK at runtime.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  MessageCreateParamsStreaming,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
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
import { ANTHROPIC_TOOL_CALL_IDS, ToolCallIdMapper } from '../../sdk/tool-call-ids.js';

type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/**
 * Two blocks: `stable` carries the request's ONLY cache breakpoint, so the cached prefix is the
 * tool definitions + stable prompt; `environment` changes per turn and comes after it (K3).
 */
export function toAnthropicSystem(system: SystemPrompt): TextBlockParam[] {
  const blocks: TextBlockParam[] = [];
  if (system.stable !== '') blocks.push({ type: 'text', text: system.stable, cache_control: { type: 'ephemeral' } });
  if (system.environment !== '') blocks.push({ type: 'text', text: system.environment });
  return blocks;
}

/** The full JSON schema, unchanged (the seed sent only properties/required). */
export function toAnthropicTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool.InputSchema,
  }));
}

/**
 * The model's raw argument text as the object Anthropic requires. Malformed JSON was already
 * reported to the model by the tool (P2), so it is sent back as `{}` rather than failing the request.
 */
export function toolInputObject(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function userBlocks(message: UserMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') blocks.push({ type: 'text', text: block.text });
    } else {
      blocks.push({
        type: 'image',
        source: { type: 'base64', media_type: block.mediaType as ImageMediaType, data: block.data },
      });
    }
  }
  return blocks;
}

function assistantBlocks(message: AssistantMessage, providerName: string | undefined, ids: ToolCallIdMapper): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  // Thinking recorded from another configured provider (before a model switch): its signature is
  // not valid here, and the API would reject the request. Left out, like unsigned thinking.
  const ours = (block: { provider?: string }): boolean => block.provider === undefined || providerName === undefined || block.provider === providerName;
  for (const block of message.content) {
    switch (block.type) {
      case 'thinking':
        // A thinking block without a signature (e.g. DeepSeek reasoning kept in history before a
        // switch to this provider) would be rejected by the API; it carries nothing we must echo.
        if (block.signature !== '' && ours(block)) blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        if (ours(block)) blocks.push({ type: 'redacted_thinking', data: block.data });
        break;
      case 'text':
        if (block.text !== '') blocks.push({ type: 'text', text: block.text });
        break;
    }
  }
  for (const call of message.toolCalls) {
    blocks.push({ type: 'tool_use', id: ids.call(call.id), name: call.name, input: toolInputObject(call.input) });
  }
  return blocks;
}

const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * A result with images carries them as image blocks after its text; an image of a type the API
 * does not take, or any image when the model takes none (`images: false`), is described instead.
 */
function toolResultContent(result: ToolResult, imagesAccepted: boolean): ToolResultBlockParam['content'] | undefined {
  if (!result.images || result.images.length === 0) return result.content === '' ? undefined : result.content;
  const parts: (TextBlockParam | ImageBlockParam)[] = result.content === '' ? [] : [{ type: 'text', text: result.content }];
  for (const image of result.images) {
    if (imagesAccepted && ANTHROPIC_IMAGE_TYPES.has(image.mediaType)) {
      parts.push({ type: 'image', source: { type: 'base64', media_type: image.mediaType as ImageMediaType, data: image.data } });
    } else {
      parts.push({ type: 'text', text: describeImage(image, imagesAccepted ? 'the API takes only JPEG, PNG, GIF and WebP' : 'this model is configured without image input') });
    }
  }
  return parts;
}

function toolResultBlocks(message: ToolMessage, imagesAccepted: boolean, ids: ToolCallIdMapper): ContentBlockParam[] {
  return message.results.map((result) => {
    const content = toolResultContent(result, imagesAccepted);
    // An empty content string is left out: the API accepts a result without content.
    return { type: 'tool_result' as const, tool_use_id: ids.result(result.toolCallId), ...(content === undefined ? {} : { content }), is_error: result.isError };
  });
}

function toBlocks(message: Message, providerName: string | undefined, imagesAccepted: boolean, ids: ToolCallIdMapper): { role: 'user' | 'assistant'; content: ContentBlockParam[] } {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: userBlocks(message) };
    case 'assistant':
      return { role: 'assistant', content: assistantBlocks(message, providerName, ids) };
    case 'tool':
      return { role: 'user', content: toolResultBlocks(message, imagesAccepted, ids) };
  }
}

/** The API requires a user message's tool_result blocks to precede its other content. */
function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((b) => b.type === 'tool_result');
  return results.length === 0 ? blocks : [...results, ...blocks.filter((b) => b.type !== 'tool_result')];
}

/**
 * Messages with strictly alternating roles: a tool message becomes one user message of
 * tool_result blocks, adjacent same-role messages merge (tool results + the next prompt become
 * one user message), messages left with no content are dropped, and the reminder joins the last
 * user message or becomes a new one.
 */
export function toAnthropicMessages(messages: readonly Message[], reminder?: string, providerName?: string, imagesAccepted = true): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const append = (role: 'user' | 'assistant', content: ContentBlockParam[]) => {
    if (content.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content: [...content] });
  };
  // Ids recorded from another vendor (after a provider switch) are mapped to ones this API accepts.
  const ids = new ToolCallIdMapper(ANTHROPIC_TOOL_CALL_IDS);
  for (const message of messages) {
    const { role, content } = toBlocks(message, providerName, imagesAccepted, ids);
    append(role, content);
  }
  if (reminder !== undefined && reminder !== '') append('user', [{ type: 'text', text: reminder }]);
  return out.map(({ role, content }) => ({ role, content: role === 'user' ? toolResultsFirst(content) : content }));
}

export function toAnthropicParams(request: ModelRequest, settings: ProviderSettings): MessageCreateParamsStreaming {
  const params: MessageCreateParamsStreaming = {
    stream: true,
    model: settings.model,
    max_tokens: settings.maxTokens,
    messages: toAnthropicMessages(request.messages, request.reminder, settings.name, settings.images !== false),
  };
  const system = toAnthropicSystem(request.system);
  if (system.length > 0) params.system = system;
  if (request.tools.length > 0) params.tools = toAnthropicTools(request.tools);
  // Thinking stays on across tool use: the history carries thinking blocks with their signatures,
  // which is what the API requires for an assistant turn that used tools (the seed turned it off).
  if (settings.thinking?.enabled && thinkingMayStayOn(params.messages)) params.thinking = { type: 'enabled', budget_tokens: settings.thinking.budgetTokens };
  return params;
}

/**
 * With thinking on, the API requires the assistant turn whose tool results are being sent to start
 * with its thinking block. After a switch from another provider in the middle of a tool loop that
 * turn has none, so this one request goes without thinking; the next user prompt turns it back on.
 */
function thinkingMayStayOn(messages: readonly MessageParam[]): boolean {
  const lastAssistant = messages.findLast((message) => message.role === 'assistant');
  if (!lastAssistant || !Array.isArray(lastAssistant.content)) return true;
  const content = lastAssistant.content;
  if (!content.some((block) => block.type === 'tool_use')) return true;
  const first = content[0];
  return first?.type === 'thinking' || first?.type === 'redacted_thinking';
}
