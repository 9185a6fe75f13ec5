/**
 * The plugin's one service: the catalog store, the active skills, and what `load_skill`, the skill
 * commands and `install_skill` share. Settings, trust and the sub-agent runner are looked up when
 * used (the configuration is validated after bindings load; a runner may be bound by a later plugin).
 */
import { existsSync, realpathSync } from 'node:fs';
import type { ServiceIdentifier } from 'inversify';
import path from 'node:path';
import type { ClaudePluginBundles } from '../../types/claude-plugins.js';
import type { Command } from '../../types/commands.js';
import type { ResolvedConfig } from '../../types/config.js';
import { isPathStrictlyWithin, isPathWithin } from '../../types/path-within.js';
import type { KernelApi } from '../../types/plugin.js';
import type { SubagentRunner } from '../../types/subagents.js';
import { TOKENS } from '../../types/tokens.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { ActiveSkills } from './active.js';
import { readRendered, skillDenies, type ActivationDeps } from './activation.js';
import type { SkillCatalog } from './catalog.js';
import { CatalogStore, summarizeProblems } from './catalog-store.js';
import { rootsWrittenByProject, skillRoots } from './roots.js';
import { withAdditionalRoots } from './additional-roots.js';
import { NestedRoots, withNestedRoots } from './nested-roots.js';
import type { PermissionSettings } from '../../types/services.js';
import type { Skill, SkillRoot } from './skill.js';
import { loadActiveSkills, saveActiveSkills } from './saved-active.js';
import { DEFAULT_SKILLS_SETTINGS, skillsSection, type SkillsSettings } from './settings.js';
import { skillCommand } from './skill-commands.js';
import { CatalogWatcher, type WatchedChange, type WatchTarget } from './watcher.js';
import { terminalSafe } from '../../config/terminal-safe.js';
import type { DenyList } from '../../sdk/tool-denials.js';
import type { PermissionMode } from '../../types/permissions.js';
import { SkillTurnModels } from './turn-model.js';
import { SkillHooks } from './skill-hooks.js';

/** Agents whose nested-skill announcements are remembered. */
const MAX_ANNOUNCED_AGENTS = 64;

/**
 * The runtime, for this plugin (and its tests) only: a symbol of this module's, which no plugin
 * can name (its active skills are what the environment block shows the model).
 */
export const SKILLS_RUNTIME: ServiceIdentifier<SkillsRuntime> = Symbol('skills/runtime');

export class SkillsRuntime {
  readonly active: ActiveSkills;
  #saveWarned = false;
  readonly store: CatalogStore;
  readonly deps: ActivationDeps;
  #commands: { catalog: SkillCatalog; list: Command[] } | undefined;
  #shadowWarned = new Set<string>();
  /** Each agent's permission mode at its latest tool call (index.ts notes it in preToolUse). */
  readonly #modes = new Map<string, PermissionMode>();

  noteMode(context: { sessionId: string; agentId: string; mode: PermissionMode }): void {
    this.#modes.set(`${context.sessionId}\u0000${context.agentId}`, context.mode);
  }

  constructor(readonly kernel: KernelApi) {
    this.nested = new NestedRoots(kernel.projectRoot);
    // The main session's list is saved with it (a continued session keeps its skills).
    this.active = new ActiveSkills((session, entries) => {
      if (session.agentId !== 'main') return;
      try {
        saveActiveSkills(kernel.projectRoot, session.sessionId, entries);
      } catch (error) {
        if (!this.#saveWarned) kernel.warn(`skills: the active skills of this session are not saved (a continued session will not have them): ${(error as Error).message}`);
        this.#saveWarned = true;
      }
    });
    this.store = new CatalogStore(
      () => [...pluginSkillRoots(kernel), ...this.configuredRoots()],
      () => ({ projectTrusted: this.projectTrusted() }),
      (problems) => kernel.warn(summarizeProblems(problems)),
    );
    this.deps = {
      store: this.store,
      active: this.active,
      runner: () => (kernel.container.isBound(TOKENS.SubagentRunner) ? kernel.container.get<SubagentRunner>(TOKENS.SubagentRunner) : undefined),
      forkRecentMessages: () => this.settings().forkRecentMessages,
      heldByUser: (skill) => this.heldByUser(skill),
      forkDenies: new Map(),
      models: new SkillTurnModels(kernel),
      kernel,
      trust: () => this.workspaceTrust(),
      modeOf: (session) => this.#modes.get(`${session.sessionId}\u0000${session.agentId}`),
      hooks: new SkillHooks(kernel, () => this.workspaceTrust()),
    };
  }

  /**
   * Whether a project's skill is left out for the model too: while the project is not trusted, one
   * of the user's own commands holds its name (the kernel's command list keeps the user's `/name`),
   * so the model is not offered the repository's text under the name the user's request uses.
   */
  heldByUser(skill: Skill, held: ReadonlySet<string> = this.userHeldNames()): boolean {
    return skill.root.scope === 'project' && held.has(skill.name);
  }

  /** The names the user's own commands hold while the project is untrusted (none once it is trusted). */
  userHeldNames(): ReadonlySet<string> {
    if (this.projectTrusted()) return new Set();
    return new Set(this.kernel.commands().filter((command) => command.scope === 'user').map((command) => command.name));
  }

  #watcher: CatalogWatcher | undefined;
  /** Which roots existed when the watched folders were last chosen (watchPlan's `present`). */
  #presentRoots = '';

  /** Reload the catalog when a root or a skill folder changes (hot reload). */
  watch(): void {
    if (this.#watcher) return;
    this.#watcher = new CatalogWatcher((change) => void this.changed(change));
    this.follow(this.store.current);
  }

  stopWatching(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  /** Scan again (e.g. after an install); the watched folders follow the new catalog. */
  async reload(): Promise<SkillCatalog> {
    const catalog = await this.store.reload();
    this.follow(catalog);
    await this.deps.hooks.check(catalog.skills);
    return catalog;
  }

  /**
   * A watched folder changed. Above a missing root (the project root, where every file the user
   * saves and every mount point a sandboxed command needs lands), the catalog is scanned again only
   * when a root appeared or went; otherwise the watched folders just move nearer to the roots.
   */
  private async changed(change: WatchedChange): Promise<void> {
    const plan = watchPlan(this.store.current, this.kernel.projectRoot, this.kernel.homeDir);
    if (change === 'content' || plan.present !== this.#presentRoots) {
      const catalog = await this.store.reload();
      this.follow(catalog, 'all');
      await this.deps.hooks.check(catalog.skills);
    }
    else this.#watcher?.sync(plan.targets, 'way-in');
  }

  private follow(catalog: SkillCatalog, renew?: 'all'): void {
    if (!this.#watcher) return;
    const plan = watchPlan(catalog, this.kernel.projectRoot, this.kernel.homeDir);
    this.#presentRoots = plan.present;
    this.#watcher.sync(plan.targets, renew);
  }

  /**
   * A continued main session: its saved skills activated again, their bodies read from disk now.
   * Returns the names that could not be (removed, renamed, or no longer loading).
   */
  async restoreActive(session: { sessionId: string; agentId: string }): Promise<string[]> {
    const missing: string[] = [];
    for (const saved of loadActiveSkills(this.kernel.projectRoot, session.sessionId)) {
      const skill = this.store.current.get(saved.name);
      const rendered = skill && skill.mode === 'inline' ? await readRendered(skill, saved.args, { sessionId: session.sessionId, projectRoot: this.kernel.projectRoot, trust: this.workspaceTrust() }) : undefined;
      if (!skill || !rendered?.ok) {
        missing.push(saved.name);
        continue;
      }
      const deny = skillDenies(skill);
      this.active.activate(session, { name: skill.name, args: saved.args, dir: skill.dir, body: rendered.text, ...(deny ? { deny } : {}) });
    }
    return missing;
  }

  /**
   * The folders of the session's active skills that its read-only file tools may read: a user's
   * skill (`~/.claude/skills/pdf`), whose body names its own files. Project skills are inside the
   * project already. A root outside the home skill folders counts only in a trusted project (an
   * untrusted project's configuration must not open a folder of its choosing), and a folder that
   * resolves to the home directory, one of its parents or the filesystem root never counts.
   */
  readableDirectories(session: { sessionId: string; agentId: string }): string[] {
    const home = this.kernel.homeDir;
    const homeRoots = new Set([path.join(home, '.mewcode', 'skills'), path.join(home, '.claude', 'skills')]);
    const trusted = this.projectTrusted();
    const dirs: string[] = [];
    for (const entry of this.active.list(session)) {
      const skill = this.store.current.get(entry.name);
      if (!skill || skill.dir !== entry.dir || skill.root.scope !== 'user') continue;
      // A plugin's skill folder is the user's choice, like ~/.claude/skills.
      if (!homeRoots.has(skill.root.dir) && !skill.root.plugin && !trusted) continue;
      let real: string;
      try {
        real = realpathSync(skill.dir);
      } catch {
        continue;
      }
      if (path.dirname(real) === real || isPathWithin(real, realHome(home))) continue;
      dirs.push(real);
    }
    return dirs;
  }

  /**
   * The `disallowed-tools` in force for a tool call: the active skills of the calling agent and of
   * the agent that started it (a sub-agent of a session with a restricting skill is restricted too),
   * and a fork skill's own when the call is its sub-agent's.
   */
  denyLists(context: { sessionId: string; agentId: string; parentAgentId?: string }): DenyList[] {
    const entries = [...this.active.list(context), ...(context.parentAgentId === undefined ? [] : this.active.list({ sessionId: context.sessionId, agentId: context.parentAgentId }))];
    const lists = entries.map((entry) => entry.deny).filter((deny): deny is DenyList => deny !== undefined);
    const fork = this.deps.forkDenies.get(`${context.sessionId}\u0000${context.agentId}`);
    return fork ? [...lists, fork] : lists;
  }

  settings(): SkillsSettings {
    return this.kernel.config<SkillsSettings>(skillsSection.key) ?? DEFAULT_SKILLS_SETTINGS;
  }

  /** The user's, the configured extra and the project's roots; an extra root a project file named is the project's. */
  private configuredRoots(): SkillRoot[] {
    const { container, homeDir, projectRoot } = this.kernel;
    const configured = this.kernel.config<SkillsSettings>(skillsSection.key);
    const config = configured && container.isBound(TOKENS.Config) ? container.get<ResolvedConfig>(TOKENS.Config) : undefined;
    const roots = skillRoots(homeDir, projectRoot, (configured ?? DEFAULT_SKILLS_SETTINGS).extraRoots, rootsWrittenByProject(config));
    return withNestedRoots(withAdditionalRoots(roots, this.additionalDirectories(), projectRoot), this.nested.roots);
  }

  /** The nested skills folders found so far (nested-roots.ts). */
  readonly nested: NestedRoots;
  /** Which nested skills each agent was told of, by session and agent. */
  readonly #announced = new Map<string, Set<string>>();

  /**
   * A file tool touched `file`: the nested skills folders above it not found before join the
   * catalog. Returns the nested skills above it this agent has not been told of (each only once),
   * those that won their name.
   */
  async nestedSkillsFor(file: string, session: { sessionId: string; agentId: string }): Promise<Skill[]> {
    const foundNow = this.nested.discover(file);
    if (foundNow.length > 0) await this.reload();
    const above = new Set(this.nested.roots.filter((root) => root.nested !== undefined && isPathWithin(root.nested, file)).map((root) => root.dir));
    if (above.size === 0) return [];
    const key = `${session.sessionId}\u0000${session.agentId}`;
    const told = this.#announced.get(key) ?? new Set<string>();
    this.#announced.set(key, told);
    // Sub-agents come and go: the oldest agents' lists are dropped (one may then be told again).
    if (this.#announced.size > MAX_ANNOUNCED_AGENTS) this.#announced.delete(this.#announced.keys().next().value!);
    const fresh = this.store.current.skills.filter((skill) => above.has(skill.root.dir) && skill.modelInvocable && !told.has(skill.file) && !this.heldByUser(skill));
    for (const skill of fresh) told.add(skill.file);
    return fresh;
  }

  /** After a compaction the summary may have dropped the announcements: they may be made again. */
  forgetAnnounced(session: { sessionId: string; agentId: string }): void {
    this.#announced.delete(`${session.sessionId}\u0000${session.agentId}`);
  }

  /**
   * The run's additional directories, as the file tools see them (TOKENS.PermissionSettings: the
   * `--add-dir` ones, the user's settings' and a trusted project's); none without that service.
   */
  private additionalDirectories(): readonly string[] {
    const container = this.kernel.container;
    if (!container.isBound(TOKENS.PermissionSettings)) return [];
    try {
      const dirs = container.get<PermissionSettings>(TOKENS.PermissionSettings).additionalDirectories();
      return Array.isArray(dirs) ? dirs.filter((dir): dir is string => typeof dir === 'string' && path.isAbsolute(dir)) : [];
    } catch {
      return [];
    }
  }

  /**
   * Scan again when the roots differ from the current catalog's: a permission plugin applied after
   * this one has now read the settings that name the additional directories.
   */
  async reloadIfRootsChanged(): Promise<void> {
    const now = [...pluginSkillRoots(this.kernel), ...this.configuredRoots()].map((root) => root.dir);
    if (JSON.stringify(now) !== JSON.stringify(this.store.current.roots.map((root) => root.dir))) await this.reload();
  }

  projectTrusted(): boolean {
    return this.workspaceTrust()?.isTrusted() ?? false;
  }

  /** The kernel's workspace trust (TOKENS.WorkspaceTrust), when bound: without it nothing of the project's is trusted. */
  workspaceTrust(): WorkspaceTrust | undefined {
    const container = this.kernel.container;
    return container.isBound(TOKENS.WorkspaceTrust) ? container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
  }

  /** One command per skill, rebuilt when the catalog changes; a built-in command keeps its name. */
  commands(): readonly Command[] {
    const catalog = this.store.current;
    if (this.#commands?.catalog === catalog) return this.#commands.list;
    const builtIn = new Set(this.kernel.container.isBound(TOKENS.Command) ? this.kernel.container.getAll<Command>(TOKENS.Command).map((c) => c.name) : []);
    const list: Command[] = [];
    for (const skill of catalog.skills) {
      if (!skill.userInvocable) continue;
      if (builtIn.has(skill.name)) {
        if (!this.#shadowWarned.has(skill.name)) {
          this.#shadowWarned.add(skill.name);
          this.kernel.warn(`skills: ${terminalSafe(skill.file)}: /${skill.name} is a built-in command, so this skill has no slash command (load_skill still activates it)`);
        }
        continue;
      }
      list.push(skillCommand(this.deps, skill));
    }
    this.#commands = { catalog, list };
    return list;
  }
}

/**
 * The skills folders of the Claude Code plugins of this run, lowest precedence (their skills are
 * `plugin:name`, so they never replace another's). User scope: the user chose the plugin.
 */
function pluginSkillRoots(kernel: KernelApi): SkillRoot[] {
  if (!kernel.container.isBound(TOKENS.ClaudePluginBundles)) return [];
  const roots: SkillRoot[] = [];
  for (const bundle of kernel.container.get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles).list()) {
    if (!bundle.loaded) continue;
    for (const dir of bundle.skills) roots.push({ dir, scope: 'user', plugin: bundle.name, variables: bundle.variables });
    for (const dir of bundle.singleSkills ?? []) roots.push({ dir: path.dirname(dir), scope: 'user', plugin: bundle.name, variables: bundle.variables, only: path.basename(dir) });
    if (bundle.rootSkill) roots.push({ dir: path.dirname(bundle.rootSkill), scope: 'user', plugin: bundle.name, variables: bundle.variables, only: path.basename(bundle.rootSkill) });
  }
  return roots;
}

/**
 * What to watch: the roots and each skill's folder (their content), and for a root that does not
 * exist yet the nearest folder above it that does (a way in) — up to the project root, never the
 * home directory itself (it changes all the time) — so creating `.mewcode/skills` during a session
 * is noticed too. `present` names the roots that exist, to tell when one appeared or went.
 */
function watchPlan(catalog: SkillCatalog, projectRoot: string, homeDir: string): { targets: WatchTarget[]; present: string } {
  const content = new Set<string>();
  const wayIn = new Set<string>();
  const present: string[] = [];
  for (const root of catalog.roots) {
    if (existsSync(root.dir)) {
      content.add(root.dir);
      present.push(root.dir);
      continue;
    }
    const base = isPathStrictlyWithin(projectRoot, root.dir) ? projectRoot : isPathStrictlyWithin(homeDir, root.dir) ? homeDir : undefined;
    if (!base) continue;
    let dir = path.dirname(root.dir);
    while (dir !== base && !existsSync(dir)) dir = path.dirname(dir);
    if (dir !== homeDir && existsSync(dir)) wayIn.add(dir);
  }
  for (const skill of catalog.skills) content.add(skill.dir);
  const targets: WatchTarget[] = [...content].map((dir) => ({ dir, kind: 'content' }));
  for (const dir of wayIn) if (!content.has(dir)) targets.push({ dir, kind: 'way-in' });
  return { targets, present: JSON.stringify(present) };
}

function realHome(home: string): string {
  try {
    return realpathSync(home);
  } catch {
    return home;
  }
}
