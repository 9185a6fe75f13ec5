/**
 * The `mewcode` entry. `--version` answers before any plugin code is loaded; the rest of MewCode
 * is a separate chunk imported only for a real run. A first word that may be a plugin's command
 * (`sessions`, `audit verify`) reads the plugins' declarations and loads only that command's
 * module, never the kernel (plugin-subcommands.ts). `doctor` loads its own module, which boots the
 * kernel itself. None of them may end as a silent success with its result unprinted
 * (unfinished-run.ts), and none keeps the process running once it is done (exit-when-done.ts).
 */
import { parseCommandLine } from './cli-args.js';
import { runPluginSubcommand, runSubcommand } from './subcommands.js';
import { terminal } from '../config/terminal-safe.js';
import { closeGoneTerminalsAtExit } from './gone-terminal.js';
import { guardedCommand } from './unfinished-run.js';
import { exitWhenDone } from './exit-when-done.js';

async function cli(): Promise<number> {
  closeGoneTerminalsAtExit();
  const argv = process.argv.slice(2);
  const subject = `mewcode ${argv[0] ?? ''}`.trim();
  const fromPlugin = await guardedCommand(subject, () => runPluginSubcommand(argv));
  if (fromPlugin !== undefined) return fromPlugin;
  const command = parseCommandLine(argv, process.cwd());
  // `plugin add` checks the plugin against the build's plugins (plugin-command.ts), which only the
  // program holds; every other subcommand stays light.
  const needsBuild = command.kind === 'plugin' && command.action === 'add';
  if (command.kind !== 'run' && !needsBuild) return guardedCommand(subject, () => runSubcommand(command, undefined, argv));
  const { main } = await import('./main.js');
  return command.kind === 'run' ? main(command.options) : main(argv);
}

// The command's end is the process's end: what a plugin left open (a timer, a socket, a start()
// still waiting) does not keep it running (exit-when-done.ts).
cli().then(
  (code) => exitWhenDone(code),
  (error: unknown) => {
    terminal.err(`mewcode: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return exitWhenDone(1);
  },
);
