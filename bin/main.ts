/**
 * Builds the kernel from a plugin list, picks a user interface and runs it. Reusable: a custom
 * build is `process.exitCode = await main(process.argv.slice(2), [...defaultPlugins, mine])`.
 */
import { terminal } from '../config/terminal-safe.js';
import type { Kernel } from '../kernel/index.js';
import { defaultPlugins } from '../plugins/default-set.js';
import type { CliOptions, MewcodePlugin, UserInterface } from '../types/plugin.js';
import { TOKENS } from '../types/tokens.js';
import { parseCommandLine } from './cli-args.js';
import { runPluginSubcommand, runSubcommand } from './subcommands.js';
import { guardedCommand, guardUnfinishedRun } from './unfinished-run.js';
import { bootKernel, OpenRunError, startRun, type BootedKernel } from './open-run.js';
import { closeGoneTerminalsAtExit } from './gone-terminal.js';
import { startFailedResult } from '../sdk/stream-json/result-message.js';
import { messageLines } from '../types/notice-line.js';
import { pluginDebugEnabled } from '../kernel/plugin-debug.js';

/**
 * Run MewCode with a command line (`argv` without node and the script) or parsed options, and
 * resolve to the process exit code: 0 success, 1 the run ended in error, 2 usage or configuration.
 */
export async function main(argv: readonly string[] | CliOptions, plugins: readonly MewcodePlugin[] = defaultPlugins): Promise<number> {
  closeGoneTerminalsAtExit();
  if (!isArgv(argv)) return guarded(argv, plugins);
  debugWithoutSourceMaps(argv);
  const subject = `mewcode ${argv[0] ?? ''}`.trim();
  const fromPlugin = await guardedCommand(subject, () => runPluginSubcommand(argv, plugins));
  if (fromPlugin !== undefined) return fromPlugin;
  const command = parseCommandLine(argv, process.cwd());
  return command.kind === 'run' ? guarded(command.options, plugins) : guardedCommand(subject, () => runSubcommand(command, plugins, argv));
}

/** A run that can never end the process as a success without having finished (unfinished-run.ts). */
async function guarded(options: CliOptions, plugins: readonly MewcodePlugin[]): Promise<number> {
  const ended = guardUnfinishedRun(options.outputFormat !== 'text');
  try {
    return await runWith(options, plugins, ended);
  } finally {
    ended();
  }
}

/**
 * bin/mewcode.js turns source maps on before the bundle loads when stacks will be shown; a custom
 * build's own launcher may not have, and Node maps only code loaded after that. Said, so its author
 * knows why a stack names dist/ files, and turned on for what loads from here on.
 */
function debugWithoutSourceMaps(argv: readonly string[]): void {
  if (!pluginDebugEnabled(process.env, argv.includes('--debug')) || (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled !== false) return;
  process.setSourceMapsEnabled(true);
  terminal.err('mewcode: warning: --debug: source maps were off when MewCode loaded, so stacks may name dist/ files instead of .ts files; start this program with node --enable-source-maps\n');
}

function isArgv(value: readonly string[] | CliOptions): value is readonly string[] {
  return Array.isArray(value);
}

/** `ended(code)`: the run's outcome is known; what follows is shutdown (which may not hold the process open). */
async function runWith(options: CliOptions, plugins: readonly MewcodePlugin[], ended: (code: number) => void = () => undefined): Promise<number> {
  const started = performance.now();
  const failed = (error: unknown): number => {
    if (!(error instanceof OpenRunError)) throw error;
    terminal.err(messageLines('mewcode: ', error.message));
    // A script reading json / stream-json gets its one result object, as for a model's error.
    if (options.outputFormat !== 'text') process.stdout.write(`${JSON.stringify(startFailedResult(error.message, performance.now() - started))}\n`);
    ended(error.exitCode);
    return error.exitCode;
  };
  let booted: BootedKernel;
  try {
    booted = await bootKernel(options, plugins);
  } catch (error) {
    return failed(error);
  }
  if (options.debugBoot) printBootTimings(booted.kernel, booted.phases);

  let ui = pickUi(booted.kernel, options);
  // An interactive UI asks whether to trust the project (headless runs use --trust-project). The
  // first boot left the project's code-running settings out; once trusted, boot again with them.
  if (ui?.decideTrust && !booted.trust.isTrusted() && booted.trust.pending().settings.length > 0) {
    if (await ui.decideTrust(booted.trust.pending())) {
      try {
        await booted.trust.grant();
      } catch (error) {
        terminal.err(messageLines('mewcode: ', error instanceof Error ? error.message : String(error)));
      }
      booted.kernel.output.attach({ notify: () => undefined }); // the untrusted boot's messages are superseded
      await booted.kernel.shutdown();
      try {
        booted = await bootKernel(options, plugins, {}, booted.trust);
      } catch (error) {
        return failed(error);
      }
      ui = pickUi(booted.kernel, options);
    }
  }
  const { kernel } = booted;
  if (!ui) {
    kernel.output.flushToFallback();
    terminal.err('mewcode: no user interface of this build can run here (the terminal UI needs a terminal and no -p); pass a prompt: mewcode -p "…"\n');
    ended(2);
    await kernel.shutdown();
    return 2;
  }
  // From here on, every notice, warning and approval request goes to this UI (the buffered ones first).
  try {
    await startRun(booted, ui, options);
  } catch (error) {
    return failed(error);
  }
  try {
    const code = await ui.run(kernel, options);
    ended(code);
    return code;
  } finally {
    // Claude Code's SessionEnd reason: the UI knows whether the user left it (prompt_input_exit).
    await kernel.shutdown(ui.endReason?.() ?? 'other');
  }
}

function pickUi(kernel: Kernel, options: CliOptions): UserInterface | undefined {
  if (!kernel.container.isBound(TOKENS.UserInterface)) return undefined;
  return kernel.container.getAll<UserInterface>(TOKENS.UserInterface).find((u) => u.handles(options, process.stdin.isTTY === true));
}

function printBootTimings(kernel: Kernel, phase: { trust: number; config: number; kernel: number }): void {
  const ms = (value: number): string => `${value.toFixed(2).padStart(7)} ms`;
  const lines = kernel.timings.map((t) => `  ${t.name.padEnd(24)} bind ${ms(t.bindMs)}   apply ${ms(t.applyMs)}${t.loadMs === undefined ? '' : `   import ${ms(t.loadMs)}`}`);
  const phases = `trust ${phase.trust.toFixed(1)} ms, config ${phase.config.toFixed(1)} ms, kernel ${phase.kernel.toFixed(1)} ms`;
  terminal.err(`mewcode: boot timings (process uptime ${(process.uptime() * 1000).toFixed(1)} ms; ${phases})\n${lines.join('\n')}\n`);
}
