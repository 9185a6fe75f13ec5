/** Protocol-neutral conversation types (P2). No vendor shapes leak past a provider plugin. */

export type Role = 'user' | 'assistant' | 'tool';

export interface TextBlock {
  type: 'text';
  text: string;
}

/** Extended thinking, kept in history with its signature so thinking stays on across tool use (P3). */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
  /**
   * The configured provider that produced it (set by the loop). A signature is valid only at
   * that provider, so after a model switch a converter leaves other providers' thinking out.
   * Absent in history written before this was recorded: treated as the current provider's.
   */
  provider?: string;
}

/** Thinking the vendor encrypted; it must be sent back verbatim. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
  /** As ThinkingBlock.provider. */
  provider?: string;
}

export interface ImageBlock {
  type: 'image';
  mediaType: string;
  /** base64 without a data: prefix */
  data: string;
}

export type UserContentBlock = TextBlock | ImageBlock;
export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock;

/** A tool call as the model produced it. `input` is the raw JSON text, never re-serialised (P2). */
export interface ToolCall {
  id: string;
  name: string;
  input: string;
  /**
   * Fields the vendor attached to the call beyond id, name and arguments (Gemini 3's
   * `extra_content.google.thought_signature`), with the configured provider that produced them: the
   * vendor requires them back on the call, and only that provider is sent them.
   */
  vendorFields?: { provider: string; fields: Record<string, unknown> };
}

export interface ToolResult {
  toolCallId: string;
  content: string;
  isError: boolean;
  /**
   * Images the tool returned beside its text (an MCP tool's image content). A provider whose
   * model takes images sends them with the result; otherwise `describeImage` stands in for each.
   */
  images?: ImageBlock[];
  /**
   * A command tool's exit status (ToolOutput.exitCode), from the runner to postToolUse's gate,
   * which moves it to the context (PostToolUseContext.exitCode): never in history or a request.
   */
  exitCode?: number;
  /** A command tool's two streams apart (ToolOutput.streams), carried as `exitCode` is: never in history or a request. */
  streams?: CommandStreams;
}

/** A command's output as its two streams (ToolOutput.streams). */
export interface CommandStreams {
  stdout: string;
  stderr: string;
}

/** What the model is told in place of an image it cannot be shown. */
export function describeImage(image: ImageBlock, why: string): string {
  const kib = ((image.data.length * 3) / 4 / 1024).toFixed(1);
  return `[image: ${image.mediaType}, ${kib} KiB, not shown: ${why}]`;
}

/**
 * One part of a prompt as its sender sent it, before the parts were joined into the prompt's text
 * (an editor's embedded file, a link to a file): kept so a replay shows what was sent.
 */
export type PromptPart =
  | { type: 'text'; text: string }
  | { type: 'resource'; uri: string; text?: string; mimeType?: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string };

export interface UserMessage {
  role: 'user';
  content: UserContentBlock[];
  /**
   * Set on the message a user's prompt made, by the kernel: its first text block (and its images)
   * are what the user sent; later text blocks are context hooks added. `true`, or the prompt's
   * parts as sent when the front end gave them (`RunOptions.promptParts`). Absent on every message
   * MewCode or a plugin wrote (a compaction summary, a stop hook's reason), and in sessions saved
   * before it was recorded: a replay of the conversation shows only what the user sent.
   */
  prompt?: true | PromptPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentBlock[];
  toolCalls: ToolCall[];
  /**
   * A note MewCode wrote to end a run's history (`(Cancelled.)`, a failed request), not the
   * model's answer: the user was told otherwise (a notice, the run's end), so a replay leaves it out.
   */
  note?: true;
}

/** All results of one assistant turn, in the order the model asked for them. */
export interface ToolMessage {
  role: 'tool';
  results: ToolResult[];
}

export type Message = UserMessage | AssistantMessage | ToolMessage;

/** Token usage of one model request (P2). */
export interface Usage {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead,
  };
}

/** Plain text of a message's text blocks (thinking excluded). */
export function messageText(message: Message): string {
  if (message.role === 'tool') return '';
  return message.content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
