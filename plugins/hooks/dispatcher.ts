/**
 * Runs the rules of one event: every matching rule at once (as Claude Code does), then reads the
 * results in file order, so the first block wins. Async rules run in the background, decide
 * nothing, and are cancelled at shutdown. Every run is logged and counted; every failure is shown.
 */
import { terminalSafe } from '../../config/terminal-safe.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import { interpret, type HookResult } from './decision.js';
import { defaultTimeoutSec, matches, type ClaudeEvent } from './events.js';
import type { HookLog } from './hook-log.js';
import { runCommandHook, type CommandOutcome } from './run-command.js';
import { fromHookAgent, runAgentHook } from './subagent-action.js';

/** Claude Code's default for `agent` hooks, in seconds. */
export const AGENT_HOOK_TIMEOUT_SEC = 60;
import { postHook } from './post-hook.js';
import type { HookRule } from './settings.js';
import type { RuleSubject } from '../../types/services.js';
import { meetsCondition, type Conditions } from './conditions.js';
import type { SubagentRunner } from '../../types/subagents.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';
import { hiddenScriptReason, mustConfine, preventedResult, uncontainedResult, type Confinement, type UntrustedHooks } from './containment.js';
import { headersWithEnv } from './header-env.js';

export interface DispatcherDeps {
  projectRoot: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  log: HookLog;
  sandbox(): Promise<CommandSandbox | undefined>;
  warn(message: string): void;
  notify(message: string): void;
  /** The sub-agent runner for subagent actions and agent hooks (undefined: none in this build). */
  subagents?(): SubagentRunner | undefined;
  /** Ids of sub-agents hooks started, shared by both engines: their events start no other. */
  hookAgents?: Set<string>;
  /** Ids of agent hooks' verifiers while they run (their start and stop fire no hook). */
  verifierAgents?: Set<string>;
  /** While the project is untrusted the user's command hooks run in the OS sandbox or not at all. */
  untrusted: UntrustedHooks;
  /** The managed file that forces the OS sandbox on (then every command hook runs in it or not at all). */
  sandboxForcedBy?(): string | undefined;
}

export interface RuleResult {
  rule: { name: string };
  result: HookResult;
}

export const PROJECT_HTTP_REFUSED = "a project's http hook does not run while the OS sandbox keeps commands off the network";

/** True when the sandbox is active with its network off (then a project's http hook is refused). */
export async function projectHttpRefusal(deps: Pick<DispatcherDeps, 'sandbox'>): Promise<boolean> {
  const sandbox = await deps.sandbox();
  return sandbox !== undefined && sandbox.status().network !== true;
}

/** Every run is logged and counted; a failure is shown at once; a systemMessage too. */
export function recordRun(deps: Pick<DispatcherDeps, 'log' | 'warn' | 'notify'>, run: { name: string; event: string; async: boolean; durationMs: number; result: HookResult; ignored?: string[] }): void {
  const { result } = run;
  const decision = result.kind === 'ok' && result.permission ? result.permission : result.kind;
  deps.log.append({
    time: new Date().toISOString(),
    rule: run.name,
    event: run.event,
    durationMs: Math.round(run.durationMs),
    exit: result.exit,
    decision: run.async && result.kind === 'blocked' ? 'ok (async: cannot block)' : decision,
    ...(result.reason ? { reason: result.reason.slice(0, 500) } : {}),
    ...(run.ignored ? { ignored: `ran contained (untrusted project): ${run.ignored.join(', ')}` } : {}),
  });
  // A hook's (or its server's) words reach the terminal, whichever UI shows them.
  const clean = (text: string): string => terminalSafe(text, true);
  if (result.kind === 'failed') deps.warn(`hook ${run.name} (${run.event}) failed: ${clean(result.reason ?? '')}; going on without it (see ${deps.log.file})`);
  if (result.systemMessage) deps.notify(`hook ${run.name}: ${clean(result.systemMessage)}`);
}

/** Whose event is dispatched: a component's hooks (HookRule.within) run for their agent and its sub-agents only. */
export interface EventAgent {
  sessionId: string;
  agentId: string;
  parentAgentId?: string;
}

/** Whether a rule runs for this event's agent: a settings rule always, a component's only for its own. */
function runsFor(rule: HookRule, who: EventAgent | undefined): boolean {
  const within = rule.within;
  if (within === undefined) return true;
  return who !== undefined && who.sessionId === within.sessionId && (who.agentId === within.agentId || who.parentAgentId === within.agentId);
}

export class HookDispatcher {
  private readonly background = new Set<AbortController>();
  private closed = false;
  /** `once: true` handlers that ran, by session: they do not run again in it. */
  private readonly ranOnce = new Set<string>();

  constructor(
    private readonly rules: readonly HookRule[],
    private readonly deps: DispatcherDeps,
    /** Each handler's `if`, compiled (conditions.ts). */
    private readonly conditions: Conditions = new Map(),
  ) {}

  /** Whether any rule listens to `event` (saves building a payload nobody reads). */
  listens(event: ClaudeEvent): boolean {
    return this.rules.some((rule) => rule.event === event);
  }

  /** Whether there is any rule at all (a sub-agent's transcript is kept for them only). */
  listensAny(): boolean {
    return this.rules.length > 0;
  }

  /**
   * `payload` is built only when a rule matches (most calls match none). `call`: the tool call of a
   * tool event, which a handler's `if` must match for it to run.
   */
  async dispatch(event: ClaudeEvent, subjects: readonly string[], payload: () => Record<string, unknown>, call?: RuleSubject, envFile?: string, who?: EventAgent): Promise<RuleResult[]> {
    if (this.closed) return [];
    let matching = this.rules.filter((rule) => rule.event === event && runsFor(rule, who) && matches(rule.matcher, subjects));
    if (matching.some((rule) => this.conditions.has(rule))) {
      const meets = await Promise.all(matching.map((rule) => meetsCondition(this.conditions, rule, call)));
      matching = matching.filter((_rule, index) => meets[index]);
    }
    if (matching.some((rule) => rule.once)) {
      // Claude Code's `once`: the first run in the session is the only one.
      const session = who?.sessionId ?? '';
      matching = matching.filter((rule) => {
        if (!rule.once) return true;
        const key = `${session}\u0000${rule.file}\u0000${rule.name}`;
        if (this.ranOnce.has(key)) return false;
        this.ranOnce.add(key);
        return true;
      });
    }
    if (matching.length === 0) return [];
    const full = { ...payload(), hook_event_name: event };
    if (matching.some((rule) => rule.handler.type === 'agent') && fromHookAgent(full, this.hookAgents)) matching = matching.filter((rule) => rule.handler.type !== 'agent');
    // A command of the user's own in an untrusted project must not run its code on the host.
    // Under a managed-forced sandbox every command hook runs in it too (containment.ts Confinement).
    const commands = matching.some((rule) => rule.handler.type === 'command');
    const forcedBy = commands ? this.deps.sandboxForcedBy?.() : undefined;
    const commandLines = matching.flatMap((rule) => (rule.handler.type === 'command' && !rule.sandboxed ? [{ command: rule.handler.command, ...(rule.handler.args ? { args: rule.handler.args } : {}) }] : []));
    const confinement: Confinement = { untrusted: commands && (await this.deps.untrusted.mustContain(commandLines)), ...(forcedBy !== undefined ? { forcedBy } : {}) };
    const confine = mustConfine(confinement);
    const sandbox = confine || matching.some((rule) => rule.sandboxed) ? await this.deps.sandbox() : undefined;
    const runs = matching.map(async (rule): Promise<RuleResult | undefined> => {
      const controller = new AbortController();
      // CLAUDE_ENV_FILE (env-file.ts) only for the user's own hooks that run on the host.
      const hostUser = rule.scope === 'user' && !rule.sandboxed && !confine;
      const running = this.runOne(rule, full, rule.sandboxed || confine ? sandbox : undefined, confinement, controller.signal, hostUser ? envFile : undefined);
      if (!rule.handler.async) return running;
      this.background.add(controller);
      void running.finally(() => this.background.delete(controller));
      return undefined;
    });
    return (await Promise.all(runs)).filter((entry): entry is RuleResult => entry !== undefined);
  }

  private get hookAgents(): Set<string> {
    return (this.deps.hookAgents ??= new Set());
  }

  private async runOne(rule: HookRule, payload: Record<string, unknown>, sandbox: CommandSandbox | undefined, confinement: Confinement, signal: AbortSignal, envFile?: string): Promise<RuleResult> {
    const handler = rule.handler;
    const timeoutMs = (handler.timeoutSec ?? (handler.type === 'agent' ? AGENT_HOOK_TIMEOUT_SEC : defaultTimeoutSec(rule.event))) * 1000;
    if (handler.type === 'agent') {
      const started = monotonicMs();
      const verdict = await runAgentHook({
        event: rule.event,
        ruleName: rule.name,
        prompt: handler.prompt,
        payload,
        runner: this.deps.subagents?.(),
        timeoutMs,
        signal,
        hookAgents: this.hookAgents,
        ...(this.deps.verifierAgents ? { verifierAgents: this.deps.verifierAgents } : {}),
        ...(handler.model ? { model: handler.model } : {}),
        ...(handler.agent ? { agent: handler.agent } : {}),
      });
      const result = this.deps.untrusted.agentOutput(verdict);
      recordRun(this.deps, { name: rule.name, event: rule.event, async: handler.async, durationMs: monotonicMs() - started, result });
      return { rule, result };
    }
    if (rule.unrunnable !== undefined) {
      const result = preventedResult(rule.event, `the hook did not run: ${rule.unrunnable} (fix it in ${rule.name})`, handler.async);
      recordRun(this.deps, { name: rule.name, event: rule.event, async: handler.async, durationMs: 0, result });
      return { rule, result };
    }
    const outcome =
      handler.type === 'http'
        ? await this.postFromProject(rule, { url: handler.url, method: 'POST', headers: headersWithEnv(handler.headers, handler.allowedEnvVars, this.deps.env) }, payload, timeoutMs, signal)
        : await runCommandHook({ command: handler.command, ...(handler.args ? { args: handler.args } : {}), payload, projectRoot: this.deps.projectRoot, homeDir: this.deps.homeDir, timeoutMs, env: this.deps.env, sandbox, signal, projectCommand: rule.scope !== 'user', requireSandbox: mustConfine(confinement), ...(rule.plugin || envFile ? { extraEnv: { ...rule.plugin?.env, ...(envFile ? { CLAUDE_ENV_FILE: envFile } : {}) } } : {}) });
    const interpreted = outcome.uncontained
      ? uncontainedResult(rule.event, outcome, rule.handler.async, confinement.forcedBy)
      : outcome.hidden !== undefined
        ? preventedResult(rule.event, hiddenScriptReason(outcome.hidden), rule.handler.async)
        : interpret(rule.event, outcome);
    // What a contained run printed may be the repository's program speaking: stricter only.
    const { result, ignored } = confinement.untrusted && handler.type === 'command' && outcome.hidden === undefined ? this.deps.untrusted.contained(rule.name, rule.event, interpreted) : { result: interpreted, ignored: undefined };
    recordRun(this.deps, { name: rule.name, event: rule.event, async: rule.handler.async, durationMs: outcome.durationMs, result, ...(ignored ? { ignored } : {}) });
    return { rule, result };
  }

  /**
   * A project's http hook is sent from MewCode's own process, past the sandbox: while the sandbox
   * keeps commands off the network it does not run (it would send every prompt and tool input
   * wherever the repository says).
   */
  private async postFromProject(rule: HookRule, action: Parameters<typeof postHook>[0], payload: Record<string, unknown>, timeoutMs: number, signal: AbortSignal): Promise<CommandOutcome> {
    if (rule.sandboxed && (await projectHttpRefusal(this.deps))) return { code: null, stdout: '', stderr: '', timedOut: false, error: PROJECT_HTTP_REFUSED, durationMs: 0 };
    return postHook(action, payload, timeoutMs, signal);
  }

  /** Shutdown: background hooks are cancelled (their process groups killed). */
  close(): void {
    this.closed = true;
    for (const controller of this.background) controller.abort();
    this.background.clear();
  }
}
