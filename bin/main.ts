/**
 * Builds the kernel from a plugin list, picks a user interface and runs it. Reusable: a custom
 * build is `process.exitCode = await main(process.argv.slice(2), [...defaultPlugins, mine])`.
 */
import os from 'node:os';
import { loadConfig } from '../config/index.js';
import { terminal } from '../config/terminal-safe.js';
import { Kernel, ConfigurationError } from '../kernel/index.js';
import { defaultPlugins } from '../plugins/default-set.js';
import type { CliOptions, MewcodePlugin, UserInterface } from '../types/plugin.js';
import { TOKENS } from '../types/tokens.js';
import { parseCommandLine } from './cli-args.js';
import { runPluginSubcommand, runSubcommand } from './subcommands.js';
import { guardUnfinishedRun } from './unfinished-run.js';
import { createWorkspaceTrust } from '../config/trust.js';
import { monotonicMs } from '../sdk/monotonic-clock.js';

/**
 * Run MewCode with a command line (`argv` without node and the script) or parsed options, and
 * resolve to the process exit code: 0 success, 1 the run ended in error, 2 usage or configuration.
 */
export async function main(argv: readonly string[] | CliOptions, plugins: readonly MewcodePlugin[] = defaultPlugins): Promise<number> {
  if (!isArgv(argv)) return guarded(argv, plugins);
  const fromPlugin = await runPluginSubcommand(argv, plugins);
  if (fromPlugin !== undefined) return fromPlugin;
  const command = parseCommandLine(argv, process.cwd());
  return command.kind === 'run' ? guarded(command.options, plugins) : runSubcommand(command, plugins, argv);
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

function isArgv(value: readonly string[] | CliOptions): value is readonly string[] {
  return Array.isArray(value);
}

/** `ended(code)`: the run's outcome is known; what follows is shutdown (which may not hold the process open). */
async function runWith(options: CliOptions, plugins: readonly MewcodePlugin[], ended: (code: number) => void = () => undefined): Promise<number> {
  const bootStarted = monotonicMs();
  const homeDir = os.homedir();
  // Workspace trust first: the project's settings that run code or send data (plugins, providers,
  // hooks, MCP servers…) are left out of the configuration unless the user trusts the project.
  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env: process.env, flag: options.trustProject === true });
  const trustDone = monotonicMs();
  const boot = async (): Promise<Kernel | number> => {
    const config = await loadConfig({ cwd: options.cwd, homeDir, trust });
    try {
      const flags: { provider?: string; model?: string } = {};
      if (options.provider !== undefined) flags.provider = options.provider;
      if (options.model !== undefined) flags.model = options.model;
      // Started below, once no trust dialog can make this kernel the one that is thrown away.
      return await Kernel.create({ plugins, config, projectRoot: options.cwd, homeDir, flags, cli: options, trust, deferStart: true });
    } catch (error) {
      if (error instanceof ConfigurationError) {
        terminal.err(`mewcode: ${error.message}\n`);
        return 2;
      }
      throw error;
    }
  };
  let kernel = await boot();
  if (typeof kernel === 'number') return kernel;
  const configDone = monotonicMs();
  if (options.debugBoot) printBootTimings(kernel, { trust: trustDone - bootStarted, config: configDone - trustDone, kernel: monotonicMs() - configDone });

  let ui = pickUi(kernel, options);
  // An interactive UI asks whether to trust the project (headless runs use --trust-project). The
  // first boot left the project's code-running settings out; once trusted, boot again with them.
  if (ui?.decideTrust && !trust.isTrusted() && trust.pending().settings.length > 0) {
    if (await ui.decideTrust(trust.pending())) {
      try {
        await trust.grant();
      } catch (error) {
        terminal.err(`mewcode: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      kernel.output.attach({ notify: () => undefined }); // the untrusted boot's messages are superseded
      await kernel.shutdown();
      kernel = await boot();
      if (typeof kernel === 'number') return kernel;
      ui = pickUi(kernel, options);
    }
  }
  if (!ui) {
    kernel.output.flushToFallback();
    terminal.err('mewcode: no user interface of this build can run here (the terminal UI needs a terminal and no -p); pass a prompt: mewcode -p "…"\n');
    ended(2);
    await kernel.shutdown();
    return 2;
  }
  kernel.startPlugins();
  // A required, essential or safety plugin whose start() fails or hangs ends the run before any
  // request (immediate when none of them has a start()).
  try {
    await kernel.criticalPluginsReady();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    kernel.output.flushToFallback();
    process.stderr.write(`mewcode: ${error.message}\n`);
    ended(2);
    await kernel.shutdown();
    return 2;
  }
  // From here on, every notice, warning and approval request goes to this UI (the buffered ones first).
  kernel.activateUi(ui);
  for (const warning of trust.warnings) kernel.warn(warning);
  const notice = trust.notice(); // after boot: it also lists settings refused while plugins loaded
  if (notice) kernel.notify('warning', notice);
  if (options.continueLatest || options.resumeId !== undefined) {
    const resumed = await resumeSaved(kernel, options);
    if (resumed !== undefined) {
      ended(resumed);
      await kernel.shutdown();
      return resumed;
    }
  }
  await kernel.startSession();
  try {
    const code = await ui.run(kernel, options);
    ended(code);
    return code;
  } finally {
    await kernel.shutdown();
  }
}

function pickUi(kernel: Kernel, options: CliOptions): UserInterface | undefined {
  if (!kernel.container.isBound(TOKENS.UserInterface)) return undefined;
  return kernel.container.getAll<UserInterface>(TOKENS.UserInterface).find((u) => u.handles(options, process.stdin.isTTY === true));
}

/** `--continue` / `--resume <id>`: the saved session becomes the main one. An exit code when it cannot. */
async function resumeSaved(kernel: Kernel, options: CliOptions): Promise<number | undefined> {
  if (!kernel.container.isBound(TOKENS.SessionStore)) {
    terminal.err('mewcode: this build has no session plugin, so there is nothing to continue\n');
    return 2;
  }
  const store = kernel.container.get(TOKENS.SessionStore);
  try {
    const id = options.resumeId ?? (await store.latest());
    if (id === undefined) {
      terminal.err(`mewcode: no saved session to continue in ${options.cwd}; start one with mewcode -p "…"\n`);
      return 2;
    }
    const loaded = await store.load(id);
    const session = await kernel.resumeSession(loaded);
    if (loaded.skippedLines > 0) kernel.warn(`session: ${loaded.skippedLines} damaged line${loaded.skippedLines === 1 ? '' : 's'} of ${loaded.file} skipped`);
    if (loaded.idleMs > PAUSE_NOTE_AFTER_MS) {
      session.injectReminder(`This session was paused for ${formatPause(loaded.idleMs)}. Files in the project may have changed since; read them again before relying on what you saw.`);
    }
    return undefined;
  } catch (error) {
    terminal.err(`mewcode: cannot continue the session: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

/** C4: after more than 6 h away the model is told (files may have changed). */
const PAUSE_NOTE_AFTER_MS = 6 * 60 * 60 * 1000;

function formatPause(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${hours} hours`;
}

function printBootTimings(kernel: Kernel, ms: { trust: number; config: number; kernel: number }): void {
  const lines = kernel.timings.map((t) => `  ${t.name.padEnd(24)} bind ${t.bindMs.toFixed(2).padStart(7)} ms   apply ${t.applyMs.toFixed(2).padStart(7)} ms`);
  const phases = `trust ${ms.trust.toFixed(1)} ms, config ${ms.config.toFixed(1)} ms, kernel ${ms.kernel.toFixed(1)} ms`;
  terminal.err(`mewcode: boot timings (process uptime ${(process.uptime() * 1000).toFixed(1)} ms; ${phases})\n${lines.join('\n')}\n`);
}
