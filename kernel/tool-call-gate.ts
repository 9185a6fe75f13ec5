/**
 * Everything that happens to one tool call before it may run: lookup, input parsing, the
 * PreToolUse hook, the permission chain and, when the chain says "ask", approval (SPEC A1, L3).
 */
import type { AgentEvent } from '../types/events.js';
import type { KernelHooks, RunContext } from '../types/hooks.js';
import type { ToolCall, ToolResult } from '../types/messages.js';
import type { ApprovalOutcome, PermissionRequest, PermissionVerdict } from '../types/permissions.js';
import type { ToolRegistry } from '../types/services.js';
import { toolCategory, type Tool, type ToolInput } from '../types/tools.js';

export type GateOutcome = { run: true; tool: Tool; input: ToolInput } | { run: false; result: ToolResult };

export interface GateDeps {
  hooks: KernelHooks;
  registry: ToolRegistry;
  run: RunContext;
  iteration: number;
  emit(event: AgentEvent): void;
}

export function errorResult(call: ToolCall, content: string): ToolResult {
  return { toolCallId: call.id, content, isError: true };
}

export function parseToolInput(raw: string): { ok: true; input: ToolInput } | { ok: false; error: string } {
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

export async function gateToolCall(call: ToolCall, deps: GateDeps): Promise<GateOutcome> {
  const tool = deps.registry.get(call.name);
  if (!tool) {
    const available = deps.registry.list().map((t) => t.name).join(', ') || '(none)';
    return deny(call, `Unknown tool: ${call.name}. Use one of the available tools: ${available}.`);
  }
  // Plan mode offers read-only tools only; a call to another tool is refused, not merely hidden.
  if (deps.run.mode === 'plan' && !tool.readOnly && !tool.system) {
    return deny(call, `${call.name} is not available in plan mode: only read-only tools may run. Finish with a plan for the user to approve.`);
  }
  const parsed = parseToolInput(call.input);
  if (!parsed.ok) {
    return deny(call, `Invalid arguments for ${call.name}: ${parsed.error}. Send the call again with a JSON object that matches the tool's input schema.`);
  }
  let input = parsed.input;

  const decision = await deps.hooks.preToolUse.promise({ ...deps.run, call, tool, input, iteration: deps.iteration });
  if (decision && !decision.block) input = decision.input;

  const request: PermissionRequest = {
    toolName: call.name,
    tool,
    input,
    category: toolCategory(tool),
    target: (await tool.permissionTarget?.(input)) ?? { kind: 'none' },
    mode: deps.run.mode,
    sessionId: deps.run.sessionId,
    projectRoot: deps.run.projectRoot,
  };
  // Every outcome is announced once, for the audit log (A11).
  const decided = (verdict: PermissionVerdict, allowed: boolean, approval?: ApprovalOutcome): Promise<void> =>
    deps.hooks.permissionDecided.promise({ request, verdict, allowed, toolCallId: call.id, ...(approval ? { approval } : {}) });

  if (decision?.block) {
    await decided({ decision: 'deny', layer: `hook:${decision.by}`, reason: decision.reason }, false);
    return deny(call, `[hook ${decision.by}] ${decision.reason}`);
  }
  const verdict: PermissionVerdict = (await deps.hooks.checkPermission.promise(request)) ?? {
    decision: 'ask',
    layer: 'kernel',
    reason: 'no permission layer decided',
  };
  if (verdict.decision === 'deny') {
    await decided(verdict, false);
    return deny(call, `Permission denied by ${verdict.layer}: ${verdict.reason ?? 'no reason given'}. Do not retry this call; choose another approach or ask the user.`);
  }
  if (verdict.decision === 'ask') {
    const approvalRequest = { ...request, verdict, toolCallId: call.id };
    deps.emit({ type: 'approval_request', request: approvalRequest });
    const outcome: ApprovalOutcome | undefined = await deps.hooks.requestApproval.promise(approvalRequest);
    if (!outcome) {
      await decided(verdict, false);
      return deny(call, `Permission required: ${call.name} needs approval (${verdict.reason ?? verdict.layer}) and no one was available to approve it. Do not retry this call.`);
    }
    await decided(verdict, outcome.choice !== 'deny', outcome);
    if (outcome.choice === 'deny') return deny(call, `User denied: ${outcome.reason ?? `${call.name} was not approved`}`);
    return { run: true, tool, input };
  }
  await decided(verdict, true);
  return { run: true, tool, input };
}

function deny(call: ToolCall, content: string): GateOutcome {
  return { run: false, result: errorResult(call, content) };
}
