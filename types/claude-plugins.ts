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
