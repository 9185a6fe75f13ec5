/** `-p "/name args"`: a prompt whose first word names a contributed command runs that command. */
import type { Command } from '../../types/commands.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { AgentSession } from '../../types/session.js';

export interface SlashCall {
  command: Command;
  args: string;
}

/** Only a known command name counts, so a prompt that starts with a path (`/usr/lib …`) stays a prompt. */
export function parseSlashCommand(prompt: string, commands: readonly Command[]): SlashCall | undefined {
  const match = /^\/([A-Za-z0-9][\w:-]*)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!match) return undefined;
  const command = commands.find((c) => c.name === match[1]);
  return command ? { command, args: (match[2] ?? '').trim() } : undefined;
}

export interface SlashOutcome {
  output: string;
  isError: boolean;
  /** Set when the command expands to a prompt for the model. */
  prompt?: string;
}

export async function runSlashCommand(call: SlashCall, session: AgentSession, mode: PermissionMode): Promise<SlashOutcome> {
  try {
    const result = await call.command.run(session, call.args, { mode });
    return { output: result.output ?? '', isError: result.isError === true, ...(result.prompt !== undefined ? { prompt: result.prompt } : {}) };
  } catch (error) {
    return { output: `/${call.command.name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
  }
}
