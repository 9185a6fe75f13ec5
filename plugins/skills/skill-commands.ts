/**
 * Every skill is also the slash command `/<name> args` (S3, S5), in the terminal UI and headless
 * (`mewcode -p "/name args"`). The arguments reach the skill (the seed dropped them). An inline
 * skill is activated and the run continues with a short prompt naming it (the body is in the
 * environment block, not in history twice); a fork-mode skill's result is the command's output.
 */
import type { Command, CommandResult } from '../../types/commands.js';
import type { AgentSession } from '../../types/session.js';
import { activateSkill, type ActivationDeps } from './activation.js';
import type { Skill } from './skill.js';

export function skillPrompt(name: string, args: string): string {
  const head = `Use the "${name}" skill: it is now active and its instructions are in the Active Skills section of the system prompt.`;
  return args.trim() ? `${head}\n\n${args.trim()}` : head;
}

export function skillCommand(deps: ActivationDeps, skill: Skill): Command {
  return {
    name: skill.name,
    // Whose it is: the kernel keeps a user's command of the same name over an untrusted project's skill.
    scope: skill.root.scope,
    source: skill.file,
    description: `${skill.description || '(no description)'} [skill${skill.mode === 'fork' ? ', fork' : ''}]`,
    ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
    async run(session: AgentSession, args: string, context): Promise<CommandResult> {
      // A fork runs in the mode the user typed the command in (plan mode stays plan mode).
      const outcome = await activateSkill(deps, session, skill.name, args, context?.signal, context?.mode);
      if (outcome.kind === 'error') return { output: outcome.message, isError: true };
      if (outcome.kind === 'fork') return { output: outcome.text, isError: outcome.isError };
      const prompt = skillPrompt(outcome.skill.name, args);
      // `model:` sends this prompt's turn to the skill's model, as a command file's does.
      const refused = deps.models.apply(session, outcome.skill, prompt);
      if (refused) {
        outcome.endHooks();
        return { output: refused, isError: true };
      }
      // Its hooks hold for the turn this prompt starts.
      deps.hooks.forTurn(session, outcome.skill, outcome.endHooks, prompt);
      return { prompt };
    },
  };
}
