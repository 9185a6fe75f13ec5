/**
 * The `mewcode` entry. `--version` and `--help` answer before any plugin code is loaded; the
 * rest of MewCode is a separate chunk imported only for a real run. `audit verify` loads only
 * its own small module: it must work even when the kernel or a plugin cannot load. `doctor` loads
 * its own module, which boots the kernel itself.
 */
import { parseCommandLine } from './cli-args.js';
import { runSubcommand } from './subcommands.js';
import { terminal } from '../config/terminal-safe.js';

async function cli(): Promise<number> {
  const command = parseCommandLine(process.argv.slice(2), process.cwd());
  if (command.kind !== 'run') return runSubcommand(command);
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
