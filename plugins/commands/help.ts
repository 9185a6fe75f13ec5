/** `/help [command]`: every contributed command (kernel.commands()) with its argument hint and description. */
import { oneLine } from '../../config/terminal-safe.js';
import type { Command } from '../../types/commands.js';
import type { KernelApi } from '../../types/plugin.js';

/** Widest "/name <hint>" column before descriptions stop being aligned. */
const MAX_COLUMN = 32;

/** The first line only: a help listing stays one line per command (and nothing a terminal acts on). */
function firstLine(text: string): string {
  return oneLine(text.split(/\r\n?|\n/, 1)[0]!);
}

/** Names, hints and descriptions come from files a repository wrote: each stays on its line. */
export function usage(command: Command): string {
  return command.argumentHint ? `/${oneLine(command.name)} ${oneLine(command.argumentHint)}` : `/${oneLine(command.name)}`;
}

/** By name, the first contribution of a name only (the one `/name` runs). */
export function listCommands(commands: readonly Command[]): Command[] {
  const seen = new Set<string>();
  const unique = commands.filter((command) => (seen.has(command.name) ? false : (seen.add(command.name), true)));
  return unique.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function renderHelp(commands: readonly Command[]): string {
  const listed = listCommands(commands);
  if (listed.length === 0) return 'No commands are available in this build.';
  const width = Math.min(MAX_COLUMN, Math.max(...listed.map((c) => usage(c).length)));
  const lines = listed.map((c) => {
    const left = usage(c);
    const description = firstLine(c.description);
    return left.length > width ? `  ${left}\n  ${' '.repeat(width)}  ${description}` : `  ${left.padEnd(width)}  ${description}`;
  });
  return ['Commands:', ...lines].join('\n');
}

export function helpCommand(kernel: Pick<KernelApi, 'commands'>): Command {
  return {
    name: 'help',
    description: 'List the available commands, or describe one',
    argumentHint: '[command]',
    async run(_session, args) {
      const commands = kernel.commands();
      const wanted = args.trim().replace(/^\//, '');
      if (wanted === '') return { output: renderHelp(commands) };
      const command = listCommands(commands).find((c) => c.name === wanted);
      if (!command) {
        const names = listCommands(commands).map((c) => `/${c.name}`).join(', ') || '(none)';
        return { isError: true, output: `/help: there is no command /${wanted}; available: ${names}` };
      }
      return { output: `${usage(command)}\n  ${oneLine(command.description)}` };
    },
  };
}
