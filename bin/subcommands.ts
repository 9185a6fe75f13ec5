/**
 * Every command-line form except a run: answered the same way by the `mewcode` entry
 * (bin/cli.ts, which must stay light) and by `main()` (custom builds, which pass their plugin
 * list). MewCode's own commands (`doctor`, `plugin`) are parsed in cli-args.ts; every other first
 * word may be a plugin's command (plugin-subcommands.ts). Each command's module is imported only
 * when it is asked for.
 */
import type { MewcodePlugin } from '../types/plugin.js';
import { isSubcommandName } from '../types/cli.js';
import { OWN_COMMANDS, type ParsedCommand } from './cli-args.js';
import { KERNEL_VERSION } from '../kernel/version.js';
// Every subcommand prints through the terminal-safe filter: they show files, servers and hooks.
import { terminal } from '../config/terminal-safe.js';
import { messageLines } from '../types/notice-line.js';

export type Subcommand = Exclude<ParsedCommand, { kind: 'run' }>;

/**
 * When the first word may name a plugin's command: runs it and resolves to its exit code, or to
 * undefined when no plugin provides it (the command line is then parsed as a run, as always).
 * Flags first (`-p …`, `--version`) never look anything up.
 */
export async function runPluginSubcommand(argv: readonly string[], plugins?: readonly MewcodePlugin[]): Promise<number | undefined> {
  const word = argv[0];
  if (word === undefined || !isSubcommandName(word) || OWN_COMMANDS.has(word)) return undefined;
  const { dispatchPluginSubcommand } = await import('./plugin-subcommands.js');
  return dispatchPluginSubcommand(argv, plugins);
}

/** `plugins`: a custom build's list (doctor and the help use it); default the built-in set. */
export async function runSubcommand(command: Subcommand, plugins?: readonly MewcodePlugin[], argv: readonly string[] = []): Promise<number> {
  switch (command.kind) {
    case 'version':
      terminal.out(`${KERNEL_VERSION} (MewCode)\n`);
      return 0;
    case 'help': {
      const { helpText } = await import('./plugin-subcommands.js');
      const help = await helpText(plugins, argv);
      for (const warning of help.warnings) terminal.err(messageLines('mewcode: warning: ', warning));
      terminal.out(help.text);
      return 0;
    }
    case 'error':
      terminal.err(messageLines('mewcode: ', command.message));
      return 2;
    case 'doctor': {
      const { runDoctor } = await import('./doctor.js');
      return runDoctor(command.options, plugins ? { plugins } : {});
    }
    case 'plugin': {
      const { runPluginCommand, defaultDeps } = await import('./plugin-command.js');
      return runPluginCommand(command, defaultDeps(plugins));
    }
  }
}
