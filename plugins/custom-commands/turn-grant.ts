/**
 * A command's `allowed-tools` pre-approves those tools for the one turn the command starts, as in
 * Claude Code: a call they cover that the permission mode would ask about runs without asking
 * (preToolUse `allow`). Nothing is restricted: a call they do not cover is judged as it would be
 * without the command.
 *
 * A preToolUse allow answers only the mode's question (the kernel's rule): the blacklist, the
 * sandbox, deny and ask rules (the organisation's managed rules too), protected paths, a policy's
 * layer and a PreToolUse hook's ask or deny all still hold. Only the agent that ran the command is
 * covered (not its sub-agents).
 *
 * Lifetime (its own `hooks:` share it): set when the command runs (so its own `!` lines are
 * covered), kept for the turn its prompt starts, and dropped at the next prompt submitted. The turn
 * starts when the command's prompt enters the history: the typed line passed userPromptSubmit
 * before the command ran, so its prompt normally does not pass it again (one run without that
 * judgement does, which starts the turn too). A command that fails drops it at once; a submitted
 * prompt that is not the command's (its turn never started: a hook blocked it) drops it too, so a
 * grant never reaches another turn.
 *
 * Under the organisation's `allow_managed_rules_only` no allow but the organisation's applies (not
 * the user's rules, not --allowedTools), and a command file is the user's or the project's: its
 * `allowed-tools` pre-approve nothing then (said once per command), and each call is judged as
 * without the command.
 */
import type { MessageAppendedContext, PromptSubmitContext, ToolUseContext, ToolUseDecision } from '../../types/hooks.js';
import type { Message } from '../../types/messages.js';
import type { PermissionTarget } from '../../types/tools.js';
import { GrantSet } from './grant-match.js';
import type { DenyList, ToolDenials } from '../../sdk/tool-denials.js';

interface Grant {
  grants: GrantSet;
  label: string;
  /** The prompt the command sends (set once it succeeded); its submission starts the turn. */
  prompt?: string;
  started: boolean;
  /** Undoes what else the command changed for its turn (its `model`). */
  restore?: () => void;
  /** Ends the command's own hooks (they last as long as the grant). */
  endHooks?: () => void;
  /** Its `disallowed-tools`: denied for the same lifetime, to the agent and its sub-agents, whatever else allows. */
  denies?: DenyList;
}

type AgentKey = { sessionId: string; agentId: string };

function key(context: AgentKey): string {
  return `${context.sessionId}\0${context.agentId}`;
}

/** `allow_managed_rules_only` in force: where it is set, and how to say a command's allowed-tools are not used. */
export interface ManagedRulesOnly {
  where: string;
  warn(message: string): void;
}

export class TurnGrants {
  readonly #byAgent = new Map<string, Grant>();
  readonly #warned = new Set<string>();

  constructor(
    private readonly home: { projectRoot: string; homeDir: string },
    private readonly rulesOnly?: ManagedRulesOnly,
    private readonly denials?: ToolDenials,
  ) {}

  /** The command starts running: its entries hold for its own `!` lines from now on. */
  begin(context: AgentKey, entries: readonly string[], label: string, denies?: DenyList, endHooks?: () => void): void {
    this.drop(context);
    if (this.rulesOnly && entries.length > 0) {
      if (!this.#warned.has(label)) {
        this.#warned.add(label);
        this.rulesOnly.warn(
          `${label}: allowed-tools (${entries.join(', ')}) pre-approve nothing: the organisation's managed settings apply only their own permission rules (${this.rulesOnly.where}: allow_managed_rules_only); each call is judged as without the command`,
        );
      }
      entries = [];
    }
    // Kept even when empty: the grant also carries what the command changed for its turn (its model).
    this.#byAgent.set(key(context), { grants: new GrantSet(entries), label, started: false, ...(denies && denies.entries.length > 0 ? { denies } : {}), ...(endHooks ? { endHooks } : {}) });
  }

  /** The command succeeded: `prompt` is what it sends, `restore` undoes its model for the turn after. */
  ready(context: AgentKey, prompt: string, restore?: () => void): void {
    const grant = this.#byAgent.get(key(context));
    if (!grant) {
      restore?.();
      return;
    }
    grant.prompt = prompt;
    if (restore) grant.restore = restore;
  }

  /** The command stopped without a prompt, or its turn is over. */
  drop(context: AgentKey): void {
    const grant = this.#byAgent.get(key(context));
    if (!grant) return;
    this.#byAgent.delete(key(context));
    grant.restore?.();
    grant.endHooks?.();
  }

  /** A prompt is submitted: the command's own starts its turn; any other ends the grant. */
  promptSubmitted(context: PromptSubmitContext): void {
    const grant = this.#byAgent.get(key(context));
    if (!grant) return;
    if (!grant.started && grant.prompt !== undefined && context.prompt === grant.prompt) grant.started = true;
    else this.drop(context);
  }

  /** A message entered an agent's history: the command's own prompt starts its turn. */
  messageAppended(message: Message, context: MessageAppendedContext): void {
    const grant = this.#byAgent.get(key(context));
    if (!grant || grant.started || grant.prompt === undefined || message.role !== 'user' || !message.prompt) return;
    const first = message.content[0];
    if (first?.type === 'text' && first.text === grant.prompt) grant.started = true;
  }

  async decide(decision: ToolUseDecision, context: ToolUseContext): Promise<ToolUseDecision> {
    // `disallowed-tools` first: a deny the grant's own allow (or anyone's) never lifts. A
    // sub-agent started during the command's turn is held to it too.
    const denies = [this.#byAgent.get(key(context))?.denies, context.parentAgentId === undefined ? undefined : this.#byAgent.get(key({ sessionId: context.sessionId, agentId: context.parentAgentId }))?.denies].filter(
      (list): list is DenyList => list !== undefined,
    );
    if (denies.length > 0 && this.denials) {
      const denied = await this.denials.decide(decision, context, denies);
      if (denied.decision === 'deny') return denied;
    }
    const grant = this.#byAgent.get(key(context));
    // Another tap's answer stands (an allow needs nothing more; an ask or a deny is never lowered).
    if (!grant || grant.grants.empty || decision.decision !== undefined || !context.tool || context.tool.system) return decision;
    // Before its turn, only the command's own calls run (its `!` lines, between begin and ready).
    if (!grant.started && grant.prompt !== undefined) return decision;
    const input = decision.input ?? context.input;
    let target: PermissionTarget | undefined;
    try {
      target = await context.tool.permissionTarget?.(input);
    } catch {
      return decision;
    }
    const covered = await grant.grants.covers({ toolName: context.call.name, input, target, ...this.home });
    if (!covered) return decision;
    return { ...decision, decision: 'allow', by: 'custom-commands', reason: `pre-approved for this turn by ${grant.label} (allowed-tools: ${grant.grants.entries.join(', ')})` };
  }
}
