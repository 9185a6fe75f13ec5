/**
 * What a user's or project's command (a command file, a skill, a Claude Code plugin's command)
 * passes, in Claude Code's order:
 * 1. userPromptSubmit, on the line as typed (`/deploy prod`), before the command runs: its `!`
 *    lines and a skill's run are the user's shell commands, which a blocking tap must stop
 *    (prompt-judgement.ts). A block fails the command with the reason; nothing of it runs.
 * 2. the command runs; when it expands to a prompt, userPromptExpansion (Claude Code's
 *    UserPromptExpansion hook): a tap may drop the expansion (the command fails with the reason,
 *    nothing is sent) or add context after the prompt.
 * 3. the prompt is run with the judgement of step 1 (CommandResult.judged): userPromptSubmit does
 *    not run again on it, and the context it added goes with it.
 * MewCode's own commands (`builtin`: /help, /clear, /compact…) are the program's, as Claude Code's
 * built-in ones: no hook; one that expanded to a prompt would pass both when run.
 */
import type { Command, CommandContext, CommandResult, CommandScope } from '../types/commands.js';
import type { KernelHooks, PromptExpansionContext } from '../types/hooks.js';
import type { AgentSession } from '../types/session.js';
import { bindJudgement, judgeTypedLine, typedLine } from './prompt-judgement.js';

export function expandingCommand(command: Command, scope: CommandScope, hooks: KernelHooks): Command {
  const run = async (session: AgentSession, args: string, context: CommandContext): Promise<CommandResult> => {
    const runContext = {
      sessionId: session.sessionId,
      agentId: session.agentId,
      ...(session.parentAgentId !== undefined ? { parentAgentId: session.parentAgentId } : {}),
      ...(session.agentType !== undefined ? { agentType: session.agentType } : {}),
      projectRoot: session.projectRoot,
      homeDir: session.homeDir,
      mode: context.mode,
    };
    const judged = scope === 'builtin' ? undefined : await judgeTypedLine(hooks, { ...runContext, prompt: typedLine(command.name, args.trim()) });
    if (judged && 'block' in judged) return { output: `Prompt blocked by ${judged.block.by}: ${judged.block.reason}`, isError: true, blocked: true };
    const result = await expanded(session, args, context, runContext);
    if (!judged || result.prompt === undefined || result.isError) return result;
    bindJudgement(judged.judgement, result.prompt);
    return { ...result, judged: judged.judgement };
  };
  const expanded = async (session: AgentSession, args: string, context: CommandContext, runContext: Omit<PromptExpansionContext, 'command' | 'args' | 'scope' | 'prompt' | 'source'>): Promise<CommandResult> => {
    const result = await command.run(session, args, context);
    // Cancelled: no expansion hook runs for a prompt that will not be sent.
    if (result.prompt === undefined || result.isError || context.signal?.aborted) return result;
    const expansion: PromptExpansionContext = {
      ...runContext,
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
