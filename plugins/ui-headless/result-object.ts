/**
 * The final result in Claude Code's `--output-format json` shape, so existing scripts work:
 * {type, subtype, is_error, result, num_turns, duration_ms, session_id, usage{…}}.
 */
import type { AgentEvent, RunEndReason } from '../../types/events.js';
import { addUsage, emptyUsage, type Usage } from '../../types/messages.js';

export interface ResultObject {
  type: 'result';
  subtype: 'success' | 'error_max_turns' | 'error_during_execution';
  is_error: boolean;
  result: string;
  stop_reason: RunEndReason;
  num_turns: number;
  duration_ms: number;
  session_id: string;
  model: string;
  /** Every agent's tokens together: the main agent's and its sub-agents'. */
  usage: ClaudeUsage;
  /** Per agent (`main`, and each sub-agent that ran during the prompt). */
  usage_by_agent: Record<string, ClaudeUsage>;
}

export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function toClaudeUsage(usage: Usage): ClaudeUsage {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
}

export function buildResult(
  done: Extract<AgentEvent, { type: 'done' }>,
  lastError: string | undefined,
  meta: { sessionId: string; model: string; durationMs: number; subagentUsage?: ReadonlyMap<string, Usage> },
): ResultObject {
  const byAgent = new Map<string, Usage>([['main', done.usage], ...(meta.subagentUsage ?? [])]);
  const total = [...byAgent.values()].reduce(addUsage, emptyUsage());
  const isError = done.reason !== 'completed';
  return {
    type: 'result',
    subtype: done.reason === 'completed' ? 'success' : done.reason === 'max_iterations' ? 'error_max_turns' : 'error_during_execution',
    is_error: isError,
    result: done.reason === 'error' && lastError ? lastError : done.finalText,
    stop_reason: done.reason,
    num_turns: done.iterations,
    duration_ms: Math.round(meta.durationMs),
    session_id: meta.sessionId,
    model: meta.model,
    usage: toClaudeUsage(total),
    usage_by_agent: Object.fromEntries([...byAgent].map(([agent, usage]) => [agent, toClaudeUsage(usage)])),
  };
}
