/**
 * Builds the kernel from a plugin list, picks a user interface and runs it. Reusable: a custom
 * build is `process.exitCode = await main(process.argv.slice(2), [...defaultPlugins, mine])`.
 */
import os from 'node:os';
import { loadConfig } from '../config/index.js';
import { Kernel, ConfigurationError } from '../kernel/index.js';
import { defaultPlugins } from '../plugins/default-set.js';
import type { CliOptions, MewcodePlugin, UserInterface } from '../types/plugin.js';
import { TOKENS } from '../types/tokens.js';
import { HELP, parseCommandLine } from './cli-args.js';
import { KERNEL_VERSION } from '../kernel/version.js';
import { createWorkspaceTrust } from '../config/trust.js';

/**
 * Run MewCode with a command line (`argv` without node and the script) or parsed options, and
 * resolve to the process exit code: 0 success, 1 the run ended in error, 2 usage or configuration.
 */
export async function main(argv: readonly string[] | CliOptions, plugins: readonly MewcodePlugin[] = defaultPlugins): Promise<number> {
  if (!isArgv(argv)) return runWith(argv, plugins);
  const command = parseCommandLine(argv, process.cwd());
  switch (command.kind) {
    case 'version':
      process.stdout.write(`${KERNEL_VERSION} (MewCode)\n`);
      return 0;
    case 'help':
      process.stdout.write(HELP);
      return 0;
    case 'error':
      process.stderr.write(`mewcode: ${command.message}\n`);
      return 2;
    case 'run':
      return runWith(command.options, plugins);
    case 'audit-verify': {
      const { runAuditVerify } = await import('../plugins/permission-audit/verify.js');
      return runAuditVerify(command.file, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
    }
    case 'doctor': {
      const { runDoctor } = await import('./doctor.js');
      return runDoctor(command.options, { plugins });
    }
  }
}

function isArgv(value: readonly string[] | CliOptions): value is readonly string[] {
  return Array.isArray(value);
}

async function runWith(options: CliOptions, plugins: readonly MewcodePlugin[]): Promise<number> {
  const bootStarted = performance.now();
  const homeDir = os.homedir();
  // Workspace trust first: the project's settings that run code or send data (plugins, providers,
  // hooks, MCP servers…) are left out of the configuration unless the user trusts the project.
  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env: process.env, flag: options.trustProject === true });
  const trustDone = performance.now();
  const config = await loadConfig({ cwd: options.cwd, homeDir, trust });
  const configDone = performance.now();
  let kernel: Kernel;
  try {
    const flags: { provider?: string; model?: string } = {};
    if (options.provider !== undefined) flags.provider = options.provider;
    if (options.model !== undefined) flags.model = options.model;
    kernel = await Kernel.create({ plugins, config, projectRoot: options.cwd, homeDir, flags, cli: options, trust });
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`mewcode: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (options.debugBoot) printBootTimings(kernel, { trust: trustDone - bootStarted, config: configDone - trustDone, kernel: performance.now() - configDone });

  const ui = kernel.container.isBound(TOKENS.UserInterface)
    ? kernel.container.getAll<UserInterface>(TOKENS.UserInterface).find((u) => u.handles(options, process.stdin.isTTY === true))
    : undefined;
  if (!ui) {
    kernel.output.flushToFallback();
    process.stderr.write('mewcode: the interactive terminal UI is not part of this build yet; pass a prompt: mewcode -p "…"\n');
    return 2;
  }
  // From here on, every notice, warning and approval request goes to this UI (the buffered ones first).
  kernel.activateUi(ui);
  for (const warning of trust.warnings) kernel.warn(warning);
  const notice = trust.notice(); // after boot: it also lists settings refused while plugins loaded
  if (notice) kernel.notify('warning', notice);
  await kernel.startSession();
  try {
    return await ui.run(kernel, options);
  } finally {
    await kernel.shutdown();
  }
}

function printBootTimings(kernel: Kernel, ms: { trust: number; config: number; kernel: number }): void {
  const lines = kernel.timings.map((t) => `  ${t.name.padEnd(24)} bind ${t.bindMs.toFixed(2).padStart(7)} ms   apply ${t.applyMs.toFixed(2).padStart(7)} ms`);
  const phases = `trust ${ms.trust.toFixed(1)} ms, config ${ms.config.toFixed(1)} ms, kernel ${ms.kernel.toFixed(1)} ms`;
  process.stderr.write(`mewcode: boot timings (process uptime ${(process.uptime() * 1000).toFixed(1)} ms; ${phases})\n${lines.join('\n')}\n`);
}
