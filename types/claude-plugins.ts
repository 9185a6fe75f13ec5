/**
 * Claude Code plugins (directories holding `.claude-plugin/plugin.json` that bundle commands,
 * agents, skills, hooks and MCP servers). Two sides meet here: sources that know which plugin
 * directories are enabled for this run (installed from a marketplace, named by `--plugin-dir`,
 * enabled in settings) and the loader that turns each directory into contributions for the
 * plugins that own each kind (skills, sub-agents, hooks, MCP, custom commands).
 */

/** A Claude Code plugin directory enabled for this run, and where that choice came from. */
export interface ClaudePluginRoot {
  /** `name@marketplace` for an installed plugin; the plugin's own name for a `--plugin-dir` one. */
  readonly id: string;
  /** Absolute path of the plugin directory. */
  readonly root: string;
  /** Where it was enabled (shown by `mewcode doctor` and `mewcode plugin list`). */
  readonly origin: 'installed' | 'plugin-dir' | 'settings';
}

/** Multi-bound under TOKENS.ClaudePluginRoots: one per source of enabled plugin directories. */
export interface ClaudePluginRootSource {
  readonly name: string;
  /** Read synchronously at boot; problems are reported by the source itself (configuration warnings). */
  roots(): readonly ClaudePluginRoot[];
}

/** Something of a plugin that could not be used: the file it is about and why. */
export interface ClaudePluginProblem {
  readonly file: string;
  readonly message: string;
}

/** A JSON object a plugin contributes (hooks, MCP servers), with `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}` already expanded. */
export interface ClaudePluginPart {
  /** The file it was read from: `hooks/hooks.json`, `.mcp.json`, or `plugin.json` for an inline object. */
  readonly file: string;
  /**
   * hooks: Claude Code's settings `hooks` object (event name → matcher groups);
   * mcpServers: server name → entry in `.mcp.json`'s shape.
   */
  readonly value: Readonly<Record<string, unknown>>;
  /** Line and column in `file` of the value at `path` inside `value` (for warnings naming file:line:col). */
  locate(path: readonly (string | number)[]): { line: number; col: number } | undefined;
}

/** How many of each kind a plugin declares (files and entries found; the owning plugins may still skip one, naming it). */
export interface ClaudePluginCounts {
  readonly commands: number;
  readonly agents: number;
  readonly skills: number;
  readonly hooks: number;
  readonly mcpServers: number;
}

/**
 * One Claude Code plugin directory as read for this run: what it contributes, for the plugin
 * owning each kind. Paths are absolute. A plugin that could not be read at all (no directory, a
 * malformed plugin.json, a name another plugin already has) is listed with `loaded: false`, no
 * contributions, and its problems.
 */
export interface ClaudePluginBundle {
  /** From the root source: `name@marketplace`, or the plugin's name for `--plugin-dir`. */
  readonly id: string;
  /** The plugin's name (plugin.json `name`, else the directory's name): the namespace of its commands, skills and agents. */
  readonly name: string;
  readonly root: string;
  readonly origin: ClaudePluginRoot['origin'];
  readonly loaded: boolean;
  readonly version?: string;
  readonly description?: string;
  readonly author?: string;
  /** Folders of command files and single `.md` command files. */
  readonly commands: readonly string[];
  /** Folders of agent files and single `.md` agent files. */
  readonly agents: readonly string[];
  /** Folders holding one folder per skill (each with a SKILL.md). */
  readonly skills: readonly string[];
  /** Folders that are one skill each (they hold SKILL.md): a `skills` path naming a skill's own folder. */
  readonly singleSkills?: readonly string[];
  /** A single-skill plugin: the plugin root itself holds SKILL.md (and there is no skills/ folder). */
  readonly rootSkill?: string;
  readonly hooks: readonly ClaudePluginPart[];
  readonly mcpServers: readonly ClaudePluginPart[];
  /** `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA` (and the run's `CLAUDE_PROJECT_DIR`): expanded in its text, exported to its hook and MCP processes. */
  readonly variables: Readonly<Record<string, string>>;
  readonly counts: ClaudePluginCounts;
  readonly problems: readonly ClaudePluginProblem[];
}

/** Bound under TOKENS.ClaudePluginBundles (claude-plugins plugin): the plugins of this run, read once. */
export interface ClaudePluginBundles {
  /** Every plugin directory of this run, loaded or not, in the order their sources gave them. */
  list(): readonly ClaudePluginBundle[];
}

/**
 * The first file inside the plugin that a hook command names (its words, quotes dropped, after
 * the variables were expanded) and that does not exist; undefined when there is none. Such a hook
 * would fail at every event, so it is not loaded.
 */
export function missingPluginScript(command: string, root: string, exists: (file: string) => boolean): string | undefined {
  const words = command.split(/[\s;|&()<>`]+/).map((word) => word.replace(/["']/g, ''));
  const inside = `${root.replace(/[\\/]+$/, '')}/`;
  return words.find((word) => word.startsWith(inside) && !exists(word));
}

/**
 * A path no shell reads anything into, quoted or not, and that stays one word: only such a path is
 * pasted into text a shell runs. Any other (a folder named `x$(touch ~/pwned)`, or `a --output=x`
 * whose space would split off an option: a downloaded archive's choice) stays a variable the
 * shell expands from its environment.
 */
export function isShellInert(text: string): boolean {
  return /^[A-Za-z0-9_/.,:@%+=-]*$/.test(text);
}

/** A plugin's variables less the project's path: for text a shell runs, where that path is filled in (or not) apart. */
export function withoutProjectDir(variables: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const { CLAUDE_PROJECT_DIR: _project, ...rest } = variables;
  return rest;
}

/** `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` (and `${CLAUDE_PROJECT_DIR}` when given) replaced, as Claude Code does in a plugin's text. */
export function expandPluginVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|CLAUDE_PROJECT_DIR)\}/g, (match, name: string) => variables[name] ?? match);
}

/**
 * What a plugin contributed and what failed, as lines for a listing (`mewcode doctor`, `mewcode
 * plugin list`): the first line names the plugin, the others (indented by the caller) each problem.
 */
export function describeClaudePlugin(bundle: ClaudePluginBundle): { summary: string; contributes: string; problems: string[] } {
  const head = `${bundle.id}${bundle.version ? ` ${bundle.version}` : ''} (${bundle.origin}, ${bundle.root})`;
  const problems = bundle.problems.map((problem) => `${problem.file}: ${problem.message}`);
  if (!bundle.loaded) return { summary: `${head}: not loaded`, contributes: 'not loaded', problems };
  const { counts } = bundle;
  const parts: [number, string][] = [
    [counts.commands, 'command'],
    [counts.agents, 'agent'],
    [counts.skills, 'skill'],
    [counts.hooks, 'hook'],
    [counts.mcpServers, 'MCP server'],
  ];
  const contributed = parts.filter(([count]) => count > 0).map(([count, kind]) => `${count} ${kind}${count === 1 ? '' : 's'}`);
  /** What it contributed (and how many problems), without the plugin's name: `1 command, 1 skill; 1 problem`. */
  const contributes = `${contributed.length > 0 ? contributed.join(', ') : 'nothing to contribute'}${problems.length > 0 ? `; ${problems.length} problem${problems.length === 1 ? '' : 's'}` : ''}`;
  return { summary: `${head}: ${contributes}`, contributes, problems };
}
