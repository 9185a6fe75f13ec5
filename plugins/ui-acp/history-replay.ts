/**
 * A saved session's history as the `session/update`s an editor replays on `session/load`: what
 * the user sent as user chunks (as the blocks it was sent as), agent messages as chunks, thinking
 * as thought chunks, each tool call as a `tool_call` followed by its result. Nothing is read from
 * disk: an edit's diff is the call's own input.
 *
 * Only what the user sent and what the agent said: the history also holds text MewCode and its
 * plugins wrote in the user's place (a hook's added context, a compaction summary and its
 * recovered context, a stop hook's reason) and notes that end a run (`(Cancelled.)`). The kernel
 * marks the user's prompts (UserMessage.prompt) and its notes (AssistantMessage.note). A session
 * saved before the marks (or the part of one before its first marked prompt) is replayed best
 * effort: each user message's first text block, unless it is a reminder or a compaction summary.
 */
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message, PromptPart, ToolCall, UserMessage } from '../../types/messages.js';
import type { Tool } from '../../types/tools.js';
import { announceToolCall, editDiff, toolResultUpdate } from './tool-calls.js';

export function historyUpdates(messages: readonly Message[], context: { projectRoot: string; homeDir?: string; tool(name: string): Tool | undefined }): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, ToolCall>();
  const firstMarked = messages.findIndex((message) => message.role === 'user' && message.prompt !== undefined);
  for (const [index, message] of messages.entries()) {
    if (message.role === 'user') {
      const marked = firstMarked >= 0 && index >= firstMarked;
      for (const content of marked ? sentBlocks(message) : unmarkedBlocks(message)) updates.push({ sessionUpdate: 'user_message_chunk', content });
    } else if (message.role === 'assistant') {
      if (message.note) continue;
      for (const block of message.content) {
        if (block.type === 'thinking' && block.thinking !== '') updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: block.thinking } });
        if (block.type === 'text' && block.text !== '') updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: block.text } });
      }
      for (const call of message.toolCalls) {
        calls.set(call.id, call);
        updates.push({ sessionUpdate: 'tool_call', ...announceToolCall(call, 'pending', { projectRoot: context.projectRoot, ...(context.homeDir ? { homeDir: context.homeDir } : {}), tool: context.tool(call.name) }) });
      }
    } else {
      for (const result of message.results) {
        const call = calls.get(result.toolCallId);
        if (!call) continue;
        updates.push({ sessionUpdate: 'tool_call_update', ...toolResultUpdate(call, result, replayedDiff(call, context)) });
      }
    }
  }
  return updates;
}

/** A marked prompt's blocks as sent; an unmarked message (written by MewCode or a plugin) has none. */
function sentBlocks(message: UserMessage): ContentBlock[] {
  if (message.prompt === undefined) return [];
  const images: ContentBlock[] = message.content.flatMap((block) => (block.type === 'image' ? [{ type: 'image' as const, data: block.data, mimeType: block.mediaType }] : []));
  if (message.prompt !== true) return [...message.prompt.map(promptBlock).filter((block) => block.type !== 'text' || block.text !== ''), ...images];
  const first = message.content.find((block) => block.type === 'text');
  return [...(first && first.text !== '' ? [{ type: 'text' as const, text: first.text }] : []), ...images];
}

function promptBlock(part: PromptPart): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'resource_link':
      return { type: 'resource_link', uri: part.uri, name: part.name, ...(part.mimeType ? { mimeType: part.mimeType } : {}) };
    case 'resource':
      // Binary content was never kept (the prompt said it was left out): the block names its file.
      return part.text === undefined
        ? { type: 'resource_link', uri: part.uri, name: part.uri.split('/').pop() ?? part.uri, ...(part.mimeType ? { mimeType: part.mimeType } : {}) }
        : { type: 'resource', resource: { uri: part.uri, text: part.text, ...(part.mimeType ? { mimeType: part.mimeType } : {}) } };
  }
}

/**
 * Texts MewCode itself starts a user message with (an injected reminder, the compaction summary):
 * recognised in sessions saved before prompts were marked, so a replay does not show them as typed.
 */
const WRITTEN_BY_MEWCODE = ['<system-reminder>', 'This session continues an earlier conversation'];

/** Best effort for a message saved without marks: its first text block (later ones are hooks' context) and its images. */
function unmarkedBlocks(message: UserMessage): ContentBlock[] {
  const first = message.content.find((block) => block.type === 'text');
  if (first && WRITTEN_BY_MEWCODE.some((start) => first.text.trimStart().startsWith(start))) return [];
  return sentBlocks({ ...message, prompt: true });
}

/**
 * The diff a replayed call shows, from its input alone. A write_file's earlier content is not in
 * the history: a diff without it would show an overwrite as a new file, so the call shows its
 * result text instead. An edit_file shows the text it replaced.
 */
function replayedDiff(call: ToolCall, context: { projectRoot: string; homeDir?: string }) {
  if (call.name === 'write_file') return undefined;
  return editDiff(call, context.projectRoot, undefined, context.homeDir);
}
