/**
 * Everything that happens to one tool call before it may run: lookup, input parsing, the
 * PreToolUse hook, the permission chain and, when the chain says "ask", approval (A1, L3).
 * Every outcome, refusals included, is announced once on `permissionDecided` (A11).
 */
import type { AgentEvent } from '../types/events.js';
import type { KernelHooks, RunContext, RunStop, ToolUseDecision } from '../types/hooks.js';
import type { ToolCall, ToolResult } from '../types/messages.js';
import { PermissionStage, type ApprovalChoice, type ApprovalOutcome, type ApprovalRequest, type PermissionRequest, type PermissionVerdict } from '../types/permissions.js';
import type { PermissionTarget, Tool, ToolInput, ToolInputCheck } from '../types/tools.js';
import { describeValue, frozenCopy, isApprovalOutcome, strictness } from './decision-shapes.js';
import { bounded } from './decision-bounds.js';
import { allowedBy, verdictOwner } from './decision-provenance.js';
import type { ChainOutcome, PermissionChain } from './permission-chain.js';
import { errorMessage } from './plugin-error.js';
import { permissionRequest } from './permission-request.js';
import { requiredFailure, requiredFailureReason } from './required-failures.js';
import type { ToolLookup } from './tool-view.js';

/** Whether the call runs (its tool and the input judged) or its refusal; and a preToolUse tap's request to end the run. */
export type GateOutcome = ({ run: true; tool: Tool; input: ToolInput; target: PermissionTarget } | { run: false; result: ToolResult }) & { stopRun?: RunStop };

export interface GateDeps {
  hooks: KernelHooks;
  tools: ToolLookup;
  chain: PermissionChain;
  run: RunContext;
  iteration: number;
  emit(event: AgentEvent): void;
  /** Ask the active UI when no `requestApproval` tap answered. */
  approve(request: ApprovalRequest): Promise<ApprovalOutcome | undefined>;
  /** Context a PreToolUse hook wants the model to see with the next request. */
  addContext(text: string): void;
  /** The run's cancellation: it ends every wait on a preToolUse or requestApproval tap. */
  signal?: AbortSignal;
}

const CANCELLED_BEFORE_DECISION = 'Cancelled: the run was cancelled before this tool call was permitted.';
const CANCELLED = Symbol('cancelled');

export function errorResult(call: ToolCall, content: string): ToolResult {
  return { toolCallId: call.id, content, isError: true };
}

export function parseToolInput(raw: string): ToolInputCheck {
  try {
    const value: unknown = JSON.parse(raw.trim() === '' ? '{}' : raw);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, error: 'the arguments must be a JSON object' };
    }
    return { ok: true, input: value as ToolInput };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * The gate's outcome for one call, with the first request to end the run a preToolUse pass
 * answered (`stopRun`): it holds whatever the call's outcome, a deny, an approval or a run.
 */
export async function gateToolCall(call: ToolCall, deps: GateDeps): Promise<GateOutcome> {
  let stopRun: RunStop | undefined;
  const outcome = await decideToolCall(call, deps, (stop) => (stopRun ??= stop));
  return stopRun ? { ...outcome, stopRun } : outcome;
}

async function decideToolCall(call: ToolCall, deps: GateDeps, noteStop: (stop: RunStop) => void): Promise<GateOutcome> {
  const tool = deps.tools.get(call.name);
  if (!tool) {
    const available = deps.tools.list().map((t) => t.name).join(', ') || '(none)';
    return deny(call, `Unknown tool: ${call.name}. Use one of the available tools: ${available}.`);
  }
  const parsed = await checkedInput(tool, parseToolInput(call.input));
  if (!parsed.ok) return deny(call, invalidArguments(call.name, parsed.error));
  // Every permission layer sees the same request, frozen with its own copies of the input and the
  // target: a layer cannot change what the layers after it see (a harmless target, another mode).
  const request = (input: ToolInput): Promise<PermissionRequest> => permissionRequest(call.name, tool, input, deps.run);
  const decided = (permission: PermissionRequest, verdict: PermissionVerdict, allowed: boolean, approval?: ApprovalOutcome): Promise<void> =>
    deps.hooks.permissionDecided.promise({
      request: permission,
      verdict,
      decidedBy: verdictOwner(verdict),
      allowed,
      toolCallId: call.id,
      sessionId: deps.run.sessionId,
      agentId: deps.run.agentId,
      ...(deps.run.parentAgentId ? { parentAgentId: deps.run.parentAgentId } : {}),
      ...(approval ? { approval } : {}),
    });

  // Plan mode offers read-only tools only; a call to another tool is refused, not merely hidden.
  if (deps.run.mode === 'plan' && !tool.readOnly && !tool.system) {
    const refusal = `${call.name} is not available in plan mode: only read-only tools may run. Finish with a plan for the user to approve.`;
    await decided(await request(parsed.input), { decision: 'deny', layer: 'plan-mode', reason: refusal }, false);
    return deny(call, refusal);
  }

  // The hooks see frozen copies, in a frozen context every tap shares (never the call history
  // holds): one tap cannot change what the next sees, nor can one that keeps a reference change
  // the call afterwards.
  const given = frozenCopy(parsed.input) as ToolInput;
  const shownCall = Object.freeze({ ...call });
  const preToolUse = async (shown: ToolInput, recheck: boolean): Promise<ToolUseDecision | typeof CANCELLED> => {
    const answer = await unlessCancelled(
      deps.hooks.preToolUse.promise(
        Object.freeze({ input: shown, additionalContext: Object.freeze([]) as unknown as string[] }),
        Object.freeze({ ...deps.run, call: shownCall, tool, input: shown, iteration: deps.iteration, ...(recheck ? { recheck } : {}) }),
      ),
    );
    if (answer !== CANCELLED && answer.stopRun) noteStop(answer.stopRun);
    return answer;
  };
  const first = await preToolUse(given, false);
  if (first === CANCELLED) return deny(call, CANCELLED_BEFORE_DECISION);
  let hook = first;
  for (const text of hook.additionalContext) if (text.trim()) deps.addContext(text);
  let by = hook.by ?? 'preToolUse';
  // The plugin whose tap gave an allow, as the kernel recorded it (`by` is the tap's own word).
  let allower = allowedBy(hook);
  let input = parsed.input;
  if (hook.input && typeof hook.input === 'object' && hook.input !== given) {
    const rewritten = await checkedInput(tool, { ok: true, input: hook.input });
    if (!rewritten.ok) {
      // Refused like a deny, and recorded as one (an audit sees every call that got this far).
      const reason = `rewrote the arguments into ones ${call.name} does not accept: ${rewritten.error}`;
      await decided(await request(input), { decision: 'deny', layer: `hook:${by}`, reason }, false);
      return deny(call, `[hook ${by}] ${reason}`);
    }
    // One frozen copy is what the second pass judges and what the layers are asked about.
    input = frozenCopy(rewritten.input) as ToolInput;
    if (hook.decision !== 'deny') {
      // A tap rewrote the input after others had judged the original: every tap judges the input
      // that will run (a rewrite now is not taken), and the stricter answer of the two passes stands.
      const again = await preToolUse(input, true);
      if (again === CANCELLED) return deny(call, CANCELLED_BEFORE_DECISION);
      for (const text of again.additionalContext) if (text.trim() && !hook.additionalContext.includes(text)) deps.addContext(text);
      if (strictness(again.decision) > strictness(hook.decision)) {
        hook = { input: hook.input, additionalContext: hook.additionalContext, decision: again.decision!, ...(again.reason !== undefined ? { reason: again.reason } : {}), ...(again.by !== undefined ? { by: again.by } : {}) };
        by = hook.by ?? 'preToolUse';
        allower = allowedBy(again);
      }
    }
  }
  const permission = await request(input);

  if (hook.decision === 'deny') {
    const reason = hook.reason ?? 'blocked by a PreToolUse hook';
    await decided(permission, { decision: 'deny', layer: `hook:${by}`, reason }, false);
    return deny(call, `[hook ${by}] ${reason}`);
  }
  const judged = applyHookDecision(await deps.chain.decide(deps.hooks, permission), hook, by, () => deps.chain.hookAllowCounts(allower, by));
  const { verdict } = judged;
  if (verdict.decision !== 'allow' && verdict.decision !== 'ask') {
    await decided(permission, verdict, false);
    return deny(call, `Permission denied by ${verdict.layer}: ${verdict.reason ?? 'no reason given'}. Do not retry this call; choose another approach or ask the user.`);
  }
  if (verdict.decision === 'ask') {
    const approvalRequest: ApprovalRequest = Object.freeze({ ...permission, verdict, toolCallId: call.id, pluginsMayAllow: pluginsMayAllow(judged), allowRuleLifts: allowRuleLifts(judged, deps.chain.userAllowRulesCount()) });
    deps.emit({ type: 'approval_request', request: approvalRequest });
    const byPlugin: unknown = await unlessCancelled(deps.hooks.requestApproval.promise(approvalRequest));
    if (byPlugin === CANCELLED) return deny(call, CANCELLED_BEFORE_DECISION);
    const answer: unknown = byPlugin ?? (await deps.approve(approvalRequest));
    if (answer === undefined) {
      await decided(permission, verdict, false);
      return deny(call, `Permission required: ${call.name} needs approval (${verdict.reason ?? verdict.layer}) and no one was available to approve it. Do not retry this call.`);
    }
    // Only a well-formed allow choice runs the call; anything else an approver returned denies it.
    const given: ApprovalOutcome = isApprovalOutcome(answer)
      ? answer
      : { choice: 'deny', answeredBy: 'kernel', reason: `the approver returned a malformed approval (${describeValue(answer)})` };
    // A remembered answer to a question no allow rule lifts would save a rule that never stops it
    // coming back (whatever the approver offered): it is taken as "allow once".
    const outcome: ApprovalOutcome = (given.choice === 'allow_session' || given.choice === 'allow_always') && !approvalRequest.allowRuleLifts ? { ...given, choice: 'allow_once' } : given;
    const allowed = ALLOW_CHOICES.has(outcome.choice);
    if (allowed && outcome.input !== undefined) return approvedWithOtherInput(outcome.input, outcome, byPlugin !== undefined);
    await decided(permission, verdict, allowed, outcome);
    if (!allowed && outcome.stopRun) noteStop(outcome.stopRun);
    if (!allowed) return deny(call, `User denied: ${outcome.reason ?? `${call.name} was not approved`}`);
    return runs(permission);
  }
  // Only an explicit allow reaches here: anything else was a deny or an ask above.
  await decided(permission, verdict, true);
  return runs(permission);

  /** A cancelled run stops waiting for the plugins (whose taps are bounded anyway). */
  function unlessCancelled<T>(answer: Promise<T>): Promise<T | typeof CANCELLED> {
    return deps.signal ? bounded<T | typeof CANCELLED>(answer, { signal: deps.signal }, () => CANCELLED) : answer;
  }

  /** The tool runs exactly the input the layers judged: its own copy, shared with no plugin. */
  function runs(judgedRequest: PermissionRequest): GateOutcome {
    // A required plugin failed on the way here (its audit of this very decision, say): nothing runs.
    const failed = requiredFailure(deps.hooks);
    if (failed) return deny(call, `Not run: ${requiredFailureReason(failed)}.`);
    return { run: true, tool: tool!, input: structuredClone(judgedRequest.input), target: judgedRequest.target };
  }

  /**
   * The approver allowed the call with arguments of its own: they must suit the tool, and every
   * layer decides on them again, the preToolUse taps first (the approval answers a question,
   * never a layer's or a policy hook's deny).
   */
  async function approvedWithOtherInput(given: ToolInput, outcome: ApprovalOutcome, byPlugin: boolean): Promise<GateOutcome> {
    const checked = await checkedInput(tool!, { ok: true, input: given });
    if (!checked.ok) {
      await decided(permission, verdict, false, { ...outcome, choice: 'deny' });
      return deny(call, `${outcome.answeredBy} allowed ${call.name} with arguments it does not accept: ${checked.error}`);
    }
    const other = frozenCopy(checked.input) as ToolInput;
    const again = await request(other);
    // A recheck: the taps judge the approver's arguments as they are (a rewrite is not taken).
    const recheck = await preToolUse(other, true);
    if (recheck === CANCELLED) return deny(call, CANCELLED_BEFORE_DECISION);
    const recheckBy = recheck.by ?? 'preToolUse';
    for (const text of recheck.additionalContext) if (text.trim() && !hook.additionalContext.includes(text)) deps.addContext(text);
    if (recheck.decision === 'deny') {
      const reason = recheck.reason ?? 'blocked by a PreToolUse hook';
      await decided(again, { decision: 'deny', layer: `hook:${recheckBy}`, reason }, false, outcome);
      return deny(call, `[hook ${recheckBy}] ${reason}`);
    }
    const secondOutcome = applyHookDecision(await deps.chain.decide(deps.hooks, again), recheck, recheckBy, () => deps.chain.hookAllowCounts(allowedBy(recheck), recheckBy));
    const second = secondOutcome.verdict;
    if (second.decision === 'deny') {
      await decided(again, second, false, outcome);
      return deny(call, `Permission denied by ${second.layer}: ${second.reason ?? 'no reason given'}. Do not retry this call; choose another approach or ask the user.`);
    }
    // An ask here was answered by the approver already, unless a plugin answered a question only the user may.
    if (second.decision === 'ask' && byPlugin && !pluginsMayAllow(secondOutcome)) {
      await decided(again, second, false, { ...outcome, choice: 'deny' });
      return deny(call, `Permission required: ${outcome.answeredBy} allowed ${call.name} with other arguments, which ${second.layer} asks the user about (${second.reason ?? 'no reason given'}). Do not retry this call.`);
    }
    await decided(again, second, true, outcome);
    return runs(again);
  }
}

function invalidArguments(tool: string, error: string): string {
  return `Invalid arguments for ${tool}: ${error}. Send the call again with a JSON object that matches the tool's input schema.`;
}

/** The tool's own check of a parsed input (a throwing check is a failed one, K1). */
export async function checkedInput(tool: Tool, parsed: ToolInputCheck): Promise<ToolInputCheck> {
  if (!parsed.ok || !tool.validateInput) return parsed;
  try {
    const checked = await tool.validateInput(parsed.input);
    if (checked?.ok === true && checked.input && typeof checked.input === 'object') return checked;
    return { ok: false, error: checked?.ok === false && typeof checked.error === 'string' ? checked.error : 'the tool rejected them' };
  } catch (error) {
    return { ok: false, error: `the tool's input check failed: ${errorMessage(error)}` };
  }
}

const ALLOW_CHOICES: ReadonlySet<string> = new Set<ApprovalChoice>(['allow_once', 'allow_session', 'allow_always']);

/**
 * A hook's `ask` turns an allow into a question, and makes any question its own: the person must
 * answer it, even where the chain's own question (the mode layer's) a plugin could have answered.
 * A hook's `allow` answers only the question the mode layer (or no layer) asked — never the
 * blacklist's, the sandbox's, a rule's or a policy's — and, under allow_managed_rules_only, only
 * when a managed plugin's tap gave it (`allowCounts`, asked only when the allow would answer).
 */
function applyHookDecision(outcome: ChainOutcome, hook: ToolUseDecision, by: string, allowCounts: () => boolean): ChainOutcome & { hookAsked?: true } {
  const { verdict, decider } = outcome;
  if (hook.decision === 'ask' && verdict.decision !== 'deny') {
    return { verdict: { decision: 'ask', layer: `hook:${by}`, reason: hook.reason ?? 'a PreToolUse hook asks for approval' }, decider, hookAsked: true };
  }
  if (hook.decision === 'allow' && verdict.decision === 'ask' && isModeQuestion(outcome) && allowCounts()) {
    return { verdict: { decision: 'allow', layer: `hook:${by}`, reason: hook.reason ?? 'allowed by a PreToolUse hook' }, decider };
  }
  return outcome;
}

/**
 * The chain's ask is the mode layer's (or no layer decided): the one question a plugin may answer.
 * A required plugin's question is the organisation's policy at whatever stage it taps: only the
 * person answers it, never another plugin's preToolUse or requestApproval allow.
 */
function isModeQuestion({ decider }: ChainOutcome): boolean {
  return decider === undefined || (!decider.essential && !decider.required && decider.stage >= PermissionStage.Mode);
}

/** Whether a requestApproval tap's allow is taken for this ask (never for a hook's own question). */
function pluginsMayAllow(outcome: ChainOutcome & { hookAsked?: true }): boolean {
  return outcome.hookAsked !== true && isModeQuestion(outcome);
}

/**
 * Whether an allow rule of the user's would have let the call run without this question: the
 * asking layer comes after the rules' stage (an allow rule's verdict ends the chain before its
 * tap) and is no required plugin's (whose layer is asked whatever was allowed before it), or no
 * layer decided; never a hook's question, and never while only managed rules allow.
 */
function allowRuleLifts(outcome: ChainOutcome & { hookAsked?: true }, userRulesCount: boolean): boolean {
  if (!userRulesCount || outcome.hookAsked === true) return false;
  const { decider } = outcome;
  return decider === undefined || (!decider.required && decider.stage > PermissionStage.Rules);
}

function deny(call: ToolCall, content: string): GateOutcome {
  return { run: false, result: errorResult(call, content) };
}
