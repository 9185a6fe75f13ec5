/**
 * An inline skill's `model:` sends the turn it is activated for to that model, as a command
 * file's `model:` does (Claude Code's "model to use while the skill runs"): `/name` switches before
 * its prompt is sent, `load_skill` switches for the rest of the turn it is called in. The session's
 * model comes back at the next prompt the user submits (a `/name`'s own prompt starts its turn,
 * any other ends it). Claude Code's aliases (`haiku`…) and configured provider names are resolved
 * as for a sub-agent (sdk/model-choice.ts).
 */
import { chooseModel } from '../../sdk/model-choice.js';
import type { PromptSubmitContext } from '../../types/hooks.js';
import type { KernelApi } from '../../types/plugin.js';
import type { AgentSession } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import { terminalSafe } from '../../config/terminal-safe.js';

interface Switched {
  restore: () => void;
  /** A `/name`'s prompt: its submission starts the turn the model is for. */
  prompt?: string;
  started: boolean;
}

const keyOf = (session: { sessionId: string; agentId: string }): string => `${session.sessionId}\u0000${session.agentId}`;

export class SkillTurnModels {
  readonly #byAgent = new Map<string, Switched>();

  constructor(private readonly kernel: KernelApi) {}

  /**
   * Switch `session` to the skill's model. `prompt`: the `/name` prompt whose turn it is for
   * (undefined: the turn running now). Returns an error message when the model cannot be used.
   */
  apply(session: AgentSession, skill: { name: string; file: string; model?: string }, prompt?: string): string | undefined {
    if (!skill.model) return undefined;
    const label = `skill "${skill.name}" (${terminalSafe(skill.file)})`;
    // A skill activated earlier in the turn: its switch is undone first, so the session's own model is what comes back.
    this.drop(session);
    const previous = session.currentProvider();
    const registry = this.kernel.container.isBound(TOKENS.ProviderRegistry) ? this.kernel.container.get(TOKENS.ProviderRegistry).configured() : [];
    const choice = chooseModel(skill.model, registry, { provider: previous.id, model: previous.model }, 'the skill');
    if (choice.notice) this.kernel.notify('notice', `${label}: ${choice.notice}`);
    const selection = choice.selection;
    if (selection.provider === previous.id && (selection.model ?? previous.model) === previous.model) return undefined;
    try {
      session.switchModel(selection);
    } catch (error) {
      return `${label}: model "${skill.model}" cannot be used: ${(error as Error).message}`;
    }
    this.#byAgent.set(keyOf(session), {
      restore: () => {
        try {
          session.switchModel({ provider: previous.id, model: previous.model });
        } catch (error) {
          this.kernel.warn(`${label}: the model could not be switched back to ${previous.model}: ${(error as Error).message}`);
        }
      },
      ...(prompt !== undefined ? { prompt } : {}),
      started: prompt === undefined,
    });
    return undefined;
  }

  drop(session: { sessionId: string; agentId: string }): void {
    const switched = this.#byAgent.get(keyOf(session));
    if (!switched) return;
    this.#byAgent.delete(keyOf(session));
    switched.restore();
  }

  /** A prompt is submitted: a `/name`'s own starts its turn; any other ends the switch. */
  promptSubmitted(context: PromptSubmitContext): void {
    const switched = this.#byAgent.get(keyOf(context));
    if (!switched) return;
    if (!switched.started && switched.prompt === context.prompt) switched.started = true;
    else this.drop(context);
  }
}
