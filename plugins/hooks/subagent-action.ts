/**
 * The `subagent` action of MewCode's rule files (SPEC H3): runs the named sub-agent through the
 * runner service (TOKENS.SubagentRunner, the subagents plugin) with the rule's prompt — its
 * `{{.field}}` placeholders filled from the payload — followed by the payload itself; the
 * sub-agent's final text becomes the hook's additional context. Without a runner (the subagents
 * plugin disabled) the run is a visible failure, never a silent no-op.
 *
 * A sub-agent started by a hook fires hooks of its own (SubagentStart, its tool calls, SubagentStop);
 * the ids of such agents are kept so their events never start another hook sub-agent (no loop).
 */
import { randomBytes } from 'node:crypto';
import { PERMISSION_MODES, type PermissionMode } from '../../types/permissions.js';
import type { SubagentRunner } from '../../types/subagents.js';
import type { HookResult } from './decision.js';
import { MAX_HOOK_TEXT } from './events.js';
import { renderTemplate } from './template.js';

export const NO_RUNNER = 'this build has no sub-agent runner (the subagents plugin is not loaded), so a subagent action cannot run';

export interface SubagentActionOptions {
  ruleName: string;
  agentName: string;
  prompt: string;
  payload: Record<string, unknown>;
  runner: SubagentRunner | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Ids of the sub-agents hooks started (filled here). */
  hookAgents: Set<string>;
}

/** Whether an event comes from a sub-agent a hook started (its events start no hook sub-agent). */
export function fromHookAgent(payload: Record<string, unknown>, hookAgents: ReadonlySet<string>): boolean {
  return typeof payload.agent_id === 'string' && hookAgents.has(payload.agent_id);
}

export async function runSubagentAction(options: SubagentActionOptions): Promise<HookResult> {
  if (!options.runner) return { kind: 'failed', reason: NO_RUNNER, exit: 'could not run' };
  const agentId = `agent-${randomBytes(4).toString('hex')}`;
  options.hookAgents.add(agentId);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), options.timeoutMs);
  const onAbort = (): void => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const mode = PERMISSION_MODES.find((m) => m === options.payload.mode) as PermissionMode | undefined;
  try {
    const prompt = `${renderTemplate(options.prompt, options.payload)}\n\nThe hook event's payload (JSON):\n${JSON.stringify(options.payload, null, 2)}`;
    const result = await options.runner.run({ prompt, role: options.agentName, description: `hook ${options.ruleName}`, agentId, signal: controller.signal, ...(mode ? { mode } : {}) });
    if (controller.signal.aborted && !options.signal?.aborted) return { kind: 'failed', reason: `the sub-agent did not finish within ${options.timeoutMs} ms`, exit: 'timeout' };
    if (result.isError) return { kind: 'failed', reason: `sub-agent ${options.agentName} ended (${result.endReason}): ${result.text}`, exit: 'subagent error' };
    const text = result.text.length > MAX_HOOK_TEXT ? `${result.text.slice(0, MAX_HOOK_TEXT)}… [cut at ${MAX_HOOK_TEXT} characters]` : result.text;
    return { kind: 'ok', additionalContext: text, exit: 'subagent' };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
