/**
 * Hooks that run a sub-agent, through the runner service (TOKENS.SubagentRunner, the subagents
 * plugin): MewCode's `subagent` action (rule files) — the named role's final text becomes the
 * hook's context — and Claude Code's `agent` handler (settings files) — a read-only verifier whose
 * `{"ok": false, "reason": …}` answer blocks like exit 2. Without a runner (the subagents plugin
 * disabled) the run is a visible failure, never a silent no-op.
 *
 * A sub-agent started by a hook fires hooks of its own (SubagentStart, its tool calls, SubagentStop);
 * the ids of such agents are kept so their events never start another hook sub-agent (no loop).
 */
import { randomBytes } from 'node:crypto';
import { PERMISSION_MODES } from '../../types/permissions.js';
import type { SubagentRunner } from '../../types/subagents.js';
import type { HookResult } from './decision.js';
import { BLOCKING, MAX_HOOK_TEXT, type ClaudeEvent } from './events.js';
import { renderTemplate } from './template.js';

export const NO_RUNNER = 'this build has no sub-agent runner (the subagents plugin is not loaded), so a sub-agent hook cannot run';

const cap = (text: string): string => (text.length > MAX_HOOK_TEXT ? `${text.slice(0, MAX_HOOK_TEXT)}… [cut at ${MAX_HOOK_TEXT} characters]` : text);

/** Whether an event comes from a sub-agent a hook started (its events start no hook sub-agent). */
export function fromHookAgent(payload: Record<string, unknown>, hookAgents: ReadonlySet<string>): boolean {
  return typeof payload.agent_id === 'string' && hookAgents.has(payload.agent_id);
}

interface HookSubagentRun {
  ruleName: string;
  role: string;
  prompt: string;
  systemPrompt?: string;
  model?: string;
  payload: Record<string, unknown>;
  runner: SubagentRunner | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Ids of the sub-agents hooks started (filled here). */
  hookAgents: Set<string>;
}

/** Run the sub-agent; its final text, or the failed hook result. */
async function runHookSubagent(run: HookSubagentRun): Promise<{ text: string } | { failed: HookResult }> {
  if (!run.runner) return { failed: { kind: 'failed', reason: NO_RUNNER, exit: 'could not run' } };
  const agentId = `agent-${randomBytes(4).toString('hex')}`;
  run.hookAgents.add(agentId);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), run.timeoutMs);
  const onAbort = (): void => controller.abort(run.signal?.reason);
  run.signal?.addEventListener('abort', onAbort, { once: true });
  // The mode of the run that fired the event (MewCode's payload says `mode`, Claude's `permission_mode`).
  const mode = PERMISSION_MODES.find((m) => m === run.payload.mode || m === run.payload.permission_mode);
  try {
    const result = await run.runner.run({
      prompt: run.prompt,
      role: run.role,
      description: `hook ${run.ruleName}`,
      agentId,
      signal: controller.signal,
      ...(mode ? { mode } : {}),
      ...(run.systemPrompt ? { systemPrompt: [run.systemPrompt] } : {}),
      ...(run.model ? { model: run.model } : {}),
    });
    if (controller.signal.aborted && !run.signal?.aborted) return { failed: { kind: 'failed', reason: `the sub-agent did not finish within ${run.timeoutMs} ms`, exit: 'timeout' } };
    if (result.isError) return { failed: { kind: 'failed', reason: `sub-agent ${run.role} ended (${result.endReason}): ${result.text}`, exit: 'subagent error' } };
    return { text: result.text };
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
  }
}

export interface SubagentActionOptions extends Omit<HookSubagentRun, 'role' | 'systemPrompt' | 'model'> {
  agentName: string;
}

/** MewCode's `subagent` action: the prompt (placeholders filled) and the payload; the final text becomes context. */
export async function runSubagentAction(options: SubagentActionOptions): Promise<HookResult> {
  const prompt = `${renderTemplate(options.prompt, options.payload)}\n\nThe hook event's payload (JSON):\n${JSON.stringify(options.payload, null, 2)}`;
  const outcome = await runHookSubagent({ ...options, role: options.agentName, prompt });
  if ('failed' in outcome) return outcome.failed;
  return { kind: 'ok', additionalContext: cap(outcome.text), exit: 'subagent' };
}

const VERIFIER_PROMPT =
  'You are verifying an event for a hook. Investigate with your tools as needed, then answer with only a JSON object: {"ok": true} to let it proceed, or {"ok": false, "reason": "<what is wrong, addressed to the agent>"} to stop it.';

export interface AgentHookOptions extends Omit<HookSubagentRun, 'role' | 'systemPrompt'> {
  event: ClaudeEvent;
  /** A role name (MewCode's extension); Claude Code's agent hooks are read-only verifiers: `explore`. */
  agent?: string;
}

/** The JSON object a verifier answered with (the last one in its text; a code fence is fine). */
function verdictOf(text: string): { ok: boolean; reason?: string } | undefined {
  const candidates = text.match(/\{[^{}]*\}/g) ?? [];
  for (const candidate of candidates.reverse()) {
    try {
      const value = JSON.parse(candidate) as { ok?: unknown; reason?: unknown };
      if (typeof value.ok === 'boolean') return { ok: value.ok, ...(typeof value.reason === 'string' ? { reason: value.reason } : {}) };
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Claude Code's `agent` handler: `$ARGUMENTS` in the prompt is the payload JSON (appended when absent). */
export async function runAgentHook(options: AgentHookOptions): Promise<HookResult> {
  const json = JSON.stringify(options.payload);
  const prompt = options.prompt.includes('$ARGUMENTS') ? options.prompt.split('$ARGUMENTS').join(json) : `${options.prompt}\n\nThe hook event's input (JSON):\n${json}`;
  const outcome = await runHookSubagent({ ...options, role: options.agent ?? 'explore', prompt, systemPrompt: VERIFIER_PROMPT });
  if ('failed' in outcome) return outcome.failed;
  const verdict = verdictOf(outcome.text);
  if (!verdict) return { kind: 'failed', reason: `the agent's answer was not {"ok": …} JSON: ${cap(outcome.text.slice(0, 200))}`, exit: 'agent' };
  if (verdict.ok) return { kind: 'ok', exit: 'agent ok' };
  const reason = cap(verdict.reason ?? 'the agent hook said no');
  // Where the event cannot block, the reason is shown to the user (as exit 2 would be).
  if (!BLOCKING.has(options.event)) return { kind: 'ok', systemMessage: reason, exit: 'agent not ok' };
  return { kind: 'blocked', reason, exit: 'agent not ok', ...(options.event === 'PreToolUse' ? { permission: 'deny' as const } : {}) };
}
