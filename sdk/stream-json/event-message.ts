/** An event of a run as its stream-json message (messages.ts); undefined for the main agent's `done`. */
import type { AgentEvent } from '../../types/events.js';
import type { EventMessage } from './messages.js';
import { toClaudeUsage } from './result-message.js';

/** Who an event is about. */
export interface EventSource {
  sessionId: string;
  agentId: string;
  parentAgentId?: string;
  /** A sub-agent's role and label, and its task id when it runs in the background. */
  role?: string;
  description?: string;
  taskId?: string;
}

export function eventMessage(event: AgentEvent, source: EventSource): EventMessage | undefined {
  const base = { session_id: source.sessionId, agent_id: source.agentId, ...(source.parentAgentId ? { parent_agent_id: source.parentAgentId } : {}) };
  switch (event.type) {
    case 'iteration':
      return { type: 'iteration', iteration: event.iteration, ...base };
    case 'text':
      return { type: 'text_delta', text: event.text, ...base };
    case 'thinking':
      return { type: 'thinking_delta', thinking: event.thinking, ...base };
    case 'tool_start':
      return { type: 'tool_use', id: event.call.id, name: event.call.name, input: parseOrRaw(event.call.input), ...base };
    case 'tool_progress':
      return { type: 'tool_progress', tool_use_id: event.call.id, name: event.call.name, progress: event.progress.progress, total: event.progress.total, message: event.progress.message, ...base };
    case 'tool_end':
      return {
        type: 'tool_result',
        tool_use_id: event.result.toolCallId,
        name: event.call.name,
        content: event.result.content,
        is_error: event.result.isError,
        duration_ms: Math.round(event.durationMs),
        ...base,
      };
    case 'usage':
      return { type: 'usage', usage: toClaudeUsage(event.usage), ...base };
    case 'notice':
      return { type: 'notice', message: event.message, ...base };
    case 'approval_request':
      return { type: 'approval_request', tool_name: event.request.toolName, tool_use_id: event.request.toolCallId, reason: event.request.verdict.reason, ...base };
    case 'compaction_start':
      return { type: 'compaction_start', reason: event.reason, ...base };
    case 'compaction_end':
      return { type: 'compaction_end', reason: event.reason, changed: event.changed, ...(event.notice ? { notice: event.notice } : {}), ...base };
    case 'error':
      return { type: 'error', message: event.message, kind: event.kind, ...base };
    case 'done':
      // The main agent's result message closes the stream instead; a sub-agent's end is a message.
      if (!source.parentAgentId) return undefined;
      return {
        type: 'subagent_result',
        subtype: event.reason === 'completed' ? 'success' : 'error',
        is_error: event.reason !== 'completed',
        result: event.finalText,
        stop_reason: event.reason,
        num_turns: event.iterations,
        usage: toClaudeUsage(event.usage),
        ...(source.role ? { subagent_type: source.role } : {}),
        ...(source.description ? { description: source.description } : {}),
        ...(source.taskId ? { task_id: source.taskId } : {}),
        ...base,
      };
  }
}

function parseOrRaw(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
