/**
 * Slash commands in an editor: advertised as `available_commands_update` (every contributed
 * command, skills included), and a prompt written as `/name args` runs that command, as in the
 * terminal UI and `-p`. A first word that names an existing top-level path (`/tmp is full`) is text.
 */
import { existsSync } from 'node:fs';
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { slashCall, type Command } from '../../types/commands.js';


export type SlashPrompt = { kind: 'text' } | { kind: 'command'; command: Command; args: string } | { kind: 'unknown'; name: string };

export function slashPrompt(prompt: string, commands: readonly Command[]): SlashPrompt {
  const call = slashCall(prompt);
  if (!call) return { kind: 'text' };
  const command = commands.find((c) => c.name === call.name);
  if (command) return { kind: 'command', command, args: call.args };
  return existsSync(`/${call.name}`) ? { kind: 'text' } : { kind: 'unknown', name: call.name };
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
