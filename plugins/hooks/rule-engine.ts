/**
 * Runs MewCode's own rules (rule-file.ts) for one event (H3–H7): conditions over the payload
 * (a missing field is absent: no match of any kind fires on it, `not` included — the seed's bug
 * fixed), then the action — shell (exit codes and JSON output as for Claude-style hooks), prompt
 * (its text reaches the model with the next request), http (POST of the payload or of a
 * field-only template; a 2xx JSON answer decides like a hook's stdout), subagent (the named
 * sub-agent's final text becomes context, subagent-action.ts). Rules run in file order and
 * the first block wins (H6) — on a blocking event one after another, on the others side by side;
 * `only_once` counts successful runs only; `fail_closed` turns a failure on a blocking event into
 * a block.
 */
import { globMatcher } from '../../sdk/linear-regex/picomatch.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import { interpret, type HookResult } from './decision.js';
import { hiddenScriptReason, mustConfine, preventedResult, uncontainedResult, type Confinement } from './containment.js';
import { PROJECT_HTTP_REFUSED, projectHttpRefusal, recordRun, type DispatcherDeps, type RuleResult } from './dispatcher.js';
import { runCommandHook } from './run-command.js';
import { fromHookAgent, runSubagentAction } from './subagent-action.js';
import { postHook } from './post-hook.js';
import { fieldAt } from './template.js';
import { MEWCODE_BLOCKING, type Atom, type Condition, type Match, type MewcodeEvent, type MewcodeRule } from './rule-file.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';

/** Globs compiled once; matched in linear time, as a rule may be the project's and the value the model's. */
const globs = new Map<string, (value: string) => boolean>();

function globTest(glob: string): (value: string) => boolean {
  let test = globs.get(glob);
  if (!test) {
    test = globMatcher(glob, { dot: true });
    globs.set(glob, test);
  }
  return test;
}

function matchValue(match: Match, value: string): boolean {
  switch (match.type) {
    case 'exact':
      return value === match.value;
    case 'regex':
      return match.pattern.test(value);
    case 'glob':
      return globTest(match.value)(value);
    case 'not':
      return !matchValue(match.inner, value);
  }
}

function atomHolds(atom: Atom, payload: unknown): boolean {
  const value = fieldAt(payload, atom.field);
  return value !== undefined && matchValue(atom.match, value);
}

export function conditionHolds(condition: Condition | undefined, payload: unknown): boolean {
  if (!condition || condition.atoms.length === 0) return true;
  return condition.mode === 'all_of' ? condition.atoms.every((atom) => atomHolds(atom, payload)) : condition.atoms.some((atom) => atomHolds(atom, payload));
}

export class RuleEngine {
  /** only_once: the rules that ran successfully, per session. */
  private readonly fired = new Map<string, Set<string>>();
  private readonly background = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly rules: readonly MewcodeRule[],
    private readonly deps: DispatcherDeps,
  ) {}

  /** Sub-agents started by hooks (shared with the settings dispatcher): their own events start no other one. */
  private get hookAgents(): Set<string> {
    return (this.deps.hookAgents ??= new Set());
  }

  listens(event: MewcodeEvent): boolean {
    return this.rules.some((rule) => rule.event === event);
  }

  async dispatch(event: MewcodeEvent, sessionId: string, payload: () => Record<string, unknown>): Promise<RuleResult[]> {
    if (this.closed || !this.listens(event)) return [];
    const full = { event, ...payload() };
    const fired = this.fired.get(sessionId) ?? new Set<string>();
    this.fired.set(sessionId, fired);
    let sandbox: CommandSandbox | undefined;
    // A shell action of the user's own in an untrusted project must not run its code on the host.
    let contain: boolean | undefined;
    // Under a managed-forced sandbox every shell action runs in it too (containment.ts Confinement).
    const forcedBy = this.deps.sandboxForcedBy?.();
    const confinement = (): Confinement => ({ untrusted: contain === true, ...(forcedBy !== undefined ? { forcedBy } : {}) });
    const placed = (rule: MewcodeRule): CommandSandbox | undefined => (rule.sandboxed || contain || forcedBy !== undefined ? sandbox : undefined);
    const due: MewcodeRule[] = [];
    for (const rule of this.rules) {
      if (rule.event !== event || (rule.onlyOnce && fired.has(rule.name)) || !conditionHolds(rule.if, full)) continue;
      if (rule.action.type === 'subagent' && fromHookAgent(full, this.hookAgents)) continue;
      // Reserved while it runs (a concurrent batch must not run it too); released if it fails.
      if (rule.onlyOnce) fired.add(rule.name);
      if (rule.action.type === 'shell') {
        // Contained once the project is untrusted, or this action's project code changed this session.
        contain = (await this.deps.untrusted.mustContain(rule.sandboxed ? [] : [{ command: rule.action.command }])) || contain === true;
        if (rule.sandboxed || contain || forcedBy !== undefined) sandbox ??= await this.deps.sandbox();
      }
      if (!rule.async) {
        due.push(rule);
        continue;
      }
      const controller = new AbortController();
      this.background.add(controller);
      void this.runOne(rule, full, placed(rule), confinement())(controller.signal).then((result) => {
        this.background.delete(controller);
        if (!result.ranOk) fired.delete(rule.name);
      });
    }
    const finish = (rule: MewcodeRule, result: HookResult & { ranOk: boolean }): RuleResult => {
      if (!result.ranOk) fired.delete(rule.name);
      return { rule, result };
    };
    if (!MEWCODE_BLOCKING.has(event)) {
      // Nothing to block: the rules run side by side, their results kept in file order.
      return Promise.all(due.map(async (rule) => finish(rule, await this.runOne(rule, full, placed(rule), confinement())(undefined))));
    }
    const results: RuleResult[] = [];
    for (const [index, rule] of due.entries()) {
      const entry = finish(rule, await this.runOne(rule, full, placed(rule), confinement())(undefined));
      results.push(entry);
      if (entry.result.kind === 'blocked') {
        // H6: the first block wins, later rules do not run (and so keep their only_once turn).
        for (const skipped of due.slice(index + 1)) if (skipped.onlyOnce) fired.delete(skipped.name);
        break;
      }
    }
    return results;
  }

  private runOne(rule: MewcodeRule, payload: Record<string, unknown>, sandbox: CommandSandbox | undefined, confinement: Confinement): (signal: AbortSignal | undefined) => Promise<HookResult & { ranOk: boolean }> {
    return async (signal) => {
      const started = monotonicMs();
      let result: HookResult;
      let ran = true;
      let ignored: string[] | undefined;
      if (rule.action.type === 'prompt') {
        result = { kind: 'ok', additionalContext: rule.action.text, exit: 'prompt' };
      } else if (rule.action.type === 'subagent') {
        const { agentName, prompt } = rule.action;
        result = this.deps.untrusted.agentOutput(await runSubagentAction({ ruleName: rule.name, agentName, prompt, payload, runner: this.deps.subagents?.(), timeoutMs: rule.timeoutMs, hookAgents: this.hookAgents, ...(signal ? { signal } : {}) }));
      } else {
        const outcome =
          rule.action.type === 'shell'
            ? await runCommandHook({ command: rule.action.command, payload, projectRoot: this.deps.projectRoot, homeDir: this.deps.homeDir, timeoutMs: rule.timeoutMs, env: this.deps.env, sandbox, projectCommand: rule.sandboxed, requireSandbox: mustConfine(confinement), ...(signal ? { signal } : {}) })
            : rule.sandboxed && (await projectHttpRefusal(this.deps))
              ? { code: null, stdout: '', stderr: '', timedOut: false, error: PROJECT_HTTP_REFUSED, durationMs: 0 }
              : await postHook(rule.action, payload, rule.timeoutMs, signal);
        ran = !outcome.uncontained;
        result = outcome.uncontained
          ? uncontainedResult(rule.event, outcome, rule.async, confinement.forcedBy)
          : outcome.hidden !== undefined
            ? preventedResult(rule.event, hiddenScriptReason(outcome.hidden), rule.async)
            : interpret(rule.event === 'PreToolUse' || rule.event === 'UserPromptSubmit' || rule.event === 'PostToolUse' || rule.event === 'SessionStart' ? rule.event : 'Notification', outcome);
        // What a contained run printed may be the repository's program speaking: stricter only.
        if (confinement.untrusted && rule.action.type === 'shell' && !outcome.uncontained && outcome.hidden === undefined) ({ result, ignored } = this.deps.untrusted.contained(rule.name, rule.event, result));
      }
      const blocking = MEWCODE_BLOCKING.has(rule.event);
      if (result.kind === 'blocked' && !blocking && rule.event !== 'PostToolUse') result = { ...result, kind: 'ok' }; // H1: cannot block
      const ranOk = ran && result.kind !== 'failed'; // before fail_closed: a failure (or no run) is not a successful run
      if (result.kind === 'failed' && rule.failClosed && blocking) {
        result = { ...result, kind: 'blocked', reason: `the hook failed and is fail_closed: ${result.reason}`, ...(rule.event === 'PreToolUse' ? { permission: 'deny' as const } : {}) };
      }
      recordRun(this.deps, { name: rule.name, event: rule.event, async: rule.async, durationMs: monotonicMs() - started, result, ...(ignored ? { ignored } : {}) });
      return { ...result, ranOk };
    };
  }

  close(): void {
    this.closed = true;
    for (const controller of this.background) controller.abort();
    this.background.clear();
  }
}
