/**
 * One command per name in the kernel's list. The first listed keeps a name (the bound, built-in
 * commands come first), except that while the project is not trusted a repository's command gives
 * way to the user's own or a built-in one of the same name, whatever their kinds: a clone's
 * `.claude/skills/review` must not become the user's `~/.claude/commands/review.md`, nor a
 * project command file the user's skill. Each plugin keeps this rule within its own kind; only
 * here are all kinds side by side.
 */
import type { Command, CommandScope } from '../types/commands.js';
import { terminalSafe } from '../config/terminal-safe.js';

export interface ScopedCommand {
  command: Command;
  scope: CommandScope;
}

/** The file a warning names, on one line whatever the repository named it. */
function shownSource(command: Command): string {
  return command.source ? terminalSafe(command.source) : `the project's /${command.name}`;
}

function holder(winner: ScopedCommand): string {
  if (winner.scope === 'builtin') return 'a built-in command';
  return winner.command.source ? `the user's own command (${terminalSafe(winner.command.source)})` : "the user's own command";
}

/**
 * `entries` in the kernel's order; `warn` is told once per replaced project command, naming its
 * file (the project's), never the user's as "not used".
 */
export function resolveCommandNames(entries: readonly ScopedCommand[], projectTrusted: boolean, warn: (command: Command, message: string) => void): Command[] {
  const byName = new Map<string, ScopedCommand>();
  for (const entry of entries) {
    const earlier = byName.get(entry.command.name);
    if (!earlier) {
      byName.set(entry.command.name, entry);
      continue;
    }
    if (!projectTrusted && earlier.scope === 'project' && entry.scope !== 'project') {
      byName.set(entry.command.name, entry); // the map keeps the earlier place in the list
      warn(earlier.command, `${shownSource(earlier.command)}: /${earlier.command.name} is also ${holder(entry)}, which wins while this project is not trusted; this project's one is not used`);
    } else if (!projectTrusted && entry.scope === 'project' && earlier.scope !== 'project') {
      warn(entry.command, `${shownSource(entry.command)}: /${entry.command.name} is also ${holder(earlier)}, which wins while this project is not trusted; this project's one is not used`);
    }
  }
  return [...byName.values()].map((entry) => entry.command);
}
