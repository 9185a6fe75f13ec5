/**
 * `load_skill {name, arguments?}` (S3, T1): the model activates a skill from the catalog. A system
 * tool — read-only, always offered, exempt from allowlists — so no skill's `allowed_tools` and no
 * sub-agent's filter can lock the model out of reading a procedure. Inline skills land in the
 * environment block (the result is short, so the body is not in history twice); a fork-mode skill
 * runs in a sub-agent and its final text is the result.
 */
import type { Tool } from '../../types/tools.js';
import { activateSkill, type ActivationDeps } from './activation.js';

export const LOAD_SKILL = 'load_skill';

/** A fork-mode skill is a whole sub-agent run: it gets as long as the agent tool gives one (L7). */
export const FORK_SKILL_TIMEOUT_MS = 30 * 60_000;
/** An inline load only reads a file. */
export const INLINE_SKILL_TIMEOUT_MS = 30_000;

export function loadSkillTool(deps: ActivationDeps): Tool {
  return {
    name: LOAD_SKILL,
    description:
      'Activate a skill from the Skills section of the system prompt: its full instructions are loaded from disk and pinned to the Active Skills ' +
      'section of every following request (a fork-mode skill runs in an isolated sub-agent and returns its result). Pass the user\'s request as ' +
      '`arguments` when the skill works on one.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill name exactly as listed in the Skills section.' },
        arguments: { type: 'string', description: 'What the skill should work on (replaces $ARGUMENTS in the skill, or is added as the user request).' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    readOnly: true,
    system: true,
    // The skill is what rules name: `Skill(commit)`, `load_skill(commit)`, and with its arguments `Skill(review-pr *)`.
    permissionTarget: (input) => ({
      kind: 'named',
      name: typeof input.name === 'string' ? input.name.trim() : '',
      ...(typeof input.arguments === 'string' && input.arguments.trim() !== '' ? { detail: input.arguments } : {}),
    }),
    timeoutMs: (input) => (deps.store.current.get(String(input.name ?? ''))?.mode === 'fork' ? FORK_SKILL_TIMEOUT_MS : INLINE_SKILL_TIMEOUT_MS),
    async execute(input, context) {
      const name = typeof input.name === 'string' ? input.name.trim() : '';
      if (!name) return { content: 'load_skill needs `name`: a skill name from the Skills section of the system prompt.', isError: true };
      if (input.arguments !== undefined && typeof input.arguments !== 'string') return { content: '`arguments` must be a string.', isError: true };
      const skill = deps.store.current.get(name);
      if (skill && deps.heldByUser(skill)) return { content: `There is no skill "${skill.name}" to load: /${skill.name} is the user's own command, and this project's skill of that name is not used until the project is trusted.`, isError: true };
      if (skill && !skill.modelInvocable) return { content: `The skill "${skill.name}" is run only by the user (/${skill.name}); it cannot be loaded with load_skill.`, isError: true };
      const outcome = await activateSkill(deps, context.session, name, (input.arguments as string | undefined) ?? '', context.signal);
      if (outcome.kind === 'error') return { content: outcome.message, isError: true };
      if (outcome.kind === 'fork') return { content: outcome.text, isError: outcome.isError };
      // Its hooks, and its `model:`, hold for the rest of this turn.
      deps.hooks.forTurn(context.session, outcome.skill, outcome.endHooks);
      const refused = deps.models.apply(context.session, outcome.skill);
      if (refused) return { content: `The skill "${outcome.skill.name}" is active, but ${refused}; the session's model continues.`, isError: true };
      return {
        content: `The skill "${outcome.skill.name}" is active: its instructions are in the Active Skills section of the system prompt from the next request on. Follow them now.`,
      };
    },
  };
}
