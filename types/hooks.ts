/**
 * Hook payloads, and the hook types derived from the one catalogue (`hook-catalogue.ts`). Every
 * payload carries the session's identity (`sessionId`, `agentId`, `parentAgentId`).
 */
import type { CompactionReason, RunEndReason } from './events.js';
import type { HOOK_CATALOGUE, HookOf } from './hook-catalogue.js';
import type { CommandStreams, Message, ToolCall, ToolResult } from './messages.js';
import type { PermissionMode, PermissionRequest, PermissionVerdict, ApprovalOutcome } from './permissions.js';
import type { ModelRequest, Provider } from './provider.js';
import type { Tool, ToolInput } from './tools.js';
import type { CompactionReport } from './session.js';

/** Who a hook call is about: the session, and the agent (a sub-agent has a parent). */
export interface SessionContext {
  sessionId: string;
  /** `main` for the user's session; a fresh id for each sub-agent or background session. */
  agentId: string;
  /** The agent that created this one; absent for the main session. */
  parentAgentId?: string;
  /** A sub-agent's role (`explore`, `general`…), as its creator named it; absent for the main session. */
  agentType?: string;
  projectRoot: string;
  homeDir: string;
}

/**
 * Why the main session ends at `kernel.shutdown()`, in Claude Code's words (its SessionEnd
 * `reason`): `prompt_input_exit` when the user left the interactive UI (/exit, Ctrl+C at the
 * prompt), `other` for every other end (a -p run done, a signal, the programmatic API).
 */
export type ShutdownReason = 'prompt_input_exit' | 'other';

export interface SessionEndContext extends SessionContext {
  reason: ShutdownReason;
}

export interface RunContext extends SessionContext {
  mode: PermissionMode;
}

export interface PromptSubmitContext extends RunContext {
  prompt: string;
}

/**
 * userPromptExpansion's context: a command the user ran (a command file, a skill, a plugin's
 * command) expanded to `prompt`, before that prompt is run.
 */
export interface PromptExpansionContext extends RunContext {
  /** The command's name, without the slash. */
  command: string;
  args: string;
  /** Whose the command is, and the file it comes from. */
  scope: 'builtin' | 'user' | 'project';
  source?: string;
  prompt: string;
}

/** A blocking answer (userPromptSubmit, preToolUse, preCompact, or a layer that refuses). */
export interface BlockDecision {
  block: true;
  reason: string;
  /** Who blocked, e.g. the hook rule's name; shown as `[hook <by>] <reason>`. */
  by: string;
}

/**
 * userPromptSubmit's waterfall value. A tap may block the prompt (it never enters history, H6)
 * or add context that goes into the user message after the prompt. Once blocked, later taps are
 * not called.
 */
export interface PromptSubmission {
  block?: BlockDecision;
  additionalContext: string[];
}

/**
 * preToolUse's waterfall value (Claude Code's PreToolUse output). `deny` stops the chain and the
 * call gets `[hook <by>] <reason>`; `ask` sends the call to approval even if every layer allows;
 * `allow` answers the permission mode's question — it never passes the blacklist, the sandbox,
 * a deny or ask rule, or a protected path. `input` may be rewritten (updatedInput); context
 * strings reach the model with the next request.
 */
export interface ToolUseDecision {
  decision?: 'allow' | 'ask' | 'deny';
  reason?: string;
  /** Who decided (a hook rule name or plugin name). */
  by?: string;
  input: ToolInput;
  additionalContext: string[];
  /** End the run after this batch of calls (a hook's `continue: false`); no later tap takes it back. */
  stopRun?: RunStop;
}

/**
 * A tool call's answer that ends the run (Claude Code's `continue: false`): the calls of the
 * current batch get their results, later calls of the turn do not run, and the model is not asked
 * again; the run ends `stopped`. `reason` is for the user (a notice, the run's result text), never
 * for the model; `by` names who asked.
 */
export interface RunStop {
  reason: string;
  by: string;
}

/** postToolUse's waterfall value: the result, and a request to end the run (`stopRun`, kept by the kernel, never in history). */
export interface PostToolUseResult extends ToolResult {
  stopRun?: RunStop;
}

export interface ToolUseContext extends RunContext {
  call: ToolCall;
  tool: Tool | undefined;
  input: ToolInput;
  iteration: number;
  /**
   * preToolUse only: true on the second pass the kernel makes when a tap rewrote the input, so
   * that every tap (a policy that ran before the rewrite included) judges the input that will run.
   * A rewrite returned on this pass is not taken; decisions are (the stricter of both passes wins).
   */
  recheck?: boolean;
  /**
   * A plugin's own call (`callTool`: a custom command's or skill's `!` line, a compaction's
   * recovery read): the plugin that made it, named by the kernel (PermissionRequest.madeBy);
   * absent for the model's calls.
   */
  madeBy?: string;
}

export interface PostToolUseContext extends ToolUseContext {
  durationMs: number;
  /**
   * Whether the run was cancelled (the user's interrupt: Esc, Ctrl+C, a signal) by the time the
   * call ended; a call's error result is then that cancel, not a fault of the tool. Absent on a
   * late output (ToolContext.lateOutput) and on contexts built before the field existed.
   */
  interrupted?: boolean;
  /**
   * A command tool's exit status (ToolOutput.exitCode): a non-zero one is a failed call to
   * Claude Code's hooks, though the result is no error for the model. A fact of the call, so no
   * tap can change it; absent for other tools.
   */
  exitCode?: number;
  /** A command tool's stdout and stderr apart (ToolOutput.streams), each cut to a cap; absent for other tools and commands an editor's terminal ran. */
  streams?: CommandStreams;
}

/** Stable system-prompt parts, computed once per session and tool list (K3). */
export interface SystemPromptContext extends SessionContext {
  tools: readonly string[];
}

/** Per-request environment parts: volatile text that goes after the cache breakpoint. */
export interface EnvironmentContext extends RunContext {
  model: string;
  providerId: string;
  /** 1 for the first request of a run; plugins may refresh slow facts only then. */
  iteration: number;
}

/**
 * Why a model request is sent: a `turn` of the agent loop, a `compaction` summary, or an MCP
 * server's `sampling` request. Every request MewCode sends passes preModelRequest.
 */
export type ModelRequestReason = 'turn' | 'compaction' | 'sampling';

export interface ModelRequestContext extends RunContext {
  /** The agent loop's iteration; 0 for a request outside the loop (`reason` says which). */
  iteration: number;
  provider: Provider;
  /** Absent for a turn of the agent loop; set for every other request (KernelApi.sendModelRequest). */
  reason?: ModelRequestReason;
}

/**
 * preModelRequest's waterfall value: the request, which a tap may rewrite, or refuse by setting
 * `block` (a DLP or model-allowlist policy): the request is not sent, later taps are not called,
 * and the run (or the compaction, or the sampling request) ends with an error naming the plugin.
 */
export type ModelRequestValue = ModelRequest & { block?: BlockDecision };

export interface ContextState {
  reason: CompactionReason;
  estimatedTokens: number;
  contextWindow: number;
  /** Set by the kernel after the compaction service rewrote the history. */
  compacted: boolean;
  /** Manual compaction: what the user asked the summary to keep (`/compact <focus>`). */
  focus?: string;
  /** After a compaction: the estimate for the new history. */
  tokensAfter?: number;
  /** After a compaction: the new history (a session store persists it). */
  history?: readonly Message[];
  /** After a compaction, when the service reported it: what was dropped (a session store keeps it). */
  report?: CompactionReport;
  /**
   * postCompact only: text the model must have again after a summary (an active skill's
   * instructions, project instructions that are not in the system prompt). A tap pushes parts;
   * after every tap ran the kernel appends them, in order, as one user message (persisted like any
   * message), so they stand after the summary and the kept tail for the rest of the session.
   */
  reinject?: string[];
}

export interface CompactionContext extends RunContext {
  provider: Provider;
}

/** Every permission outcome of a tool call, for the audit log (A11). */
export interface PermissionDecidedContext extends Pick<SessionContext, 'sessionId' | 'agentId'>, Partial<Pick<SessionContext, 'parentAgentId'>> {
  request: PermissionRequest;
  /** The verdict that decided; for a PreToolUse block, layer `hook:<name>`. */
  verdict: PermissionVerdict;
  /** Present when the chain asked and someone (or no one) answered. */
  approval?: ApprovalOutcome;
  /** Whether the call will run. */
  allowed: boolean;
  toolCallId: string;
  /**
   * Who decided, as the kernel knows it: the plugin whose checkPermission tap gave `verdict` (its
   * tap's name, not the `layer` it wrote), or 'kernel' for a verdict the kernel made.
   */
  decidedBy?: string;
}

export interface MessageAppendedContext extends SessionContext {
  index: number;
}

export interface StopContext extends RunContext {
  reason: RunEndReason;
  finalText: string;
  /** How many times a stop tap already asked this run to continue (bounded by the kernel). */
  continuations: number;
}

/** A stop tap may ask a completed run to continue once more; `reason` becomes the next user message. */
export interface StopDecision {
  continue: true;
  reason: string;
  by: string;
}

export interface SubagentContext extends RunContext {
  /** A sub-agent always has a parent. */
  parentAgentId: string;
  prompt: string;
}

export interface SubagentStopContext extends SubagentContext {
  reason: RunEndReason;
  finalText: string;
}

/** Ids are set for what a session says; absent for process-wide messages (boot, configuration). */
export interface NotificationPayload extends Partial<Pick<SessionContext, 'sessionId' | 'agentId' | 'parentAgentId'>> {
  kind: 'notice' | 'warning' | 'approval_needed' | 'idle' | 'debug';
  message: string;
}

export interface TrustDecidedContext {
  projectRoot: string;
  trusted: boolean;
  source: 'stored' | 'flag' | 'env' | 'dialog' | 'none';
  /** Project settings that were not applied because the project is not trusted. */
  skipped: string[];
}

type Catalogue = typeof HOOK_CATALOGUE;

/** The kernel's hooks, one per catalogue entry. */
export type KernelHooks = { readonly [K in keyof Catalogue]: HookOf<Catalogue[K]> };

export type HookName = keyof KernelHooks;

/** What a plugin may do with a hook: tap it (under its own name). Nothing else. */
export type HookTaps<H> = Pick<H, Extract<keyof H, 'tap' | 'tapAsync' | 'tapPromise'>>;

/** The hooks as a plugin sees them: frozen, tap-only, taps carry the plugin's name. */
export type PluginHooks = { readonly [K in HookName]: HookTaps<KernelHooks[K]> };
