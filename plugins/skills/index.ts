/**
 * The skills plugin (S1–S7): SKILL.md folders — the Agent Skills format Claude Code uses — as
 * procedures the model loads on demand.
 *
 * - Catalog (catalog.ts) from `~/.mewcode/skills`, the extra roots (`.claude/skills`,
 *   `.agents/skills`) and `<root>/.mewcode/skills`, the project winning; loaded in `apply` so the
 *   first request and `-p "/name"` see it; the additional directories' (`--add-dir`) skills
 *   under the project's trust rules (additional-roots.ts); reloaded (a complete new catalog swapped in) when a
 *   skills folder changes or a skill is installed.
 * - Progressive disclosure: names and descriptions in the stable prompt (buildSystemPrompt, K3);
 *   bodies only through `load_skill` or `/<name> args`, re-read from disk each time, shown in the
 *   per-request environment block (buildEnvironment) in activation order. A nested folder's
 *   skills (`packages/api/.claude/skills`) are announced with the file tool result that found
 *   them instead (nested-roots.ts), so the stable prompt never changes.
 * - Active skills are per session: cleared when a session starts or another one is resumed, and
 *   re-rendered from disk after a compaction (postCompact) with a reminder that they still apply.
 * - Fork mode runs the skill through TOKENS.SubagentRunner.
 */
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { findRole, unknownAgentMessage, type SubagentRunner } from '../../types/subagents.js';
import { readRendered } from './activation.js';
import { loadSkillTool } from './load-skill-tool.js';
import { INSTALL_SKILL, installSkillDefinition } from './install-definition.js';
import { PermissionStage } from '../../types/permissions.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import { ToolDenials } from '../../sdk/tool-denials.js';
import { renderActive, renderCatalog, type ActiveEntry } from './render.js';
import { SKILLS_RUNTIME, SkillsRuntime } from './runtime.js';
import { skillsSection } from './settings.js';
import { skillsListCommand } from './skills-list-command.js';
import { DISCOVERING_TOOLS, renderNestedSkills } from './nested-roots.js';
import { filePathOf } from '../../sdk/file-tool-support/file-fields.js';
import { toolPathAbsolute } from '../../sdk/file-tool-support/tool-path.js';

export { skillsSection, type SkillsSettings } from './settings.js';
export { SKILLS_RUNTIME, SkillsRuntime } from './runtime.js';

const NAME = 'skills';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  subcommands: [
    {
      name: 'skills',
      usage: 'skills [--trust-project] | skills install <url> [--project]',
      summary:
        'list the skills a run here would offer (name, mode, source folder, description, problems found), or install one from a github.com tree URL, a raw.githubusercontent.com SKILL.md or skills.sh into ~/.mewcode/skills (or the project\'s .mewcode/skills); MEWCODE_SKILLS_GITHUB_API / _RAW_BASE change the endpoints',
      run: async (context) => (await import('./skills-subcommand.js')).runSkillsCommand(context),
    },
  ],
  config: skillsSection,
  bindings: new ContainerModule(({ bind }) => {
    bind<SkillsRuntime>(SKILLS_RUNTIME)
      .toDynamicValue((context) => new SkillsRuntime(context.get<KernelApi>(TOKENS.Kernel)))
      .inSingletonScope();
    bind(TOKENS.Tool)
      .toDynamicValue((context) => loadSkillTool(context.get<SkillsRuntime>(SKILLS_RUNTIME).deps))
      .inSingletonScope();
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const runtime = context.get<SkillsRuntime>(SKILLS_RUNTIME);
        return lazyTool(installSkillDefinition, async () => (await import('./install-tool.js')).installSkillTool(runtime));
      })
      .inSingletonScope();
    bind(TOKENS.ReadOnlyDirectories)
      .toDynamicValue((context) => {
        const runtime = context.get<SkillsRuntime>(SKILLS_RUNTIME);
        return Object.freeze({ directories: (session: { sessionId: string; agentId: string }) => runtime.readableDirectories(session) });
      })
      .inSingletonScope();
    bind(TOKENS.Command)
      .toDynamicValue((context) => skillsListCommand(context.get<SkillsRuntime>(SKILLS_RUNTIME)))
      .inSingletonScope();
    bind(TOKENS.CommandProvider)
      .toDynamicValue((context) => {
        const runtime = context.get<SkillsRuntime>(SKILLS_RUNTIME);
        return Object.freeze({ commands: () => runtime.commands() });
      })
      .inSingletonScope();
  }),
  async apply(kernel) {
    const runtime = kernel.container.get<SkillsRuntime>(SKILLS_RUNTIME);
    await runtime.store.reload();

    // An installed skill is loaded into the prompt of every later session (the user's: in every
    // project), as `.mewcode/**` and the dotfiles are, which the file tools ask before writing in
    // every mode; so does install_skill, bypassPermissions included, after the rules (an allow rule
    // naming install_skill passes it: the user's, or a trusted project's, which may run hooks anyway).
    kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Rules + 50 }, async (request) =>
      request.toolName === INSTALL_SKILL
        ? {
            decision: 'ask',
            layer: NAME,
            reason: `install_skill asks in every permission mode: the skill it installs is loaded by every later session (${request.input.scope === 'project' ? "this project's" : 'in every project'}) and followed as the user's own instructions; an allow rule naming install_skill (in your settings, --allowedTools, or the settings of a project you trusted) passes it`,
          }
        : undefined,
    );

    // An active skill's (or a running fork skill's) `disallowed-tools`: denied, whatever else allows.
    const denials = new ToolDenials(kernel);
    kernel.hooks.preToolUse.tapPromise(NAME, async (decision, context) => {
      // load_skill's own call notes the mode its skill's `!` lines are judged in.
      runtime.noteMode(context);
      return denials.decide(decision, context, runtime.denyLists(context));
    });
    // An inline skill's `model:` lasts for its turn: the next prompt submitted brings the session's model back.
    kernel.hooks.userPromptSubmit.tapPromise(NAME, async (submission, context) => {
      runtime.deps.models.promptSubmitted(context);
      // An inline skill's own hooks last for its turn too.
      runtime.deps.hooks.promptSubmitted(context);
      return submission;
    });
    // A sub-agent that loaded an inline skill has no later turn: its run's end ends the skill's hooks.
    kernel.hooks.stop.tapPromise({ name: NAME, stage: 2000 }, async (context) => {
      if (context.agentId !== 'main') runtime.deps.hooks.end(context);
      return undefined;
    });

    kernel.hooks.buildSystemPrompt.tap(NAME, (parts) => {
      // A project skill whose name the user's own command holds (untrusted) is not offered to the model either.
      const held = runtime.userHeldNames();
      // A nested folder's skills are announced with the tool result that found them (below), never here:
      // the stable prompt must not change when one is found.
      const catalog = renderCatalog(runtime.store.current.skills.filter((skill) => skill.modelInvocable && skill.root.nested === undefined && !runtime.heldByUser(skill, held)));
      return catalog ? [...parts, catalog] : parts;
    });
    // Nested skills folders (`packages/api/.claude/skills`): found when a file tool first touches a
    // file below them, announced with that result. After the policies and the user's PostToolUse
    // hooks, like nested instruction files; the added text passes the required plugins itself.
    kernel.hooks.postToolUse.tapPromise({ name: NAME, stage: 999.8 }, async (result, context) => {
      if (result.isError || !DISCOVERING_TOOLS.has(context.call.name)) return result;
      const written = filePathOf(context.input);
      if (typeof written !== 'string' || written === '') return result;
      const trigger = toolPathAbsolute(written, context.projectRoot, context.homeDir);
      const found = await runtime.nestedSkillsFor(trigger, context);
      if (found.length === 0) return result;
      const reminder = renderNestedSkills(found, trigger);
      const { images: _images, ...rest } = result;
      const added = kernel.requiredPostToolUse ? await kernel.requiredPostToolUse({ ...rest, content: reminder, isError: false }, context) : { content: reminder };
      return { ...result, content: `${result.content}\n\n${added.content}` };
    });
    kernel.hooks.buildEnvironment.tapPromise(NAME, async (parts, context) => {
      const block = renderActive(runtime.active.list(context));
      return block ? [...parts, block] : parts;
    });
    kernel.hooks.sessionEnd.tapPromise(NAME, async () => runtime.stopWatching());
    // The UI starts the main session after a resume too: that start keeps the resumed skills.
    const resumed = new Set<string>();
    kernel.hooks.sessionStart.tapPromise(NAME, async (session) => {
      const keep = resumed.has(session.sessionId) ? session.sessionId : undefined;
      runtime.active.clearAgent(session.agentId, keep);
      runtime.deps.hooks.endAgent(session.agentId, keep);
    });
    kernel.hooks.sessionResume.tapPromise(NAME, async (session) => {
      resumed.add(session.sessionId);
      // The session left: the hooks of the skills of its last turn end with it.
      runtime.deps.hooks.endAgent(session.agentId, session.sessionId);
      runtime.active.clearAgent(session.agentId, session.sessionId);
      if (session.agentId !== 'main') return;
      // The history says these skills are active: they are again, read from disk now.
      const missing = await runtime.restoreActive(session);
      if (missing.length > 0) {
        kernel.injectReminder(`These skills were active earlier in this session but are no longer available, so their instructions are gone: ${missing.join(', ')}. Do not follow them from memory; ask the user if they are needed.`);
      }
    });
    kernel.hooks.postCompact.tapPromise(NAME, async (state, context) => {
      if (state.compacted) runtime.forgetAnnounced(context);
      const entries = runtime.active.list(context);
      if (!state.compacted || entries.length === 0) return;
      // The compacted history may no longer show the activations: re-read the bodies (they may
      // have changed) and say the skills still apply.
      const fresh: ActiveEntry[] = [];
      for (const entry of entries) {
        const skill = runtime.store.current.get(entry.name);
        // A body whose `!` lines ran keeps what they printed (they are not run again here).
        const rendered = skill ? await readRendered(skill, entry.args, { sessionId: context.sessionId, projectRoot: kernel.projectRoot, trust: runtime.workspaceTrust() }) : undefined;
        fresh.push(rendered?.ok && !rendered.shellLines ? { ...entry, body: rendered.text } : entry);
      }
      runtime.active.replaceAll(context, fresh);
      // Through the kernel's re-injection list, so the note is persisted after the compaction
      // record and reaches whichever session (main or sub-agent) was compacted.
      (state.reinject ??= []).push(`These skills are still active and their instructions are in the Active Skills section: ${fresh.map((e) => e.name).join(', ')}.`);
    });
  },
  async start(kernel) {
    const runtime = kernel.container.get<SkillsRuntime>(SKILLS_RUNTIME);
    // Every plugin has applied: the additional directories a later permission plugin read are known now.
    await runtime.reloadIfRootsChanged();
    // Every plugin's sub-agent types are known by now: a fork skill's `agent:` naming none is said
    // at start (naming file and key); running it is refused (activation.ts).
    const runner = kernel.container.isBound(TOKENS.SubagentRunner) ? kernel.container.get<SubagentRunner>(TOKENS.SubagentRunner) : undefined;
    for (const skill of runtime.store.current.skills) {
      if (skill.agent === undefined || !runner || findRole(runner.roles(), skill.agent)) continue;
      kernel.warn(`skills: skill "${skill.name}": ${unknownAgentMessage(skill.file, skill.agent, runner.roles())}`);
    }
    // A skill's own hooks: their problems said now, naming file, line and key (they run when it is active).
    await runtime.deps.hooks.check(runtime.store.current.skills);
    if (runtime.settings().watch) runtime.watch();
  },
});
