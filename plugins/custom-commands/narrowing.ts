/**
 * `allowed-tools` narrows the one turn a command starts: a call to a tool the file does not name
 * goes to approval (preToolUse `ask`) even where every layer would allow it. It never widens: an
 * `ask` from preToolUse cannot pass a layer's deny, and a named tool is still judged by every
 * layer. The narrowing is set when the command runs and ends with the next prompt's run
 * (armed at that prompt's submission, dropped at the submission after it).
 */
import { fromClaudeToolName, mcpServerPrefix } from '../../sdk/claude-tool-names.js';
import type { ToolUseDecision, ToolUseContext } from '../../types/hooks.js';

interface Narrowing {
  allowed: readonly string[];
  label: string;
  armed: boolean;
  /** Undoes what else the command changed for its turn (its `model`). */
  restore?: () => void;
}

function key(context: { sessionId: string; agentId: string }): string {
  return `${context.sessionId}\0${context.agentId}`;
}

/** Whether an entry (`Read`, `bash`, `Bash(git status:*)`, `Bash(npm test)`, `mcp__server`) covers this call. */
export function entryCovers(entry: string, toolName: string, input: Record<string, unknown>): boolean {
  const match = /^([^()]+?)\s*(?:\((.*)\))?$/s.exec(entry.trim());
  if (!match) return false;
  const name = match[1]!.trim() === 'MultiEdit' ? 'edit_file' : fromClaudeToolName(match[1]!.trim());
  // A whole MCP server, as Claude Code's rules name one: `mcp__server` or `mcp__server__*`.
  const server = mcpServerPrefix(name);
  if (server !== undefined) return toolName.startsWith(server);
  if (name !== toolName) return false;
  const argument = match[2]?.trim();
  if (!argument || argument === '*' || toolName !== 'bash') return true;
  const command = typeof input.command === 'string' ? input.command.trim() : '';
  const prefix = /^(.*?):?\*$/s.exec(argument)?.[1];
  return prefix !== undefined ? command === prefix || command.startsWith(`${prefix} `) || (argument.endsWith(' *') && command.startsWith(prefix)) : command === argument;
}

export class TurnNarrowing {
  readonly #byAgent = new Map<string, Narrowing>();

  set(context: { sessionId: string; agentId: string }, allowed: readonly string[], label: string, restore?: () => void): void {
    // A command run before the last one's turn started: that one's changes are undone first.
    this.#byAgent.get(key(context))?.restore?.();
    if (allowed.length === 0 && !restore) this.#byAgent.delete(key(context));
    else this.#byAgent.set(key(context), { allowed, label, armed: false, ...(restore ? { restore } : {}) });
  }

  /** A prompt is submitted: the command's own prompt arms the narrowing, the next one ends it. */
  promptSubmitted(context: { sessionId: string; agentId: string }): void {
    const entry = this.#byAgent.get(key(context));
    if (!entry) return;
    if (entry.armed) {
      this.#byAgent.delete(key(context));
      entry.restore?.();
    } else entry.armed = true;
  }

  decide(decision: ToolUseDecision, context: ToolUseContext): ToolUseDecision {
    const entry = this.#byAgent.get(key(context));
    if (!entry || !entry.armed || entry.allowed.length === 0 || decision.decision === 'deny' || context.tool?.system) return decision;
    const input = decision.input ?? context.input;
    if (entry.allowed.some((allowed) => entryCovers(allowed, context.call.name, input))) return decision;
    return {
      ...decision,
      decision: 'ask',
      by: 'custom-commands',
      reason: `${entry.label} allows only ${entry.allowed.join(', ')} without approval`,
    };
  }
}
