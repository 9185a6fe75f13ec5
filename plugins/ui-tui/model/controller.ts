/**
 * What the user's keys and lines do, without React: runs prompts through the main session,
 * runs slash commands (the TUI's own and every contributed `Command`), cancels, cycles modes.
 * Components call these methods; tests call them too.
 */
import { slashCall, type Command } from '../../../types/commands.js';
import type { PermissionMode } from '../../../types/permissions.js';
import { PERMISSION_MODES } from '../../../types/permissions.js';
import type { KernelApi } from '../../../types/plugin.js';
import type { PromptJudgement } from '../../../types/session.js';
import { TOKENS } from '../../../types/tokens.js';
import type { UiStore } from './ui-store.js';
import { localCommands, type LocalCommand } from './local-commands.js';
import { bypassRefusal } from './bypass-refusal.js';
import { compareNames } from '../../../sdk/plain-intl.js';

/** A cancelled command's line in the scrollback, as the Esc hint says it. */
const INTERRUPTED = 'Interrupted.';

/** Shift+Tab cycles through these (bypass only by flag or settings: never one key away). */
export const MODE_CYCLE: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan'];


export interface CommandInfo {
  name: string;
  description: string;
  argumentHint?: string;
}

export class TuiController {
  private abort: AbortController | undefined;
  /** The run in progress (`stop()` waits for it to end). */
  private running: Promise<void> | undefined;
  private readonly local: readonly LocalCommand[];
  /** Set by the app: ends the UI with this exit code. */
  exit: (code: number) => void = () => undefined;

  constructor(
    readonly kernel: KernelApi,
    readonly store: UiStore,
  ) {
    this.local = localCommands(this);
  }

  get mode(): PermissionMode {
    return this.store.snapshot.status.mode;
  }

  /** Every command the input completes: the TUI's own first, then contributed ones not shadowed. */
  commands(): CommandInfo[] {
    const seen = new Set<string>();
    const all: CommandInfo[] = [];
    const contributed = this.kernel.commands();
    const names = new Set(contributed.map((c) => c.name));
    for (const c of [...this.local.filter((l) => !(l.fallback && names.has(l.name))), ...contributed]) {
      if (seen.has(c.name)) continue;
      seen.add(c.name);
      all.push({ name: c.name, description: c.description.split('\n', 1)[0]!, ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}) });
    }
    return all.sort((a, b) => compareNames(a.name, b.name));
  }

  /** Whether the mode may change now: idle and no dialog open (A8: modes switch between runs). */
  canSwitchMode(): boolean {
    const s = this.store.snapshot;
    return !s.busy && s.approvals.length === 0 && s.trust === undefined && s.picker === undefined;
  }

  cycleMode(): boolean {
    if (!this.canSwitchMode()) return false;
    const index = MODE_CYCLE.indexOf(this.mode);
    this.setMode(MODE_CYCLE[(index + 1) % MODE_CYCLE.length]!);
    return true;
  }

  setMode(mode: PermissionMode): void {
    this.store.setStatus({ mode });
  }

  /**
   * The process was told to stop (SIGTERM, or SIGHUP: the terminal closed): the running run is
   * cancelled and has ended (its command stopped, the sandbox's sweep done, the history saved)
   * when this resolves — or `graceMs` passed.
   */
  async stop(graceMs: number): Promise<void> {
    const running = this.running;
    this.cancel();
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }

  /** Ctrl+C / Esc: cancel the running run; true when there was one. */
  cancel(): boolean {
    if (!this.abort) return false;
    this.store.denyAll();
    this.abort.abort();
    return true;
  }

  /** A line the user submitted. */
  async submit(line: string): Promise<void> {
    const text = line.trim();
    if (!text || this.store.snapshot.busy) return;
    const slash = slashCall(text);
    if (slash) {
      const { name, args } = slash;
      const local = this.local.find((c) => c.name === name);
      const contributed = this.kernel.commands().find((c) => c.name === name);
      // The UI's own commands win, except a fallback (/mcp) that a plugin contributes itself.
      if (local && !(local.fallback && contributed)) return this.runLocal(local, text, args);
      if (contributed) return this.runContributed(contributed, text, args);
      this.store.add({ kind: 'command', text, output: `Unknown command /${name}. Type / to see the commands.`, isError: true });
      return;
    }
    await this.runPrompt(text);
  }

  private async runLocal(command: LocalCommand, text: string, args: string): Promise<void> {
    this.store.setBusy(true);
    try {
      const result = await command.run(args);
      if (result) this.store.add({ kind: 'command', text, output: result.output, isError: result.isError === true });
    } catch (error) {
      this.store.add({ kind: 'command', text, output: `/${command.name} failed: ${message(error)}`, isError: true });
    } finally {
      this.store.setBusy(false);
    }
  }

  private async runContributed(command: Command, text: string, args: string): Promise<void> {
    this.store.setBusy(true);
    // Esc and Ctrl+C stop a command as they stop a run (cancel()): a summary request, a `!` line.
    const controller = new AbortController();
    this.abort = controller;
    let prompt: string | undefined;
    let judged: PromptJudgement | undefined;
    try {
      const result = await command.run(this.kernel.session, args, { mode: this.mode, signal: controller.signal });
      // Cancelled: whatever it returned, its output and its prompt are dropped.
      if (controller.signal.aborted) {
        this.store.add({ kind: 'command', text, output: INTERRUPTED, isError: false });
        return;
      }
      prompt = result.prompt;
      judged = result.judged;
      const extra = command.name === 'help' ? `\n${this.localHelp()}` : '';
      if (result.output || extra) this.store.add({ kind: 'command', text, output: `${result.output ?? ''}${extra}`, isError: result.isError === true });
    } catch (error) {
      this.store.add({ kind: 'command', text, output: controller.signal.aborted ? INTERRUPTED : `/${command.name} failed: ${message(error)}`, isError: !controller.signal.aborted });
    } finally {
      if (this.abort === controller) this.abort = undefined;
      this.store.setBusy(false);
    }
    // Its line already passed userPromptSubmit before the command ran (`judged`): not again.
    if (prompt !== undefined) await this.runPrompt(prompt, text, judged);
  }

  private localHelp(): string {
    const keys = 'Keys: Enter sends · Shift+Enter or \\ then Enter: new line · ↑/↓ history · Shift+Tab: mode · Esc or Ctrl+C: cancel · Ctrl+C twice: exit · Ctrl+T: thinking';
    return ['Terminal UI commands:', ...this.local.map((c) => `  /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}  ${c.description}`), keys].join('\n');
  }

  /** Run one prompt in the main session; `shown` is what the user typed when it differs. */
  async runPrompt(prompt: string, shown?: string, judged?: PromptJudgement): Promise<void> {
    const run = this.runPromptNow(prompt, shown, judged);
    this.running = run;
    try {
      await run;
    } finally {
      if (this.running === run) this.running = undefined;
    }
  }

  private async runPromptNow(prompt: string, shown?: string, judged?: PromptJudgement): Promise<void> {
    const store = this.store;
    store.add({ kind: 'user', text: shown ?? prompt });
    const controller = new AbortController();
    this.abort = controller;
    store.setBusy(true);
    try {
      for await (const event of this.kernel.run({ prompt, mode: this.mode, signal: controller.signal, maxTurns: this.kernel.cli?.maxTurns, ...(judged ? { judged } : {}) })) store.apply(event);
    } catch (error) {
      store.notice('error', message(error));
    } finally {
      this.abort = undefined;
      store.denyAll();
      store.setBusy(false);
      this.refreshStatus();
    }
  }

  /** Provider, model and window of the main session (after a run, a /model or a /resume). */
  refreshStatus(): void {
    const provider = this.kernel.session.currentProvider();
    this.store.setStatus({ provider: provider.id, model: provider.model, contextWindow: provider.contextWindow });
  }

  /** Whether the project has a session store (for /resume). */
  hasSessionStore(): boolean {
    return this.kernel.container.isBound(TOKENS.SessionStore);
  }
}

export function initialMode(kernel: KernelApi, given: PermissionMode, modeGiven: boolean): PermissionMode {
  if (modeGiven || !kernel.container.isBound(TOKENS.PermissionSettings)) return given;
  const mode = kernel.container.get(TOKENS.PermissionSettings).defaultMode();
  const chosen = mode !== undefined && PERMISSION_MODES.includes(mode) ? mode : given;
  // The kernel runs it as default anyway (and says so); the status line must not claim bypass.
  return chosen === 'bypassPermissions' && bypassRefusal(kernel) !== undefined ? 'default' : chosen;
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
