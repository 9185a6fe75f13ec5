/** Permission verdicts and the checkPermission stage table (A1, A7, A8, A9). */
import type { PermissionTarget, Tool, ToolCategory, ToolInput } from './tools.js';

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';
/** Frozen: the command line, the TUI and the ACP front end check a mode against this one list. */
export const PERMISSION_MODES: readonly PermissionMode[] = Object.freeze(['default', 'acceptEdits', 'plan', 'bypassPermissions']);

export type PermissionDecision = 'allow' | 'deny' | 'ask';

export interface PermissionVerdict {
  decision: PermissionDecision;
  /** The plugin/layer that decided, e.g. "permission-mode"; recorded in the audit log. */
  layer: string;
  reason?: string;
}

export interface PermissionRequest {
  toolName: string;
  /** Undefined for an unknown tool. */
  tool: Tool | undefined;
  input: ToolInput;
  category: ToolCategory;
  target: PermissionTarget;
  mode: PermissionMode;
  sessionId: string;
  /**
   * The agent making the call (`main`, or a sub-agent's id) and the agent that created it, so a
   * layer or an approver can tell a sub-agent's call from the user's. The kernel always sets
   * `agentId`; optional so hand-built requests (tests, plugins asking the chain) stay valid.
   */
  agentId?: string;
  parentAgentId?: string;
  projectRoot: string;
  /**
   * The plugin that makes this call itself (`callTool`, `decidePermission`: a custom command's
   * `!` line, a compaction's recovery read), named by the kernel; undefined for the model's
   * calls. A layer or an audit tells them apart by it.
   */
  madeBy?: string;
}

/**
 * Stages of the `checkPermission` hook (tapable `stage`, ascending; first defined answer wins).
 * Policy plugins choose a stage between two layers, e.g. `PermissionStage.Sandbox + 50` to run
 * after the sandbox and before the user's rules. Frozen as this module is evaluated: the chain
 * reads `PermissionStage.Sandbox` at every call to tell the essential layers' stages from the rest,
 * so one plugin lowering it would let its own allow end the chain before every other layer.
 */
export const PermissionStage = Object.freeze({
  Blacklist: 100,
  Sandbox: 200,
  Rules: 300,
  Mode: 400,
} as const);

export type ApprovalChoice = 'allow_once' | 'allow_session' | 'allow_always' | 'deny';

export interface ApprovalRequest extends PermissionRequest {
  /** The verdict that asked, with its reason. */
  verdict: PermissionVerdict;
  toolCallId: string;
  /**
   * Whether a `requestApproval` tap's allow is taken. Only the mode layer's question (or a call no
   * layer decided) may be answered by a plugin; a rule's, a protected path's, the blacklist's, the
   * sandbox's, a policy's or a PreToolUse hook's question is the user's. A tap may always deny.
   */
  pluginsMayAllow: boolean;
  /**
   * Whether an allow rule of the user's (`permissions.allow`, `--allowedTools`, "allow for this
   * session", "always allow") would have let this call run without the question: the kernel's
   * reading of the chain, the one answer every front end and hint uses. True when the ask comes
   * from a layer after the permission rules (the mode, the blacklist's unverifiable-command check,
   * install_skill), whose tap an allow rule's verdict skips, or when no layer decided. False for a
   * settings file's ask rule, an early layer's question (at or before the rules' stage), a required
   * plugin's (the organisation's) question, a PreToolUse hook's, and under
   * `allow_managed_rules_only`: a rule suggested or saved for those would never stop the question.
   */
  allowRuleLifts: boolean;
}

export interface ApprovalOutcome {
  choice: ApprovalChoice;
  /** Who answered (plugin name), and why for a deny. */
  answeredBy: string;
  reason?: string;
  /**
   * An allow that runs the call with other arguments (the programmatic API's `updatedInput`). They
   * are checked against the tool's schema and decided again by every permission layer: a layer's
   * deny still stops the call, only a question is taken as answered.
   */
  input?: ToolInput;
  /**
   * A deny that also ends the run after this batch of calls (Claude Code's PermissionRequest
   * `interrupt: true`): `reason` for the user, `by` who asked, as preToolUse's `stopRun`.
   */
  stopRun?: { reason: string; by: string };
}

/**
 * Whether a remembered answer ("allow for this session", "always allow") could lift this question:
 * only when an allow rule would (`allowRuleLifts`). Otherwise the rule such an answer saves would
 * not stop the question coming back, so only "allow once" (or deny) is offered, and the kernel
 * takes any other allow as "allow once".
 */
export function answerCanBeRemembered(request: Pick<ApprovalRequest, 'allowRuleLifts'>): boolean {
  return request.allowRuleLifts === true;
}
