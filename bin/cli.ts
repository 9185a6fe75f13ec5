/**
 * The `mewcode` entry. `--version` answers before any plugin code is loaded; the rest of MewCode
 * is a separate chunk imported only for a real run. A first word that may be a plugin's command
 * (`sessions`, `audit verify`) reads the plugins' declarations and loads only that command's
 * module, never the kernel (plugin-subcommands.ts). `doctor` loads its own module, which boots the
 * kernel itself.
 */
import { parseCommandLine } from './cli-args.js';
import { runPluginSubcommand, runSubcommand } from './subcommands.js';
import { terminal } from '../config/terminal-safe.js';
import { closeGoneTerminalsAtExit } from './gone-terminal.js';

async function cli(): Promise<number> {
  closeGoneTerminalsAtExit();
  const argv = process.argv.slice(2);
  const fromPlugin = await runPluginSubcommand(argv);
  if (fromPlugin !== undefined) return fromPlugin;
  const command = parseCommandLine(argv, process.cwd());
  if (command.kind !== 'run') return runSubcommand(command, undefined, argv);
  const { main } = await import('./main.js');
  return main(command.options);
}

cli().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    terminal.err(`mewcode: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
