/**
 * Slash commands in an editor: advertised as `available_commands_update` (every contributed
 * command, skills included), and a prompt written as `/name args` runs that command, as in the
 * terminal UI and `-p`. A first word that names an existing top-level path (`/tmp is full`) is text.
 */
import { existsSync } from 'node:fs';
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { SLASH_CALL, type Command } from '../../types/commands.js';


export type SlashPrompt = { kind: 'text' } | { kind: 'command'; command: Command; args: string } | { kind: 'unknown'; name: string };

export function slashPrompt(prompt: string, commands: readonly Command[]): SlashPrompt {
  const match = SLASH_CALL.exec(prompt.trim());
  if (!match) return { kind: 'text' };
  const command = commands.find((c) => c.name === match[1]);
  if (command) return { kind: 'command', command, args: (match[2] ?? '').trim() };
  return existsSync(`/${match[1]}`) ? { kind: 'text' } : { kind: 'unknown', name: match[1]! };
}

export function unknownCommandText(name: string, commands: readonly Command[]): string {
  const names = [...new Set(commands.map((c) => `/${c.name}`))].sort();
  const available = names.length > 0 ? `available: ${names.join(', ')}` : 'this build has no slash commands';
  return `Unknown command /${name}; ${available}. To send text that starts with a slash to the model, put a word before it.`;
}

/** The commands as the editor lists them (first occurrence of a name wins, as when one runs). */
export function availableCommands(commands: readonly Command[]): AvailableCommand[] {
  const seen = new Set<string>();
  const listed: AvailableCommand[] = [];
  for (const command of commands) {
    if (seen.has(command.name)) continue;
    seen.add(command.name);
    listed.push({
      name: command.name,
      description: command.description.split('\n', 1)[0] ?? '',
      ...(command.argumentHint ? { input: { hint: command.argumentHint } } : {}),
    });
  }
  return listed;
}
