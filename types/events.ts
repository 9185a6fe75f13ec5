/** The typed progress stream of a run (L6). Events are for the UI; none is stored in history. */
import type { ApprovalRequest } from './permissions.js';
import type { ToolCall, ToolResult, Usage } from './messages.js';

export type AgentEvent =
  | { type: 'iteration'; iteration: number }
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_start'; call: ToolCall }
  /** A running call reported how far it got (an MCP server's progress notifications). */
  | { type: 'tool_progress'; call: ToolCall; progress: ToolProgress }
  | { type: 'tool_end'; call: ToolCall; result: ToolResult; durationMs: number }
  | { type: 'usage'; usage: Usage }
  /** `outputLimit`: the model's answer stopped at its output token limit (max_tokens), so it may be cut off. */
  | { type: 'notice'; message: string; outputLimit?: true }
  | { type: 'approval_request'; request: ApprovalRequest }
  | { type: 'compaction_start'; reason: CompactionReason }
  /** `notice`: what a compaction dropped, when the service reported it (CompactionReport.notice). */
  | { type: 'compaction_end'; reason: CompactionReason; changed: boolean; notice?: string }
  | { type: 'error'; message: string; kind?: string }
  | { type: 'done'; reason: RunEndReason; finalText: string; usage: Usage; iterations: number };

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export type CompactionReason = 'auto' | 'emergency' | 'manual';

/** Why a run ended; every path leaves an assistant message last in history (L5). */
export type RunEndReason =
  | 'completed'
  | 'cancelled'
  | 'error'
  | 'unknown_tools'
  | 'max_iterations'
  | 'blocked'
  /** The model declined (a refusal or content filter): an error, with its explanation. */
  | 'refusal'
  /** A tool call's hook or plugin asked the run to end (RunStop): not an error. */
  | 'stopped';
