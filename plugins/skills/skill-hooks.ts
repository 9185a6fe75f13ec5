/**
 * A skill's own `hooks:` (Claude Code's frontmatter key), run by the hooks plugin through
 * TOKENS.ComponentHooks for as long as the skill is active: an inline skill's for the turn it is
 * activated in (a `/name`'s own prompt starts that turn, the next prompt submitted ends it, as its
 * `model:` does), a fork skill's inside its sub-agent only (activation.ts).
 *
 * A project's SKILL.md is the repository's code run on the host like a project's settings hooks:
 * its hooks run only when workspace trust approves the file's exact text as read for this
 * activation (the trust scan lists each project SKILL.md with `hooks:` under `skills`); otherwise
 * a warning says why they are not run, and the skill is still activated (its text is harmless).
 */
import type { ComponentHooks, ComponentHookScope } from '../../types/component-hooks.js';
import type { PromptSubmitContext } from '../../types/hooks.js';
import type { KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { SKILLS_KEY } from '../../config/skill-scan.js';
import { refusalFor } from './additional-roots.js';
import { terminalSafe } from '../../config/terminal-safe.js';
import { parseFrontmatter } from './frontmatter.js';
import type { Skill } from './skill.js';
import { readSkillFile } from './skill-file.js';

interface TurnHooks {
  /** The SKILL.md: a skill activated again in its turn replaces its hooks (they never run twice). */
  file: string;
  dispose: () => void;
  /** A `/name`'s prompt: its submission starts the turn the hooks are for. */
  prompt?: string;
  started: boolean;
}

type AgentKey = { sessionId: string; agentId: string };
const keyOf = (session: AgentKey): string => `${session.sessionId}\u0000${session.agentId}`;

/** Whether the text's frontmatter has a `hooks` key (the text as read for this activation). */
export function hasHooks(text: string): boolean {
  const parsed = parseFrontmatter(text);
  return parsed.ok && parsed.data.hooks !== undefined && parsed.data.hooks !== null;
}

export class SkillHooks {
  readonly #byAgent = new Map<string, TurnHooks[]>();
  readonly #warned = new Set<string>();

  constructor(
    private readonly kernel: KernelApi,
    private readonly trust: () => WorkspaceTrust | undefined,
  ) {}

  private service(): ComponentHooks | undefined {
    return this.kernel.container.isBound(TOKENS.ComponentHooks) ? this.kernel.container.get<ComponentHooks>(TOKENS.ComponentHooks) : undefined;
  }

  private warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.kernel.warn(message);
  }

  /**
   * Start the skill's hooks for `scope` when `text` (the SKILL.md as read now) has any and they may
   * run; returns how to end them (a no-op when none run).
   */
  async start(skill: Skill, text: string, scope: ComponentHookScope): Promise<() => void> {
    const none = (): void => undefined;
    if (!hasHooks(text)) return none;
    const label = `skills: skill "${skill.name}" (${terminalSafe(skill.file)})`;
    const service = this.service();
    if (!service) {
      this.warnOnce(`${label}: its hooks are not run: this build has no hooks plugin`);
      return none;
    }
    const refused = refusalFor(skill, `${label}: its hooks`);
    if (refused) {
      this.warnOnce(refused);
      return none;
    }
    if (skill.root.scope === 'project' && this.trust()?.approves(skill.file, SKILLS_KEY, text) !== true) {
      this.warnOnce(
        `${label}: its hooks are not run: they need this project trusted with the file as it is now (the trust notice lists it): trust the workspace (mewcode --trust-project, or answer the trust question of an interactive session)`,
      );
      return none;
    }
    return service.activate({ file: skill.file, text, scope: skill.root.scope, ...(skill.root.variables ? { variables: skill.root.variables } : {}) }, scope);
  }

  /** An inline skill's hooks: kept for the turn (`prompt`: the `/name`'s prompt that starts it; undefined: the turn running now). */
  forTurn(session: AgentKey, skill: Pick<Skill, 'file'>, dispose: () => void, prompt?: string): void {
    const list = (this.#byAgent.get(keyOf(session)) ?? []).filter((entry) => {
      if (entry.file !== skill.file) return true;
      entry.dispose();
      return false;
    });
    list.push({ file: skill.file, dispose, ...(prompt !== undefined ? { prompt } : {}), started: prompt === undefined });
    this.#byAgent.set(keyOf(session), list);
  }

  /** A prompt is submitted: a `/name`'s own starts its turn; any other ends the hooks of the turn before. */
  promptSubmitted(context: PromptSubmitContext): void {
    const list = this.#byAgent.get(keyOf(context));
    if (!list) return;
    const kept = list.filter((entry) => {
      if (!entry.started && entry.prompt === context.prompt) {
        entry.started = true;
        return true;
      }
      entry.dispose();
      return false;
    });
    if (kept.length > 0) this.#byAgent.set(keyOf(context), kept);
    else this.#byAgent.delete(keyOf(context));
  }

  /** The agent's run or session is over (a sub-agent stopped, a new session started): its skills' hooks end. */
  end(session: AgentKey): void {
    for (const entry of this.#byAgent.get(keyOf(session)) ?? []) entry.dispose();
    this.#byAgent.delete(keyOf(session));
  }

  /** The agent's skills' hooks in every session but `keepSessionId` (a new or another resumed session), as ActiveSkills.clearAgent. */
  endAgent(agentId: string, keepSessionId?: string): void {
    for (const key of [...this.#byAgent.keys()]) {
      const [sessionId, agent] = key.split('\u0000');
      if (agent === agentId && sessionId !== keepSessionId) this.end({ sessionId: sessionId!, agentId });
    }
  }

  /**
   * The problems of each skill's hooks (a bad event, matcher or handler), said once per file and
   * message when the catalog is loaded, naming the file, line and key.
   */
  async check(skills: readonly Skill[]): Promise<void> {
    const withHooks = skills.filter((skill) => skill.extra.hooks !== undefined && skill.extra.hooks !== null);
    if (withHooks.length === 0) return;
    const service = this.service();
    for (const skill of withHooks) {
      if (!service) {
        this.warnOnce(`skills: skill "${skill.name}" (${terminalSafe(skill.file)}): its hooks are not run: this build has no hooks plugin`);
        continue;
      }
      const read = await readSkillFile(skill.file, skill.root);
      if (!read.ok) continue;
      for (const message of await service.check({ file: skill.file, text: read.text, scope: skill.root.scope })) this.warnOnce(message);
    }
  }
}

