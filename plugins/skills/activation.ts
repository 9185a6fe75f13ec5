/**
 * What `load_skill` and `/<name> args` both do: find the skill, re-read its body from disk (S3),
 * render it with the arguments (S5), then either activate it in the calling session (inline) or
 * run it in an isolated sub-agent and return that agent's final text (fork, S6).
 */
import type { AgentSession, ForkContext } from '../../types/session.js';
import type { PermissionMode } from '../../types/permissions.js';
import { findRole, unknownAgentMessage, type SubagentRunner } from '../../types/subagents.js';
import { expandPluginVariables } from '../../types/claude-plugins.js';
import type { ActiveSkills } from './active.js';
import type { CatalogStore } from './catalog-store.js';
import { renderBody } from './render.js';
import { skillBody, type Skill } from './skill.js';
import { registeredToolNames } from './tool-names.js';
import { frontmatterReady } from './frontmatter.js';
import { readSkillFile } from './skill-file.js';
import type { SkillTurnModels } from './turn-model.js';
import type { KernelApi } from '../../types/plugin.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { SKILLS_KEY } from '../../config/skill-scan.js';
import { refusalFor } from './additional-roots.js';
import { placeArguments } from '../../config/command-arguments.js';
import { expandInCommand, expandSessionVariables, replaceSlots, runShellLines, ShellLineError, takeShellLines, withoutSlots } from '../../config/command-shell-lines.js';
import { forkAgentId, wholeToolEntries, type DenyList } from '../../sdk/tool-denials.js';
import type { SkillHooks } from './skill-hooks.js';

export interface ActivationDeps {
  store: CatalogStore;
  active: ActiveSkills;
  /** The sub-agent runner when a plugin binds one (looked up at each fork). */
  runner(): SubagentRunner | undefined;
  /** `fork_context: recent` starts the fork with this many recent messages. */
  forkRecentMessages(): number;
  /** A project skill whose name the user's own command holds while the project is untrusted (runtime.ts). */
  heldByUser(skill: Skill): boolean;
  /** The `disallowed-tools` of each fork skill running now, by its sub-agent (`sessionId\0agentId`). */
  forkDenies: Map<string, DenyList>;
  /** An inline skill's `model:` for the turn it is activated for. */
  models: SkillTurnModels;
  kernel: KernelApi;
  /** The workspace trust, when the kernel has one: a project's skill's `!` lines need it. */
  trust(): WorkspaceTrust | undefined;
  /** The permission mode of the agent's latest tool call (load_skill's own): its `!` lines are judged in it. */
  modeOf(session: { sessionId: string; agentId: string }): PermissionMode | undefined;
  /** The skill's own `hooks:`, run while it is active (skill-hooks.ts). */
  hooks: SkillHooks;
}

/** A skill's `disallowed-tools` as a deny list (undefined when it has none). */
export function skillDenies(skill: Skill): DenyList | undefined {
  return skill.disallowedTools.length > 0 ? { entries: skill.disallowedTools, label: `the skill "${skill.name}" (${skill.file})`, base: skill.root.scope } : undefined;
}

export type ActivationOutcome =
  /** `endHooks`: ends the skill's own hooks; the caller keeps them for the turn (SkillHooks.forTurn). */
  | { kind: 'inline'; skill: Skill; rendered: string; endHooks: () => void }
  | { kind: 'fork'; skill: Skill; text: string; isError: boolean }
  | { kind: 'error'; message: string };

/** How many names an unknown-skill result lists (a catalog may hold thousands). */
export const MAX_NAMES_LISTED = 100;

/** Only skills the model may load are named (a `disable-model-invocation` skill is the user's alone). */
export function unknownSkillMessage(name: string, known: readonly Skill[]): string {
  const names = known.filter((skill) => skill.modelInvocable).map((skill) => skill.name);
  const shown = names.slice(0, MAX_NAMES_LISTED).join(', ') + (names.length > MAX_NAMES_LISTED ? `, … and ${names.length - MAX_NAMES_LISTED} more` : '');
  return `Unknown skill "${name}". ${names.length > 0 ? `Available skills: ${shown}.` : 'No skills are installed.'} Use one of these names exactly.`;
}

/** What filling in a skill's text needs: the session's id and project (placeholders), and the workspace trust a project's skill's `!` lines need. */
export interface RenderPlace {
  sessionId: string;
  projectRoot: string;
  trust?: WorkspaceTrust | undefined;
}

/** What running a skill's `!` lines needs (an activation); without it (a resume, a compaction) they are not run again. */
export interface ShellRun {
  kernel: KernelApi;
  session: AgentSession;
  mode: PermissionMode;
  /** The activation's cancel: the running `!` line is stopped and no later one starts. */
  signal?: AbortSignal;
}

/**
 * The body from disk now, rendered; an error names the file. Placeholders as in a command file
 * (config/command-arguments.ts, config/command-shell-lines.ts): the arguments, `${CLAUDE_SKILL_DIR}`
 * (the skill's folder), `${CLAUDE_SESSION_ID}`, `${CLAUDE_PROJECT_DIR}`; and its `` !`…` `` lines
 * run before the body is shown, through the kernel's gate as a command file's do (never asking;
 * one not allowed outright, or failing, stops the activation). A project's skill runs them only
 * when workspace trust approves the exact text read here (the trust scan lists each project
 * SKILL.md with such lines under `skills`, config/skill-scan.ts), as a project's command file's.
 */
export async function readRendered(skill: Skill, args: string, place: RenderPlace, run?: ShellRun): Promise<{ ok: true; text: string; shellLines?: number; fileText: string } | { ok: false; message: string }> {
  const read = await readSkillFile(skill.file, skill.root);
  if (!read.ok) return { ok: false, message: `Cannot read the skill "${skill.name}" (${skill.file}): ${read.message}. It may have been removed or changed; the catalog reloads when its folders change.` };
  const text = read.text;
  await frontmatterReady();
  const body = skillBody(text);
  if (!body.ok) return { ok: false, message: `The skill "${skill.name}" (${skill.file}) no longer parses: ${body.error}` };
  const own = skill.root.variables ? expandPluginVariables(body.body, skill.root.variables) : body.body;
  const label = `The skill "${skill.name}" (${skill.file})`;
  // The file's own `!` lines are taken first: nothing filled in afterwards can add one.
  const taken = takeShellLines(own);
  const variables = { CLAUDE_SESSION_ID: place.sessionId, CLAUDE_PROJECT_DIR: place.projectRoot, CLAUDE_SKILL_DIR: skill.dir };
  const typed = withoutSlots(args);
  let commands: { text: string; placed: boolean }[];
  try {
    commands = taken.commands.map((command) => placeArguments(expandInCommand(command, variables, label), typed, skill.argumentNames));
  } catch (error) {
    if (error instanceof ShellLineError) return { ok: false, message: error.message };
    throw error;
  }
  const rendered = renderBody(skill, expandSessionVariables(taken.body, variables), typed, commands.some((command) => command.placed));
  if (commands.length === 0) return { ok: true, text: rendered, fileText: text };
  // Text from a repository is harmless; running its commands is what trust is for. Asked even
  // when they are not run now (a resume): a body that once ran them is shown only as trusted.
  const refused = refusalFor(skill, `${label}: its shell commands (!\`…\` lines or \`\`\`! blocks)`);
  if (refused) return { ok: false, message: refused };
  if (skill.root.scope === 'project' && place.trust?.approves(skill.file, SKILLS_KEY, text) !== true) {
    return {
      ok: false,
      message: `${label} runs shell commands (!\`…\` lines or \`\`\`! blocks), which need this project trusted with the file as it is now (the trust notice lists it): trust the workspace (mewcode --trust-project, or answer the trust question of an interactive session) to use it.`,
    };
  }
  if (!run) return { ok: true, fileText: text, shellLines: commands.length, text: replaceSlots(rendered, (index) => `(the output of !\`${commands[index]?.text ?? ''}\` is not shown again: it ran when the skill was activated)`) };
  try {
    return { ok: true, fileText: text, text: await runShellLines(rendered, commands.map((command) => command.text), run.kernel, run.session, run.mode, label, run.signal) };
  } catch (error) {
    if (error instanceof ShellLineError) return { ok: false, message: error.message };
    throw error;
  }
}

export function forkContextOf(skill: Skill, recent: number): ForkContext {
  return skill.forkContext === 'recent' ? { recent } : skill.forkContext;
}

export const NO_RUNNER = (name: string): string =>
  `The skill "${name}" runs in fork mode (an isolated sub-agent), but this build has no sub-agent runner (no plugin binds TOKENS.SubagentRunner). ` +
  'Follow the task without the skill, or ask the user to enable the subagents plugin.';

/**
 * `mode`: the permission mode the user's `/name` was typed in; a fork runs in it (without it, the
 * runner uses the mode of the parent's last tool call, which may be an earlier mode).
 */
export async function activateSkill(deps: ActivationDeps, session: AgentSession, name: string, args: string, signal?: AbortSignal, mode?: PermissionMode): Promise<ActivationOutcome> {
  const catalog = deps.store.current;
  const skill = catalog.get(name);
  if (!skill) return { kind: 'error', message: unknownSkillMessage(name, catalog.skills) };
  const place = { sessionId: session.sessionId, projectRoot: deps.kernel.projectRoot, trust: deps.trust() };
  const rendered = await readRendered(skill, args, place, { kernel: deps.kernel, session, mode: mode ?? deps.modeOf(session) ?? 'default', ...(signal ? { signal } : {}) });
  if (!rendered.ok) return { kind: 'error', message: rendered.message };
  // Cancelled while it was read or its lines ran: not activated, no sub-agent started.
  if (signal?.aborted) return { kind: 'error', message: `The skill "${skill.name}" was not activated: cancelled` };
  if (skill.mode === 'inline') {
    const deny = skillDenies(skill);
    deps.active.activate(session, { name: skill.name, args, dir: skill.dir, body: rendered.text, ...(deny ? { deny } : {}) });
    // Its hooks, from the text read now (the one trust approves), for the caller to keep for the turn.
    const endHooks = await deps.hooks.start(skill, rendered.fileText, { sessionId: session.sessionId, agentId: session.agentId });
    return { kind: 'inline', skill, rendered: rendered.text, endHooks };
  }
  const runner = deps.runner();
  if (!runner) return { kind: 'fork', skill, text: NO_RUNNER(skill.name), isError: true };
  // `agent:` runs the fork as that sub-agent type (its tools, model and prompt); a name no type
  // has is refused, never run as the general agent with every tool.
  let role: string | undefined;
  if (skill.agent !== undefined) {
    const roles = runner.roles();
    role = findRole(roles, skill.agent)?.name;
    if (role === undefined) return { kind: 'fork', skill, text: `The skill "${skill.name}" is not run: ${unknownAgentMessage(skill.file, skill.agent, roles)}.`, isError: true };
  }
  const allowedTools = skill.allowedTools.length > 0 ? registeredToolNames(skill.allowedTools) : undefined;
  // `disallowed-tools`: a whole tool is never given to the sub-agent; a narrower entry (`Bash(rm:*)`)
  // is denied to its calls (the skills plugin's preToolUse tap) for as long as it runs.
  const deny = skillDenies(skill);
  const disallowedTools = wholeToolEntries(skill.disallowedTools);
  const agentId = forkAgentId();
  const forkKey = `${session.sessionId}\u0000${agentId}`;
  if (deny) deps.forkDenies.set(forkKey, deny);
  // Its hooks see the fork's events only (and its sub-agents'), its Stop hooks as SubagentStop, until it ends.
  let endHooks: () => void = () => undefined;
  const header = `You are running the skill "${skill.name}" in an isolated conversation. Its folder is ${skill.dir} (paths in it are relative to that folder). ` +
    'When you are done, answer with the result: your final message is all the caller receives.';
  try {
    endHooks = await deps.hooks.start(skill, rendered.fileText, { sessionId: session.sessionId, agentId, asSubagent: true });
    const result = await runner.run({
      parent: session,
      prompt: args.trim() || `Carry out the "${skill.name}" skill's instructions.`,
      description: `skill ${skill.name}`,
      ...(role ? { role } : {}),
      context: forkContextOf(skill, deps.forkRecentMessages()),
      systemPrompt: [header, rendered.text],
      ...(allowedTools ? { allowedTools } : {}),
      ...(disallowedTools.length > 0 ? { disallowedTools } : {}),
      agentId,
      ...(skill.model ? { model: skill.model } : {}),
      ...(signal ? { signal } : {}),
      ...(mode ? { mode } : {}),
    });
    return { kind: 'fork', skill, text: result.text || `(the skill "${skill.name}" ended without a final message: ${result.endReason})`, isError: result.isError };
  } catch (error) {
    return { kind: 'fork', skill, text: `The skill "${skill.name}" could not run as a sub-agent: ${(error as Error).message}`, isError: true };
  } finally {
    endHooks();
    deps.forkDenies.delete(forkKey);
  }
}
