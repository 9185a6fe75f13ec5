/**
 * Hooks that run a sub-agent, through the runner service (TOKENS.SubagentRunner, the subagents
 * plugin): MewCode's `subagent` action (rule files) — the named role's final text becomes the
 * hook's context — and Claude Code's `agent` handler (settings files) — a read-only verifier whose
 * `{"ok": false, "reason": …}` answer blocks like exit 2. Without a runner (the subagents plugin
 * disabled) the run is a visible failure, never a silent no-op.
 *
 * A sub-agent started by a hook fires hooks of its own (SubagentStart, its tool calls, SubagentStop);
 * the ids of such agents are kept while they run so their events never start another hook sub-agent (no loop).
 */
import { nodeCrypto } from '../../types/lazy-builtin.js';
import { fromClaudePermissionMode } from '../../sdk/claude-permission-mode.js';
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
  /** Only read-only tools, whatever the role allows (Claude Code's agent hooks verify; they do not act). */
  readOnly?: boolean;
  payload: Record<string, unknown>;
  runner: SubagentRunner | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Ids of the sub-agents hooks started (filled here). */
  hookAgents: Set<string>;
  /** Ids of agent hooks' verifiers (filled here for one): they fire no SubagentStart or SubagentStop. */
  verifierAgents?: Set<string>;
}

/** Run the sub-agent; its final text, or the failed hook result. */
async function runHookSubagent(run: HookSubagentRun): Promise<{ text: string } | { failed: HookResult }> {
  if (!run.runner) return { failed: { kind: 'failed', reason: NO_RUNNER, exit: 'could not run' } };
  const agentId = `agent-${nodeCrypto().randomBytes(4).toString('hex')}`;
  run.hookAgents.add(agentId);
  if (run.readOnly) run.verifierAgents?.add(agentId);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), run.timeoutMs);
  const onAbort = (): void => controller.abort(run.signal?.reason);
  // An already-aborted signal fires no 'abort' event: it is looked at first.
  if (run.signal?.aborted) onAbort();
  else run.signal?.addEventListener('abort', onAbort, { once: true });
  // The mode of the run that fired the event (MewCode's payload says `mode`, Claude's `permission_mode`).
  const mode = fromClaudePermissionMode(run.payload.mode) ?? fromClaudePermissionMode(run.payload.permission_mode);
  try {
    // The runner is another plugin's (any plugin may bind its own): a throw is a failed run (K1).
    const result = await run.runner
      .run({
        prompt: run.prompt,
        role: run.role,
        description: `hook ${run.ruleName}`,
        agentId,
        signal: controller.signal,
        ...(mode ? { mode } : {}),
        ...(run.systemPrompt ? { systemPrompt: [run.systemPrompt] } : {}),
        ...(run.model ? { model: run.model } : {}),
        ...(run.readOnly ? { readOnly: true } : {}),
      })
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (result instanceof Error) return { failed: { kind: 'failed', reason: `sub-agent ${run.role} could not run: ${result.message}`, exit: 'subagent error' } };
    if (controller.signal.aborted && !run.signal?.aborted) return { failed: { kind: 'failed', reason: `the sub-agent did not finish within ${run.timeoutMs} ms`, exit: 'timeout' } };
    if (result.isError) return { failed: { kind: 'failed', reason: `sub-agent ${run.role} ended (${result.endReason}): ${cap(result.text)}`, exit: 'subagent error' } };
    return { text: result.text };
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
    // Its events (tool calls, SubagentStop) all came before its run resolved; kept longer, the
    // set would grow by one id per hook run for the whole session.
    run.hookAgents.delete(agentId);
    run.verifierAgents?.delete(agentId);
  }
}

export interface SubagentActionOptions extends Omit<HookSubagentRun, 'role' | 'systemPrompt' | 'model' | 'readOnly'> {
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

export interface AgentHookOptions extends Omit<HookSubagentRun, 'role' | 'systemPrompt' | 'readOnly'> {
  event: ClaudeEvent;
  /** A role name (MewCode's extension; its prompt and model); Claude Code's agent hooks are read-only verifiers: `explore`, read-only tools whatever the role. */
  agent?: string;
}

/**
 * How much of a verifier's answer is searched for its verdict (its end, where the verdict goes):
 * room for a reason of MAX_HOOK_TEXT, and a bound on the scan (quadratic in the worst case).
 */
const VERDICT_SCAN_CHARS = MAX_HOOK_TEXT + 2_000;

/** The end of the JSON object that opens at `start` (strings and escapes respected), or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The JSON object a verifier answered with: the last one with a boolean `ok` (a code fence is
 * fine). Objects are found by balanced braces, so a reason that quotes code or JSON is still read —
 * a "no" that could not be read would be a hook failure, which lets the call go on.
 */
function verdictOf(answer: string): { ok: boolean; reason?: string } | undefined {
  const text = answer.slice(-VERDICT_SCAN_CHARS);
  let found: { ok: boolean; reason?: string } | undefined;
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = objectEnd(text, start);
    if (end === -1) continue;
    try {
      const value = JSON.parse(text.slice(start, end + 1)) as { ok?: unknown; reason?: unknown };
      if (typeof value === 'object' && value !== null && typeof value.ok === 'boolean') {
        found = { ok: value.ok, ...(typeof value.reason === 'string' ? { reason: value.reason } : {}) };
        start = end; // a verdict's own inner objects are not verdicts
      }
    } catch {
      // prose in braces, not JSON
    }
  }
  return found;
}

/** Claude Code's `agent` handler: `$ARGUMENTS` in the prompt is the payload JSON (appended when absent). */
export async function runAgentHook(options: AgentHookOptions): Promise<HookResult> {
  const json = JSON.stringify(options.payload);
  const prompt = options.prompt.includes('$ARGUMENTS') ? options.prompt.split('$ARGUMENTS').join(json) : `${options.prompt}\n\nThe hook event's input (JSON):\n${json}`;
  const outcome = await runHookSubagent({ ...options, role: options.agent ?? 'explore', prompt, systemPrompt: VERIFIER_PROMPT, readOnly: true });
  if ('failed' in outcome) return outcome.failed;
  const verdict = verdictOf(outcome.text);
  if (!verdict) return { kind: 'failed', reason: `the agent's answer was not {"ok": …} JSON: ${cap(outcome.text.slice(0, 200))}`, exit: 'agent' };
  if (verdict.ok) return { kind: 'ok', exit: 'agent ok' };
  const reason = cap(verdict.reason ?? 'the agent hook said no');
  // Where the event cannot block, the reason is shown to the user (as exit 2 would be).
  if (!BLOCKING.has(options.event)) return { kind: 'ok', systemMessage: reason, exit: 'agent not ok' };
  return { kind: 'blocked', reason, exit: 'agent not ok', ...(options.event === 'PreToolUse' ? { permission: 'deny' as const } : {}) };
}
