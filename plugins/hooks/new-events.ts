/**
 * The payload parts of Claude Code's newer events that MewCode has a moment for: PostCompact's
 * summary, PermissionDenied's reason, StopFailure's error and PostToolBatch's calls, each read
 * from what the kernel's hook gives (runtime.ts taps them).
 */
import type { PermissionDecidedContext } from '../../types/hooks.js';
import type { AssistantMessage, Message, ToolMessage } from '../../types/messages.js';
import { claudeToolInput, claudeToolName } from './events.js';

/** The summary a compaction wrote (`<summary>…</summary>` in its first message), if it can be found. */
export function compactSummary(history: readonly Message[] | undefined): string | undefined {
  for (const message of history ?? []) {
    if (message.role !== 'user') continue;
    for (const block of message.content) {
      if (block.type !== 'text') continue;
      const found = /<summary>\n?([\s\S]*?)\n?<\/summary>/.exec(block.text);
      if (found) return found[1];
    }
  }
  return undefined;
}

/**
 * A refusal PermissionDenied reports: a rule's, the mode's, the path sandbox's, or the user's (or
 * nobody's) answer no. Not a PreToolUse or PermissionRequest hook's own deny: the hooks decided
 * that themselves. Undefined when the call runs or a hook refused it.
 */
export function deniedReason(decided: PermissionDecidedContext): string | undefined {
  if (decided.allowed) return undefined;
  if (decided.verdict.layer.startsWith('hook:') || decided.approval?.answeredBy.startsWith('hook ')) return undefined;
  if (decided.approval) return decided.approval.reason ?? `not approved (answered by ${decided.approval.answeredBy})`;
  return decided.verdict.reason ?? `denied by ${decided.verdict.layer}`;
}

/** StopFailure's `error`: the failure's message, without the note's wrapping `(The request failed: …)`. */
export function failureMessage(finalText: string): string {
  const wrapped = /^\((?:The request failed|The run stopped): ([\s\S]*)\)$/.exec(finalText.trim());
  return wrapped ? wrapped[1]! : finalText;
}

/**
 * A batch just finished: the request's history ends with the tool results of its last model turn.
 * Returns the key of that batch (its first call's id) and each call with what the model reads.
 */
export function finishedBatch(messages: readonly Message[], projectRoot: string, homeDir: string): { key: string; calls: Record<string, unknown>[] } | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'tool' || last.results.length === 0) return undefined;
  const turn = messages.at(-2);
  const calls = turn?.role === 'assistant' ? (turn as AssistantMessage).toolCalls : [];
  return {
    key: (last as ToolMessage).results[0]!.toolCallId,
    calls: (last as ToolMessage).results.map((result) => {
      const call = calls.find((candidate) => candidate.id === result.toolCallId);
      const name = call?.name ?? 'unknown';
      return { tool_name: claudeToolName(name), tool_input: claudeToolInput(name, parsed(call?.input), projectRoot, homeDir), tool_use_id: result.toolCallId, tool_response: result.content };
    }),
  };
}

function parsed(input: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(input ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
