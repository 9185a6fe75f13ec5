/**
 * A saved session's history as the `session/update`s an editor replays on `session/load`: user
 * and agent messages as chunks, thinking as thought chunks, each tool call as a `tool_call`
 * followed by its result. Nothing is read from disk: an edit's diff is the call's own input.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message, ToolCall } from '../../types/messages.js';
import type { Tool } from '../../types/tools.js';
import { announceToolCall, editDiff, toolResultUpdate } from './tool-calls.js';

export function historyUpdates(messages: readonly Message[], context: { projectRoot: string; homeDir?: string; tool(name: string): Tool | undefined }): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    if (message.role === 'user') {
      for (const block of message.content) {
        if (block.type === 'text' && block.text !== '') updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: block.text } });
        if (block.type === 'image') updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'image', data: block.data, mimeType: block.mediaType } });
      }
    } else if (message.role === 'assistant') {
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

/**
 * The diff a replayed call shows, from its input alone. A write_file's earlier content is not in
 * the history: a diff without it would show an overwrite as a new file, so the call shows its
 * result text instead. An edit_file shows the text it replaced.
 */
function replayedDiff(call: ToolCall, context: { projectRoot: string; homeDir?: string }) {
  if (call.name === 'write_file') return undefined;
  return editDiff(call, context.projectRoot, undefined, context.homeDir);
}
