/** `mewcode -p`: one prompt, no interaction, output on stdout, everything else on stderr (U2). */
import { signalExitCode, STOP_SIGNALS } from '../../sdk/stop-signals.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { PromptJudgement } from '../../types/session.js';
import type { CliOptions, KernelApi, UserInterface } from '../../types/plugin.js';
import type { Approvals } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { HeadlessOutput } from './headless-output.js';
import { parseSlashCommand, runSlashCommand, slashCommandName, unknownCommandMessage } from './slash-command.js';
import type { ResultMessage } from '../../sdk/stream-json/messages.js';
import { runMessages } from '../../sdk/stream-json/run-messages.js';
import { readStdin } from './read-stdin.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';
import { PRINT_MAX_TURNS } from '../../types/session.js';
import { terminalSafeJson, terminalWriter } from '../../config/terminal-safe.js';
import { messageLines } from '../../types/notice-line.js';

/** --permission-mode when given, else the settings' default_mode, else the flag's default. */
export function startingMode(kernel: KernelApi, options: CliOptions): PermissionMode {
  if (options.permissionModeGiven || !kernel.container.isBound(TOKENS.PermissionSettings)) return options.permissionMode;
  return kernel.container.get(TOKENS.PermissionSettings).defaultMode() ?? options.permissionMode;
}

export const EXIT_OK = 0;
export const EXIT_RUN_ERROR = 1;
export const EXIT_USAGE = 2;

export class HeadlessUserInterface implements UserInterface {
  readonly name = 'headless';
  readonly output: HeadlessOutput;
  /**
   * Text mode's writers: the answer and every message quote the model, a provider or a file, so
   * both go through the terminal-safe filter (newlines and tabs kept, escape sequences removed).
   * JSON goes to `out` itself, escaped by `terminalSafeJson`.
   */
  private readonly say: (text: string) => void;
  /** The run in progress, cancelled when the output's reader goes away. */
  private running: AbortController | undefined;
  private readonly complain: (text: string) => void;

  /**
   * `input`: where a piped prompt is read from (standard input, unless it is a terminal). Given by
   * a host whose own stdin is not the user's: a test runner's worker, an embedding program.
   */
  constructor(
    private readonly out: NodeJS.WritableStream = process.stdout,
    err: NodeJS.WritableStream = process.stderr,
    approvals: () => Approvals | undefined = () => undefined,
    private readonly input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
  ) {
    this.output = new HeadlessOutput(err, approvals);
    // A reader that went away (`mewcode -p … | head -1`): writing fails with EPIPE. That stops the
    // run as a signal does, never an uncaught error that ends the process while a command runs
    // (and later writes fail quietly).
    out.on('error', () => this.running?.abort());
    this.say = terminalWriter(out);
    this.complain = terminalWriter(err);
  }

  handles(options: CliOptions, stdinIsTTY: boolean): boolean {
    return options.prompt !== undefined || !stdinIsTTY;
  }

  async run(kernel: KernelApi, options: CliOptions): Promise<number> {
    let prompt = await this.prompt(options);
    if (prompt === undefined) return EXIT_USAGE;
    const started = monotonicMs();
    const sessionId = kernel.session.sessionId;
    const print = (value: unknown): void => void this.out.write(`${terminalSafeJson(value)}\n`);
    const mode = startingMode(kernel, options);

    const commands = kernel.commands();
    // A command's line passed userPromptSubmit before the command ran: its prompt does not again.
    let judged: PromptJudgement | undefined;
    const slash = parseSlashCommand(prompt, commands);
    const unknown = slash ? undefined : slashCommandName(prompt);
    if (unknown !== undefined) {
      this.complain(messageLines('mewcode: ', unknownCommandMessage(unknown, commands)));
      return EXIT_USAGE;
    }
    const controller = new AbortController();
    // SIGHUP too (the terminal closed), and SIGQUIT: the run is cancelled as for Ctrl+C, so a
    // running command is stopped and what follows it (the sandbox's git sweep, the saved session)
    // still happens; a slash command (`-p "/compact"`, a `!` line) is stopped the same way.
    // Listening for the whole run, not once: a second Ctrl+C (or signal) while the run winds down
    // must not end the process in the middle of that clean-up (the run's own cancellation is
    // bounded: a command gets its grace, then SIGKILL); a third forces the exit.
    let signals = 0;
    const onSignal = (signal: (typeof STOP_SIGNALS)[number]): void => {
      signals++;
      controller.abort();
      if (signals === 2) this.complain('mewcode: stopping: the running command is being stopped and its clean-up done; a third signal ends MewCode at once, without it\n');
      if (signals >= 3) process.exit(signalExitCode(signal));
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    this.running = controller;
    const stopListening = (): void => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      this.running = undefined;
    };
    if (slash) {
      // It reports its own failures (never throws).
      let outcome = await runSlashCommand(slash, kernel.session, mode, controller.signal);
      // Cancelled (Ctrl+C, a stop signal, the reader gone): its prompt, if any, is not run.
      if (controller.signal.aborted) outcome = { output: outcome.isError ? outcome.output : `/${slash.command.name} was cancelled`, isError: true };
      if (outcome.prompt === undefined) {
        stopListening();
        if (options.outputFormat === 'text') (outcome.isError ? this.complain : this.say)(`${outcome.output}\n`);
        else print({ type: 'result', subtype: outcome.isError ? 'error_during_execution' : 'success', is_error: outcome.isError, result: outcome.output, command: slash.command.name, session_id: sessionId });
        return outcome.isError ? EXIT_RUN_ERROR : EXIT_OK;
      }
      prompt = outcome.prompt;
      judged = outcome.judged;
    }


    /** What the last model turn said: printed when the run fails or is refused after it began answering. */
    let lastTurnText = '';
    let result: ResultMessage | undefined;
    try {
      const messages = runMessages(kernel, { prompt, ...(judged ? { judged } : {}), mode, cwd: options.cwd, signal: controller.signal, maxTurns: options.maxTurns, defaultMaxTurns: PRINT_MAX_TURNS, startedMs: started });
      for await (const message of messages) {
        if (message.type === 'result') result = message;
        if (options.outputFormat === 'stream-json') print(message);
        // Sub-agents' messages are about them; the main agent's make the text answer and its errors.
        if (message.type === 'system' || message.type === 'result' || message.agent_id !== kernel.session.agentId) continue;
        if (message.type === 'iteration') lastTurnText = '';
        if (message.type === 'text_delta') lastTurnText += message.text;
        if (message.type === 'error') this.complain(`mewcode: error: ${message.message}\n`);
      }
    } finally {
      stopListening();
    }
    if (!result) {
      this.complain('mewcode: error: the run ended without a result\n');
      return EXIT_RUN_ERROR;
    }
    if (options.outputFormat === 'text') {
      if (!result.is_error) this.say(`${result.result}\n`);
      // The answer a filter, a refusal or a failure cut short: what arrived is the user's to read
      // (the reason is on standard error).
      else if (lastTurnText.trim() !== '' && (result.stop_reason === 'refusal' || result.stop_reason === 'error')) this.say(`${lastTurnText.replace(/\s+$/, '')}\n`);
    } else if (options.outputFormat === 'json') {
      print(result);
    }
    return result.is_error ? EXIT_RUN_ERROR : EXIT_OK;
  }

  private async prompt(options: CliOptions): Promise<string | undefined> {
    let piped = '';
    if (!this.input.isTTY) {
      try {
        piped = (await readStdin(this.input)).trim();
      } catch (error) {
        this.complain(messageLines('mewcode: ', (error as Error).message));
        return undefined;
      }
    }
    const parts = [options.prompt?.trim(), piped].filter((p): p is string => !!p);
    if (parts.length === 0) {
      this.complain('mewcode: no prompt: pass one as an argument (mewcode -p "…") or on standard input\n');
      return undefined;
    }
    return parts.join('\n\n');
  }
}
