/**
 * What the terminal UI shows, as plain data (no React): finished entries go to the terminal's
 * scrollback once (Ink's <Static>); the live state (streaming text, running tools, progress,
 * dialogs, input) is the only part that is redrawn.
 */
import type { ToolCall, ToolResult } from '../../../types/messages.js';
import type { ApprovalChoice, ApprovalRequest, PermissionMode } from '../../../types/permissions.js';
import type { PendingTrust } from '../../../types/trust.js';

/** A finished line of the conversation: written to the scrollback exactly once. */
export type Entry =
  | { kind: 'banner'; id: number; text: string }
  | { kind: 'user'; id: number; text: string }
  | { kind: 'assistant'; id: number; text: string }
  | { kind: 'thinking'; id: number; text: string }
  | { kind: 'tool'; id: number; call: ToolCall; result: ToolResult; durationMs: number }
  | { kind: 'notice'; id: number; level: 'notice' | 'warning' | 'error'; text: string }
  | { kind: 'command'; id: number; text: string; output: string; isError: boolean };

/** A tool call that has started and not yet ended. */
export interface RunningTool {
  call: ToolCall;
  startedAt: number;
  /** The last lines a running call reported (bash output tail, MCP progress). */
  tail?: string;
  progress?: { progress: number; total?: number };
}

/** A long operation shown as one line while it lasts (compaction, a retry countdown). */
export interface ProgressLine {
  id: string;
  text: string;
  /** When set, the line counts down to this time (epoch ms). */
  until?: number;
  startedAt: number;
}

export interface PendingApproval {
  /** Unique per request: the dialog is remounted (fresh selection, type-ahead guard) for each one. */
  id: number;
  request: ApprovalRequest;
  resolve(choice: ApprovalChoice): void;
}

export interface PendingTrustDialog {
  pending: PendingTrust;
  resolve(trusted: boolean): void;
}

export interface StatusInfo {
  provider: string;
  model: string;
  mode: PermissionMode;
  sandbox: string;
  contextWindow: number;
  /** Tokens of the last request's prompt plus its answer (what the next request starts from). */
  contextTokens: number;
  /** Input + output tokens of every request of this session. */
  sessionTokens: number;
}

/** A picker over a list (resume, model), with a search string. */
export interface Picker {
  title: string;
  items: { label: string; value: string; detail?: string }[];
  resolve(value: string | undefined): void;
}

/** An entry before the store numbers it. */
export type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never;
