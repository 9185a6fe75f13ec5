/**
 * The custom-commands plugin: Markdown files in `~/.claude/commands`, `~/.mewcode/commands`,
 * `<project>/.claude/commands` and `<project>/.mewcode/commands` become `/name` commands — in the
 * terminal UI, in `mewcode -p "/name args"` and in `/help` — contributed through
 * TOKENS.CommandProvider like the skills' commands. A skill or a built-in command of the same name
 * wins (this plugin comes after them, and its own entry is left out with a warning naming the file),
 * except an untrusted project's skill against the user's own file: that file is listed and the
 * kernel's command list keeps it (types/commands.ts, CommandScope).
 * Claude Code plugins' commands (TOKENS.ClaudePluginBundles) are `/plugin:name`, and bare `/name`
 * while no other command has that name.
 */
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import type { Command, CommandProvider } from '../../types/commands.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import type { ClaudePluginBundles } from '../../types/claude-plugins.js';
import { loadOnce } from '../../sdk/load-once.js';
import { findRole, unknownAgentMessage, type SubagentRunner } from '../../types/subagents.js';
import { commandRoots, loadCommandFiles, scopeLabel, type CommandFile, type CommandRoot } from './command-file.js';
import { TurnGrants } from './turn-grant.js';
import { ToolDenials } from '../../sdk/tool-denials.js';
import { terminalSafe } from '../../config/terminal-safe.js';

const NAME = 'custom-commands';

/** The command folders and files of the Claude Code plugins of this run (user-level: the user chose them). */
function pluginCommandRoots(kernel: KernelApi): CommandRoot[] {
  if (!kernel.container.isBound(TOKENS.ClaudePluginBundles)) return [];
  return kernel.container
    .get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles)
    .list()
    .filter((bundle) => bundle.loaded)
    .flatMap((bundle) => bundle.commands.map((dir): CommandRoot => ({ dir, scope: 'user', plugin: bundle.name, variables: bundle.variables })));
}
/** The names of the Claude Code plugins loaded in this run (the namespaces of their commands and skills). */
function loadedPluginNames(kernel: KernelApi): Set<string> {
  if (!kernel.container.isBound(TOKENS.ClaudePluginBundles)) return new Set();
  return new Set(kernel.container.get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles).list().filter((bundle) => bundle.loaded).map((bundle) => bundle.name));
}
/** What running a command file needs (command.ts: arguments, `@path` includes, `!` lines), imported at its first run. */
const loadRun = loadOnce(() => import('./command.js'));

/**
 * The scope label at the end of the description's first line, which is what /help and editors
 * show: after a description of several lines it would be lost from view.
 */
function withScope(description: string, label: string): string {
  const end = description.indexOf('\n');
  return end < 0 ? `${description} ${label}` : `${description.slice(0, end).trimEnd()} ${label}${description.slice(end)}`;
}

/** One command file as a slash command (listed in /help and the UI; run by command.ts). */
function fileCommand(kernel: KernelApi, grants: TurnGrants, file: CommandFile): Command {
  return {
    name: file.name,
    // Whose it is: the kernel keeps the user's own command over an untrusted project's skill.
    scope: file.scope,
    source: file.file,
    description: withScope(file.description || '(no description)', scopeLabel(file)),
    ...(file.argumentHint ? { argumentHint: file.argumentHint } : {}),
    run: async (session, args, context) => (await loadRun()).runCommand(kernel, grants, file, session, args, context.mode, context.signal),
  };
}

/**
 * The provider itself, for this plugin's apply: a symbol of this module's, which no other plugin can
 * name. Its `grants` hold what a command's allowed-tools pre-approve for its turn: no one else's to change.
 */
const PROVIDER: ServiceIdentifier<CustomCommands> = Symbol('custom-commands/provider');

class CustomCommands implements CommandProvider {
  readonly grants: TurnGrants;
  #files: CommandFile[] = [];
  #listing = false;
  readonly #shadowWarned = new Set<string>();

  constructor(private readonly kernel: KernelApi) {
    const rulesOnly = kernel.container.get(TOKENS.ManagedPolicy, { optional: true })?.permissions.managedRulesOnly;
    this.grants = new TurnGrants(
      { projectRoot: kernel.projectRoot, homeDir: kernel.homeDir },
      rulesOnly ? { where: rulesOnly.where, warn: (message) => kernel.warn(`custom commands: ${message}`) } : undefined,
      new ToolDenials(kernel),
    );
  }

  private trust(): WorkspaceTrust | undefined {
    return this.kernel.container.isBound(TOKENS.WorkspaceTrust) ? this.kernel.container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
  }
  private trusted(): boolean {
    return this.trust()?.isTrusted() ?? false;
  }

  async load(): Promise<void> {
    const trust = this.trust();
    const hooks = this.kernel.container.isBound(TOKENS.ComponentHooks) ? this.kernel.container.get(TOKENS.ComponentHooks) : undefined;
    this.#files = await loadCommandFiles([...pluginCommandRoots(this.kernel), ...commandRoots(this.kernel.homeDir, this.kernel.projectRoot)], (message) => this.kernel.warn(message), trust, hooks);
  }

  /**
   * A `context: fork` file whose `agent:` names no sub-agent type is skipped, naming file:line and
   * key: run as the general agent or inline it would get more tools than its author chose. Called
   * at start, when every plugin's sub-agent types are known.
   */
  dropUnknownAgents(): void {
    const runner = this.kernel.container.isBound(TOKENS.SubagentRunner) ? this.kernel.container.get<SubagentRunner>(TOKENS.SubagentRunner) : undefined;
    const roles = runner?.roles() ?? [];
    this.#files = this.#files.filter((file) => {
      const agent = file.fork?.agent;
      if (agent === undefined || findRole(roles, agent)) return true;
      this.kernel.warn(`custom commands: /${file.name} skipped: ${unknownAgentMessage(file.fork!.agentAt, agent, roles)}`);
      return false;
    });
  }

  commands(): readonly Command[] {
    // kernel.commands() asks every provider, this one included: while it is asked from here, none.
    if (this.#listing) return [];
    this.#listing = true;
    let others: readonly Command[];
    try {
      others = this.kernel.commands();
    } finally {
      this.#listing = false;
    }
    const trusted = this.trusted();
    // While the project is not trusted, a project's skill holds no name against the user's own
    // file: that file is listed too, and the kernel's command list keeps it (and warns naming the skill).
    const holder = new Map<string, Command>();
    for (const command of others) if (!holder.has(command.name)) holder.set(command.name, command);
    const takenFrom = (scope: 'user' | 'project', name: string): Command | undefined => {
      const other = holder.get(name);
      return other && !(scope === 'user' && other.scope === 'project' && !trusted) ? other : undefined;
    };
    const taken = new Set(others.map((command) => command.name));
    const list: Command[] = [];
    for (const file of this.#files) {
      const other = takenFrom(file.scope, file.name);
      if (other) {
        if (!this.#shadowWarned.has(file.file)) {
          this.#shadowWarned.add(file.file);
          const why = file.scope === 'project' && other.scope !== 'project' && !trusted ? ", which wins while this project is not trusted" : ', which wins';
          const what = other.scope === 'builtin' || other.scope === undefined ? 'a skill or built-in command' : other.scope === 'user' ? `the user's own skill or command${other.source ? ` (${terminalSafe(other.source)})` : ''}` : 'a skill or command of this project';
          this.kernel.warn(`custom commands: ${terminalSafe(file.file)}: /${file.name} is already ${what}${why}; this file is not used`);
        }
        continue;
      }
      list.push(fileCommand(this.kernel, this.grants, file));
    }
    // A plugin's `/plugin:name` — its command files, and the skills the skills plugin lists as
    // `plugin:name` — also answers to a bare `/name` while nothing else has that name (as in
    // Claude Code): not when two of them share it.
    const names = new Set([...taken, ...list.map((command) => command.name)]);
    const bare = new Map<string, (() => Command)[]>();
    const offer = (short: string, make: () => Command): void => void bare.set(short, [...(bare.get(short) ?? []), make]);
    for (const file of this.#files) {
      if (!file.plugin || takenFrom(file.scope, file.name)) continue;
      offer(file.name.slice(file.plugin.length + 1), () => fileCommand(this.kernel, this.grants, file));
    }
    const plugins = loadedPluginNames(this.kernel);
    for (const command of others) {
      const [plugin, short, ...more] = command.name.split(':');
      if (more.length === 0 && short && plugins.has(plugin!)) offer(short, () => command);
    }
    for (const [short, makers] of bare) {
      if (makers.length !== 1 || names.has(short)) continue;
      list.push({ ...makers[0]!(), name: short });
    }
    // Skills may reload later: the list is rebuilt each time it is asked for.
    return list;
  }
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind<CustomCommands>(PROVIDER)
      .toDynamicValue((context) => new CustomCommands(context.get<KernelApi>(TOKENS.Kernel)))
      .inSingletonScope();
    bind(TOKENS.CommandProvider)
      .toDynamicValue((context): CommandProvider => {
        const provider = context.get<CustomCommands>(PROVIDER);
        return Object.freeze({ commands: () => provider.commands() });
      })
      .inSingletonScope();
  }),
  async apply(kernel) {
    const provider = kernel.container.get<CustomCommands>(PROVIDER);
    await provider.load();
    kernel.hooks.userPromptSubmit.tapPromise(NAME, async (submission, context) => {
      provider.grants.promptSubmitted(context);
      return submission;
    });
    kernel.hooks.messageAppended.tapPromise(NAME, async (message, context) => provider.grants.messageAppended(message, context));
    kernel.hooks.preToolUse.tapPromise(NAME, async (decision, context) => provider.grants.decide(decision, context));
  },
  async start(kernel) {
    kernel.container.get<CustomCommands>(PROVIDER).dropUnknownAgents();
  },
});
