/**
 * The run's result message in Claude Code's `--output-format json` shape, so existing scripts
 * work: {type, subtype, is_error, result, num_turns, duration_ms, duration_api_ms, session_id, usage{…}}.
 */
import type { AgentEvent, RunEndReason } from '../../types/events.js';
import { addUsage, emptyUsage, type Usage } from '../../types/messages.js';
import type { ClaudeUsage, ResultMessage } from './messages.js';

export function toClaudeUsage(usage: Usage): ClaudeUsage {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
}

/**
 * A run that completed, or that a hook stopped (`continue: false`): Claude Code ends such a run
 * as it ends any, not as a failure (exit 0, `is_error: false`); `stop_reason` tells them apart.
 */
export function endedWell(reason: RunEndReason): boolean {
  return reason === 'completed' || reason === 'stopped';
}

/**
 * The result of a run that failed before it started (no API key, no model, a session that cannot
 * be continued): Claude Code's error shape, no turn taken, no session.
 */
export function startFailedResult(message: string, durationMs: number): Record<string, unknown> {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    result: message,
    stop_reason: 'error',
    num_turns: 0,
    duration_ms: Math.round(durationMs),
    duration_api_ms: 0,
    usage: toClaudeUsage(emptyUsage()),
  };
}

export function resultMessage(
  done: Extract<AgentEvent, { type: 'done' }>,
  lastError: string | undefined,
  meta: { sessionId: string; model: string; durationMs: number; apiDurationMs?: number; subagentUsage?: ReadonlyMap<string, Usage> },
): ResultMessage {
  const byAgent = new Map<string, Usage>([['main', done.usage], ...(meta.subagentUsage ?? [])]);
  const total = [...byAgent.values()].reduce(addUsage, emptyUsage());
  const isError = !endedWell(done.reason);
  return {
    type: 'result',
    subtype: !isError ? 'success' : done.reason === 'max_iterations' ? 'error_max_turns' : 'error_during_execution',
    is_error: isError,
    result: done.reason === 'error' && lastError ? lastError : done.finalText,
    stop_reason: done.reason,
    num_turns: done.iterations,
    duration_ms: Math.round(meta.durationMs),
    duration_api_ms: Math.round(meta.apiDurationMs ?? 0),
    session_id: meta.sessionId,
    model: meta.model,
    usage: toClaudeUsage(total),
    usage_by_agent: Object.fromEntries([...byAgent].map(([agent, usage]) => [agent, toClaudeUsage(usage)])),
  };
}
