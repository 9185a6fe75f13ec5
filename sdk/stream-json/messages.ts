/**
 * The messages of a run, as `--output-format stream-json` prints them (one per line) and the
 * programmatic API's `query()` yields them: one schema, documented in docs/stream-json.md. Keys are
 * snake_case like Claude Code's. Every message but `system` and `result` says which agent it is
 * about (`agent_id`: `main` or a sub-agent's id, and for a sub-agent `parent_agent_id`).
 */
import type { CompactionReason, RunEndReason } from '../../types/events.js';
import type { ClaudePermissionMode } from '../claude-permission-mode.js';

/** Who a message is about. */
export interface AgentFields {
  session_id: string;
  agent_id: string;
  parent_agent_id?: string;
}

export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** First message of every run. */
export interface SystemInitMessage {
  type: 'system';
  subtype: 'init';
  session_id: string;
  cwd: string;
  model: string;
  /** Claude Code's spelling: a default-mode run under --permission-mode dontAsk is `dontAsk`. */
  permission_mode: ClaudePermissionMode;
  mewcode_version: string;
}

export interface IterationMessage extends AgentFields {
  type: 'iteration';
  iteration: number;
}
export interface TextDeltaMessage extends AgentFields {
  type: 'text_delta';
  text: string;
}
export interface ThinkingDeltaMessage extends AgentFields {
  type: 'thinking_delta';
  thinking: string;
}
export interface ToolUseMessage extends AgentFields {
  type: 'tool_use';
  id: string;
  name: string;
  /** The call's arguments, parsed; the raw text when they are not JSON. */
  input: unknown;
}
export interface ToolProgressMessage extends AgentFields {
  type: 'tool_progress';
  tool_use_id: string;
  name: string;
  progress: number;
  total: number | undefined;
  message: string | undefined;
}
export interface ToolResultMessage extends AgentFields {
  type: 'tool_result';
  tool_use_id: string;
  name: string;
  content: unknown;
  is_error: boolean;
  duration_ms: number;
}
export interface UsageMessage extends AgentFields {
  type: 'usage';
  usage: ClaudeUsage;
}
export interface NoticeMessage extends AgentFields {
  type: 'notice';
  message: string;
}
export interface ApprovalRequestMessage extends AgentFields {
  type: 'approval_request';
  tool_name: string;
  tool_use_id: string;
  reason: string | undefined;
}
export interface CompactionStartMessage extends AgentFields {
  type: 'compaction_start';
  reason: CompactionReason;
}
export interface CompactionEndMessage extends AgentFields {
  type: 'compaction_end';
  reason: CompactionReason;
  changed: boolean;
  notice?: string;
}
export interface ErrorMessage extends AgentFields {
  type: 'error';
  message: string;
  kind: string | undefined;
}
/** A sub-agent's end (the main agent's is the `result`). */
export interface SubagentResultMessage extends AgentFields {
  type: 'subagent_result';
  subtype: 'success' | 'error';
  is_error: boolean;
  result: string;
  stop_reason: RunEndReason;
  num_turns: number;
  usage: ClaudeUsage;
  subagent_type?: string;
  description?: string;
  task_id?: string;
}

/** Last message of every run, in Claude Code's `--output-format json` shape. */
export interface ResultMessage {
  type: 'result';
  subtype: 'success' | 'error_max_turns' | 'error_during_execution';
  is_error: boolean;
  result: string;
  stop_reason: RunEndReason;
  num_turns: number;
  duration_ms: number;
  /** Time spent in model requests, sub-agents' included (Claude Code's field). */
  duration_api_ms: number;
  session_id: string;
  model: string;
  /** Every agent's tokens together: the main agent's and its sub-agents'. */
  usage: ClaudeUsage;
  /** Per agent (`main`, and each sub-agent that ran during the prompt). */
  usage_by_agent: Record<string, ClaudeUsage>;
}

/** What happens during a run: every message between `system` and `result`. */
export type EventMessage =
  | IterationMessage
  | TextDeltaMessage
  | ThinkingDeltaMessage
  | ToolUseMessage
  | ToolProgressMessage
  | ToolResultMessage
  | UsageMessage
  | NoticeMessage
  | ApprovalRequestMessage
  | CompactionStartMessage
  | CompactionEndMessage
  | ErrorMessage
  | SubagentResultMessage;

export type StreamMessage = SystemInitMessage | EventMessage | ResultMessage;
