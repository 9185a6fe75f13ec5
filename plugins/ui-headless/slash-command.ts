/**
 * `-p "/name args"`: a prompt whose first word names a contributed command runs that command; one
 * written as a command call whose name no plugin contributes is an error, not a prompt.
 */
import { existsSync } from 'node:fs';
import { slashCall, type Command } from '../../types/commands.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { AgentSession, PromptJudgement } from '../../types/session.js';

export interface SlashCall {
  command: Command;
  args: string;
}

/**
 * The command name when the prompt is written as a command call, known or not. A prompt that
 * starts with a path (`/usr/lib …`, `/tmp/x.log …`) is not one: its first word has another `/`.
 */
export function slashCommandName(prompt: string): string | undefined {
  const name = slashCall(prompt)?.name;
  // `/tmp is full`, `/etc needs …`: a word that names an existing top-level path is text.
  return name !== undefined && !existsSync(`/${name}`) ? name : undefined;
}

/** The contributed command the prompt calls (the first contribution of that name), if any. */
export function parseSlashCommand(prompt: string, commands: readonly Command[]): SlashCall | undefined {
  const call = slashCall(prompt);
  if (!call) return undefined;
  const command = commands.find((c) => c.name === call.name);
  return command ? { command, args: call.args } : undefined;
}

/** What `-p "/name"` says when no plugin contributes `name` (the prompt is not sent to the model). */
export function unknownCommandMessage(name: string, commands: readonly Command[]): string {
  const names = [...new Set(commands.map((c) => `/${c.name}`))].sort();
  const help = names.includes('/help') ? ' (mewcode -p "/help" describes them)' : '';
  const available = names.length > 0 ? `available: ${names.join(', ')}${help}` : 'this build has no slash commands';
  return `unknown command /${name}; ${available}. To send text that starts with a slash to the model, put a word before it.`;
}

export interface SlashOutcome {
  output: string;
  isError: boolean;
  /** Set when the command expands to a prompt for the model. */
  prompt?: string;
  /** The kernel's userPromptSubmit judgement of the typed line (CommandResult.judged), for the prompt's run. */
  judged?: PromptJudgement;
}

/** `signal`: the run's cancel (a stop signal, the output's reader gone), which the command may honour. */
export async function runSlashCommand(call: SlashCall, session: AgentSession, mode: PermissionMode, signal?: AbortSignal): Promise<SlashOutcome> {
  try {
    const result = await call.command.run(session, call.args, { mode, ...(signal ? { signal } : {}) });
    return { output: result.output ?? '', isError: result.isError === true, ...(result.prompt !== undefined ? { prompt: result.prompt } : {}), ...(result.judged ? { judged: result.judged } : {}) };
  } catch (error) {
    return { output: `/${call.command.name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
  }
}
