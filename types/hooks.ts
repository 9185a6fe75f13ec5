/** The lifecycle hook catalogue (DESIGN.md) and the payload of each hook. */
import type {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  SyncWaterfallHook,
} from 'tapable';
import type { CompactionReason, RunEndReason } from './events.js';
import type { Message, ToolCall, ToolResult } from './messages.js';
import type { ApprovalOutcome, ApprovalRequest, PermissionMode, PermissionRequest, PermissionVerdict } from './permissions.js';
import type { ModelRequest, Provider } from './provider.js';
import type { Tool, ToolInput } from './tools.js';

export interface SessionContext {
  sessionId: string;
  projectRoot: string;
  homeDir: string;
}

export interface RunContext extends SessionContext {
  mode: PermissionMode;
}

export interface PromptSubmitContext extends RunContext {
  prompt: string;
}

/** A blocking answer from userPromptSubmit or preToolUse. */
export interface BlockDecision {
  block: true;
  reason: string;
  /** Who blocked, e.g. the hook rule's name; shown as `[hook <by>] <reason>`. */
  by: string;
}

/** preToolUse may block the call or rewrite its input; `undefined` lets it through unchanged. */
export type PreToolUseDecision = BlockDecision | { block?: false; input: ToolInput };

export interface ToolUseContext extends RunContext {
  call: ToolCall;
  tool: Tool | undefined;
  input: ToolInput;
  iteration: number;
}

export interface PostToolUseContext extends ToolUseContext {
  durationMs: number;
}

/** Stable system-prompt parts, computed once per session (K3). */
export interface SystemPromptContext extends SessionContext {
  tools: readonly string[];
}

/** Per-run environment parts: volatile text that goes after the cache breakpoint. */
export interface EnvironmentContext extends RunContext {
  model: string;
  providerId: string;
}

export interface ModelRequestContext extends RunContext {
  iteration: number;
  provider: Provider;
}

export interface ContextState {
  reason: CompactionReason;
  estimatedTokens: number;
  contextWindow: number;
  /** Set by the compaction plugin when it rewrote the history. */
  compacted: boolean;
}

export interface ManageContextContext extends RunContext {
  provider: Provider;
}

/** Every permission outcome of a tool call, for the audit log (SPEC A11). */
export interface PermissionDecidedContext {
  request: PermissionRequest;
  /** The verdict that decided; for a PreToolUse block, layer `hook:<name>`. */
  verdict: PermissionVerdict;
  /** Present when the chain asked and someone (or no one) answered. */
  approval?: ApprovalOutcome;
  /** Whether the call will run. */
  allowed: boolean;
  toolCallId: string;
}

export interface MessageAppendedContext {
  sessionId: string;
  index: number;
}

export interface StopContext extends RunContext {
  reason: RunEndReason;
  finalText: string;
}

export interface NotificationPayload {
  sessionId: string;
  kind: 'notice' | 'warning' | 'approval_needed' | 'idle';
  message: string;
}

export interface KernelHooks {
  sessionStart: AsyncSeriesHook<[SessionContext]>;
  sessionResume: AsyncSeriesHook<[SessionContext]>;
  sessionEnd: AsyncSeriesHook<[SessionContext]>;
  userPromptSubmit: AsyncSeriesBailHook<[PromptSubmitContext], BlockDecision | undefined>;
  buildSystemPrompt: SyncWaterfallHook<[string[], SystemPromptContext]>;
  buildEnvironment: AsyncSeriesWaterfallHook<[string[], EnvironmentContext]>;
  preModelRequest: AsyncSeriesWaterfallHook<[ModelRequest, ModelRequestContext]>;
  manageContext: AsyncSeriesWaterfallHook<[ContextState, ManageContextContext]>;
  preCompact: AsyncSeriesHook<[ContextState, ManageContextContext]>;
  postCompact: AsyncSeriesHook<[ContextState, ManageContextContext]>;
  preToolUse: AsyncSeriesBailHook<[ToolUseContext], PreToolUseDecision | undefined>;
  checkPermission: AsyncSeriesBailHook<[PermissionRequest], PermissionVerdict | undefined>;
  requestApproval: AsyncSeriesBailHook<[ApprovalRequest], ApprovalOutcome | undefined>;
  permissionDecided: AsyncSeriesHook<[PermissionDecidedContext]>;
  postToolUse: AsyncSeriesWaterfallHook<[ToolResult, PostToolUseContext]>;
  messageAppended: AsyncSeriesHook<[Message, MessageAppendedContext]>;
  stop: AsyncSeriesHook<[StopContext]>;
  notification: AsyncParallelHook<[NotificationPayload]>;
}

export type HookName = keyof KernelHooks;
