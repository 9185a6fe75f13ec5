/**
 * A command the user runs that expands to a prompt (a command file, a skill, a plugin's command)
 * passes userPromptExpansion before that prompt is used: Claude Code's UserPromptExpansion hook
 * runs there. A tap may drop the expansion (the command fails with the reason, nothing is sent) or
 * add context after the prompt; the prompt then passes userPromptSubmit like any other. A command
 * that only prints (no prompt) passes no hook.
 */
import type { Command, CommandResult, CommandScope } from '../types/commands.js';
import type { KernelHooks, PromptExpansionContext } from '../types/hooks.js';
import type { PermissionMode } from '../types/permissions.js';
import type { AgentSession } from '../types/session.js';

export function expandingCommand(command: Command, scope: CommandScope, hooks: KernelHooks): Command {
  const run = async (session: AgentSession, args: string, context: { mode: PermissionMode }): Promise<CommandResult> => {
    const result = await command.run(session, args, context);
    if (result.prompt === undefined || result.isError) return result;
    const expansion: PromptExpansionContext = {
      sessionId: session.sessionId,
      agentId: session.agentId,
      ...(session.parentAgentId !== undefined ? { parentAgentId: session.parentAgentId } : {}),
      ...(session.agentType !== undefined ? { agentType: session.agentType } : {}),
      projectRoot: session.projectRoot,
      homeDir: session.homeDir,
      mode: context.mode,
      command: command.name,
      args,
      scope,
      ...(command.source !== undefined ? { source: command.source } : {}),
      prompt: result.prompt,
    };
    const answer = await hooks.userPromptExpansion.promise(expansion);
    if (answer?.block) return { output: `/${command.name} was not run: ${answer.block.by}: ${answer.block.reason}`, isError: true };
    const added = answer?.additionalContext.filter((text) => text.trim() !== '') ?? [];
    return added.length === 0 ? result : { ...result, prompt: [result.prompt, ...added].join('\n\n') };
  };
  return Object.freeze({
    name: command.name,
    ...(command.scope !== undefined ? { scope: command.scope } : {}),
    ...(command.source !== undefined ? { source: command.source } : {}),
    description: command.description,
    ...(command.argumentHint !== undefined ? { argumentHint: command.argumentHint } : {}),
    run,
  });
}
