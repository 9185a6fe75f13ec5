/**
 * What a command hook's exit code and stdout mean, with Claude Code's semantics:
 * - exit 0: success. stdout that starts with `{` is the structured output (decision, reason,
 *   continue, stopReason, systemMessage, hookSpecificOutput.{permissionDecision,
 *   permissionDecisionReason, updatedInput, additionalContext}); other stdout becomes context
 *   for UserPromptSubmit, UserPromptExpansion and SessionStart only;
 * - exit 2: blocks where the event can block, the reason being the JSON `reason` or stderr;
 * - anything else, a timeout, or a hook that could not run: a failure the user is shown, and the
 *   action goes on (no decision) — unless stdout is a JSON object, which decides whatever the
 *   exit code (as in Claude Code).
 */
import type { CommandOutcome } from './run-command.js';
import { AFTER_TOOL, BLOCKING, MAX_HOOK_TEXT, TELL_ONLY, type ClaudeEvent } from './events.js';

export type HookResultKind = 'ok' | 'blocked' | 'failed';

export interface HookResult {
  kind: HookResultKind;
  /** Why it blocked (exit 2, `decision: "block"`, `permissionDecision: "deny"`), or why it failed. */
  reason?: string;
  /** PreToolUse (allow, ask, deny, defer) and PermissionRequest (allow, deny). */
  permission?: 'allow' | 'ask' | 'deny' | 'defer';
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  /** PostToolUse's `updatedToolOutput`: what the model reads in place of the tool's output (capped). */
  updatedToolOutput?: string;
  /** Shown to the user. */
  systemMessage?: string;
  /** `continue: false`: the run should stop, with this shown to the user. */
  stop?: string;
  /** What the log records: `exit 0`, `exit 2`, `timeout`, `could not run`. */
  exit: string;
}

const cap = (text: string): string => (text.length > MAX_HOOK_TEXT ? `${text.slice(0, MAX_HOOK_TEXT)}… [cut at ${MAX_HOOK_TEXT} characters]` : text);

function structured(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // invalid JSON is plain text
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function interpret(event: ClaudeEvent, outcome: CommandOutcome): HookResult {
  if (outcome.error !== undefined) return { kind: 'failed', reason: `could not run: ${outcome.error}`, exit: 'could not run' };
  if (outcome.timedOut) return { kind: 'failed', reason: 'timed out (its output is discarded, it decides nothing)', exit: 'timeout' };
  // Claude Code honours a JSON object on stdout whatever the exit code.
  const json = structured(outcome.stdout);
  const specific = (typeof json?.hookSpecificOutput === 'object' && json.hookSpecificOutput !== null ? json.hookSpecificOutput : {}) as Record<string, unknown>;
  const result: HookResult = { kind: 'ok', exit: `exit ${outcome.code}` };
  const systemMessage = str(json?.systemMessage);
  if (systemMessage) result.systemMessage = cap(systemMessage);
  // Told only (InstructionsLoaded): exit 2, a decision, context and `continue` are not read; a
  // hook that failed otherwise is still a failure the user is shown.
  if (TELL_ONLY.has(event) && (outcome.code === 0 || outcome.code === 2 || json)) return result;

  if (outcome.code === 2) {
    if (!BLOCKING.has(event)) {
      // Cannot block. PostToolUse(Failure): the tool already ran, its stderr goes to the model with
      // the result (Claude Code's rule); elsewhere it is shown to the user only.
      const stderr = cap(outcome.stderr.trim());
      if (AFTER_TOOL.has(event)) result.additionalContext = stderr;
      else if (stderr) result.systemMessage = stderr;
      return result;
    }
    return { ...result, kind: 'blocked', reason: cap(str(json?.reason) ?? (outcome.stderr.trim() || `the hook exited with 2`)), ...(event === 'PreToolUse' ? { permission: 'deny' as const } : {}) };
  }
  if (outcome.code !== 0 && !json) {
    const firstLine = outcome.stderr.trim().split('\n')[0] ?? '';
    return { ...result, kind: 'failed', reason: `exited with ${outcome.code}${firstLine ? `: ${firstLine}` : ''}` };
  }
  if (!json) {
    const text = outcome.stdout.trim();
    if (text && (event === 'UserPromptSubmit' || event === 'UserPromptExpansion' || event === 'SessionStart')) result.additionalContext = cap(text);
    return result;
  }
  if (json.continue === false) result.stop = cap(str(json.stopReason) ?? 'a hook asked to stop');
  const context = str(specific.additionalContext);
  if (context) result.additionalContext = cap(context);
  if (event === 'PreToolUse') {
    // Deprecated top-level approve/block map to allow/deny (Claude Code does the same).
    const legacy = json.decision === 'approve' ? 'allow' : json.decision === 'block' ? 'deny' : undefined;
    const decision = specific.permissionDecision ?? legacy;
    if (decision === 'allow' || decision === 'ask' || decision === 'deny' || decision === 'defer') result.permission = decision;
    const reason = str(specific.permissionDecisionReason) ?? str(json.reason);
    if (reason) result.reason = cap(reason);
    if (typeof specific.updatedInput === 'object' && specific.updatedInput !== null && !Array.isArray(specific.updatedInput)) result.updatedInput = specific.updatedInput as Record<string, unknown>;
    if (result.permission === 'deny') result.kind = 'blocked';
    return result;
  }
  if (event === 'PermissionRequest') {
    // Claude Code's answer to the question: `decision: {behavior, updatedInput?, message?}`.
    const answer = (typeof specific.decision === 'object' && specific.decision !== null ? specific.decision : {}) as Record<string, unknown>;
    if (answer.behavior === 'allow' || answer.behavior === 'deny') result.permission = answer.behavior;
    const message = str(answer.message);
    if (message) result.reason = cap(message);
    // `interrupt: true` on a deny stops Claude as well: the run ends after this batch of calls.
    if (answer.behavior === 'deny' && answer.interrupt === true) result.stop = cap(message ?? 'a PermissionRequest hook denied the call and stopped the run');
    if (answer.behavior === 'allow' && typeof answer.updatedInput === 'object' && answer.updatedInput !== null && !Array.isArray(answer.updatedInput)) result.updatedInput = answer.updatedInput as Record<string, unknown>;
    return result;
  }
  // Claude Code's newer PostToolUse field (not PostToolUseFailure's: a failed call keeps its error).
  // A value that is not text (an MCP tool's structured output) is given to the model as JSON.
  if (event === 'PostToolUse' && specific.updatedToolOutput !== undefined && specific.updatedToolOutput !== null) {
    const output = typeof specific.updatedToolOutput === 'string' ? specific.updatedToolOutput : JSON.stringify(specific.updatedToolOutput);
    if (output !== undefined) result.updatedToolOutput = cap(output);
  }
  if (json.decision === 'block') {
    result.reason = cap(str(json.reason) ?? 'blocked by a hook');
    if (BLOCKING.has(event) || AFTER_TOOL.has(event)) result.kind = 'blocked';
  }
  return result;
}
