/**
 * The user's own command hooks (~/.mewcode settings and rule files, ~/.claude/settings.json, the
 * user's Claude Code plugins) run on the host in the project, as Claude Code runs them. In an
 * untrusted project that would run the repository's code on the host through them: `npx
 * prettier` finds its planted node_modules, prettier or eslint load its config files, `uv run` or
 * `bundle exec` its project. So while the project is untrusted they run inside the OS command
 * sandbox (the path `sandbox: true` takes: project writable, the rest read-only, no network,
 * credentials hidden), and the run says so once.
 *
 * Where no sandbox can contain them (no bubblewrap, user namespaces refused, `sandbox: false`)
 * they do not run: a working directory in the home would not be enough (prettier still reads the
 * project's config for a project file). Not running must not open what the hook guards, so a
 * PreToolUse or UserPromptSubmit hook that could not run refuses the call or the prompt it
 * would have judged, saying why and how to trust the project; on other events nothing is
 * judged, and the hook is only logged as not run. Trusted projects keep the old behaviour, with one
 * exception: trust covers the project as it was, and commands in the OS sandbox may write it. A
 * hook whose command would run project code that changed during this session (the files its
 * words name, a `node_modules/.bin` program, what they load: `npx prettier` finding one planted
 * there) runs contained from then on, as in an untrusted project, said once per hook.
 *
 * What a contained run prints is not the user's answer either: the program that printed it may be
 * the repository's (`npx prettier` ran the planted one). So its output can only make things
 * stricter (containedOutput below): it may deny, ask, block or stop, never allow (an allow would
 * answer the permission mode's question for the user), rewrite the tool's input, or add context
 * to the model's request with the user's authority.
 */
import type { CommandSandbox } from '../../types/sandbox.js';
import type { HookResult } from './decision.js';
import { AFTER_TOOL } from './events.js';

/** The events where a hook that could not run refuses instead (a skipped guard is a bypassed guard). */
const REFUSING: ReadonlySet<string> = new Set(['PreToolUse', 'UserPromptSubmit', 'UserPromptExpansion']);

/** A command hook as it runs: a shell line, or a program and its arguments (exec form). */
export interface HookCommand {
  command: string;
  args?: readonly string[];
}

const HOW_TO_TRUST = 'trust the project (--trust-project, MEWCODE_TRUST_PROJECT=1 or the start-up dialog) to run your hooks as before';

export class UntrustedHooks {
  private told = false;

  constructor(
    private readonly deps: {
      trusted(): boolean;
      sandbox(): Promise<CommandSandbox | undefined>;
      /** Why no sandbox is active (for the notice). */
      sandboxReason(): string;
      notify(message: string): void;
      /** The first file of project code a hook's command would run that changed during this session (trusted projects), or undefined. */
      codeChanged?(hook: HookCommand): string | undefined;
    },
  ) {}

  private readonly toldChanged = new Set<string>();

  private toldIgnored = false;

  /**
   * Whether the user's command hooks must run contained now (the project is untrusted). Asked
   * each time: a project trusted during the run (the dialog) runs them as before from then on.
   * The first time it is true the run is told what that means.
   */
  async mustContain(commands: readonly HookCommand[] = []): Promise<boolean> {
    if (this.deps.trusted()) return this.codeChanged(commands);
    if (!this.told) {
      this.told = true;
      const sandbox = await this.deps.sandbox();
      this.deps.notify(
        sandbox
          ? `hooks: this project is not trusted, so your own hooks run inside the OS sandbox (the project writable but for its protected files — .claude, .mewcode, .mcp.json, .git/config —, the rest read-only, no network; the session's transcript readable) until it is; ${HOW_TO_TRUST}`
          : `hooks: this project is not trusted and no OS sandbox can contain your hooks here (${this.deps.sandboxReason()}), so they do not run in it: a PreToolUse or UserPromptSubmit hook refuses what it would have judged; ${HOW_TO_TRUST}`,
      );
    }
    return true;
  }

  /** Whether one of `commands` would run project code changed during this session (told once per command). */
  private codeChanged(commands: readonly HookCommand[]): boolean {
    let changed = false;
    for (const hook of commands) {
      const file = this.deps.codeChanged?.(hook);
      if (file === undefined) continue;
      changed = true;
      const command = [hook.command, ...(hook.args ?? [])].join(' ');
      if (this.toldChanged.has(command)) continue;
      this.toldChanged.add(command);
      this.deps.notify(
        `hooks: your hook \`${command.length > 80 ? `${command.slice(0, 77)}...` : command}\` would run project code that changed during this session (${file}), which commands in the OS sandbox may have written, so it runs inside the OS sandbox from now on, as in an untrusted project (its output can refuse, not allow)`,
      );
    }
    return changed;
  }

  /**
   * A hook sub-agent's words (a `subagent` action's context, an `agent` hook's reason): in an
   * untrusted project it read the repository's files, which may speak through it (prompt
   * injection), so what it says is marked as possibly the repository's. It runs no code on the
   * host (its tools pass the permission chain and bash the sandbox), so nothing else changes.
   */
  agentOutput(result: HookResult): HookResult {
    // A failure's reason is MewCode's own (no runner, a timeout), not the sub-agent's.
    if (this.deps.trusted() || result.kind === 'failed') return result;
    const marked: HookResult = { ...result };
    for (const key of ['additionalContext', 'reason', 'stop', 'systemMessage'] as const) if (marked[key]) marked[key] = `${AGENT_MARK} ${marked[key]}`;
    return marked;
  }

  /**
   * A contained hook's output, stricter only (containedOutput); what it had to ignore is returned
   * for the log, and the run is told once.
   */
  contained(rule: string, event: string, result: HookResult): { result: HookResult; ignored?: string[] } {
    const kept = containedOutput(event, result);
    if (kept.ignored.length === 0) return { result: kept.result };
    if (!this.toldIgnored) {
      this.toldIgnored = true;
      this.deps.notify(
        `hooks: hook ${rule} (${event}) ran inside the OS sandbox on this untrusted project's code, so its ${kept.ignored.join(', ')} was ignored: there a hook's output can refuse, ask or block, never allow, change the input or add context (logged in .mewcode/hooks.log); ${HOW_TO_TRUST}`,
      );
    }
    return kept;
  }
}

/** A hook sub-agent's words in an untrusted project (UntrustedHooks.agentOutput). */
const AGENT_MARK = "(written by your hook's sub-agent after reading this untrusted project's files: the repository's words may be in it)";

/** Where a contained run's words are kept, they say whose they are. */
const CONTAINED_MARK = "(printed by your hook run in the OS sandbox on this untrusted project's code: the repository's words, not the user's)";

/**
 * Keeps only what makes things stricter from a contained hook's result. Kept: a block or deny, an
 * `ask`, `continue: false`, and their reasons (a refusal must say why). Ignored: an `allow` (or
 * legacy `approve`), `updatedInput`, `updatedToolOutput`, and `additionalContext` where it joins the prompt or the
 * request (UserPromptSubmit, SessionStart, PreToolUse): there it would speak to the model with
 * the user's authority. The repository's words that are kept (a refusal's reason, a stop reason,
 * PostToolUse text appended to the tool's output, a systemMessage) are marked as the repository's.
 */
export function containedOutput(event: string, result: HookResult): { result: HookResult; ignored: string[] } {
  const kept: HookResult = { ...result };
  const ignored: string[] = [];
  if (kept.permission === 'allow') {
    delete kept.permission;
    ignored.push('allow');
  }
  if (kept.updatedInput !== undefined) {
    delete kept.updatedInput;
    ignored.push('updatedInput');
  }
  // It would speak as the tool itself, with nothing saying whose words they are.
  if (kept.updatedToolOutput !== undefined) {
    delete kept.updatedToolOutput;
    ignored.push('updatedToolOutput');
  }
  if (kept.additionalContext !== undefined) {
    if (AFTER_TOOL.has(event)) kept.additionalContext = `${CONTAINED_MARK} ${kept.additionalContext}`;
    else {
      delete kept.additionalContext;
      ignored.push('additionalContext');
    }
  }
  // Every word of it that is kept says whose it is: a deny's or an ask's reason reaches the model
  // or the approval question, a stop reason the user, as if the user's hook had said it.
  if (kept.reason) kept.reason = `${CONTAINED_MARK} ${kept.reason}`;
  if (kept.stop) kept.stop = `${CONTAINED_MARK} ${kept.stop}`;
  if (kept.systemMessage) kept.systemMessage = `${CONTAINED_MARK} ${kept.systemMessage}`;
  return { result: kept, ignored };
}

/**
 * Why a command hook must run inside the OS sandbox or not at all: the user's hook in an
 * untrusted project (its output is then stricter only), or managed settings that force the
 * sandbox on (`forcedBy`, the managed file): the organisation's boundary covers hooks as it
 * covers bash, trusted project or not, and the output stays the user's hook's own.
 */
export interface Confinement {
  untrusted: boolean;
  forcedBy?: string;
}

export function mustConfine(confinement: Confinement): boolean {
  return confinement.untrusted || confinement.forcedBy !== undefined;
}

/** What a hook that had to run contained, and could not, decides on `event`. */
export function uncontainedResult(event: string, outcome: { uncontained?: 'no sandbox' | 'refused'; error?: string }, async: boolean, forcedBy?: string): HookResult {
  // Forced by managed settings, trusting the project would not help: the message names the file.
  const reason =
    forcedBy !== undefined
      ? `managed settings force the OS sandbox on (${forcedBy}) and the hook could not run inside it (${outcome.error ?? 'no sandbox'}), so it did not run`
      : `this project is not trusted and the hook could not run inside the OS sandbox (${outcome.error ?? 'no sandbox'}); ${HOW_TO_TRUST}`;
  if (REFUSING.has(event) && !async) return { kind: 'blocked', reason, exit: 'not contained', ...(event === 'PreToolUse' ? { permission: 'deny' as const } : {}) };
  // Nothing to judge. No sandbox at all in an untrusted project: the run's one notice said hooks
  // do not run, the log records each. An active sandbox refusing this one command, or a forced
  // sandbox (no notice said so), is a failure shown at once.
  return outcome.uncontained === 'refused' || forcedBy !== undefined ? { kind: 'failed', reason, exit: 'not contained' } : { kind: 'ok', reason, exit: 'not run (not contained)' };
}

/**
 * A hook MewCode itself kept from running — its handler is malformed (settings.ts `unrunnable`),
 * or the OS sandbox hid its script (hidden-script.ts) — is not a hook that failed on its own: a
 * PreToolUse or UserPromptSubmit one refuses what it would have judged (a skipped guard would be
 * a bypassed guard); on other events it is a failure shown at once.
 */
export function preventedResult(event: string, reason: string, async: boolean): HookResult {
  if (REFUSING.has(event) && !async) return { kind: 'blocked', reason, exit: 'not run (prevented)', ...(event === 'PreToolUse' ? { permission: 'deny' as const } : {}) };
  return { kind: 'failed', reason, exit: 'not run (prevented)' };
}

/** The reason for a hook whose script the OS sandbox hid. */
export function hiddenScriptReason(file: string): string {
  return `its script ${file} is hidden inside the OS sandbox it runs in (MewCode keeps credentials and tool state out of sandboxed commands), so it could not run`;
}
