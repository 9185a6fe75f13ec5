/**
 * The claude-plugins plugin: Claude Code plugin directories (`.claude-plugin/plugin.json` with
 * commands, agents, skills, hooks and MCP servers) read for this run, from every
 * TOKENS.ClaudePluginRoots source — installed plugins (bound by whoever installs them) and the
 * directories named by `--plugin-dir` / MEWCODE_PLUGIN_DIR (bound here). What each contributes is
 * offered under TOKENS.ClaudePluginBundles; the plugins owning each kind (custom-commands, skills,
 * subagents, hooks, mcp) read it and load the contributions through their own paths, so trust,
 * the sandbox and the permission chain apply as to the user's own files. Problems are warned
 * about once, each naming its file; `mewcode doctor` lists each plugin.
 *
 * Under the organisation's `allow_managed_plugins_only` no Claude Code plugin is read: its hooks
 * and MCP servers would run programs the organisation never chose (on the host once the project is
 * trusted), and "only the build's and the managed plugins run" has no exception for them. Their
 * directories are named in one warning, and the list stays empty.
 */
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import type { ClaudePluginBundle, ClaudePluginBundles, ClaudePluginRoot, ClaudePluginRootSource } from '../../types/claude-plugins.js';
import { deepFreeze } from '../../types/deep-freeze.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { collectRoots } from './roots.js';

const NAME = 'claude-plugins';
/** This plugin's own service (the contract is TOKENS.ClaudePluginBundles): a symbol of this module's, which no other plugin can name (nor `load` again). */
const BUNDLES: ServiceIdentifier<Bundles> = Symbol('claude-plugins/bundles');

/** Filled in by this plugin's apply, which comes before the plugins that read it (skills, mcp, hooks, subagents, custom-commands). */
class Bundles implements ClaudePluginBundles {
  #list: readonly ClaudePluginBundle[] = [];
  readonly #kernel: KernelApi;
  constructor(kernel: KernelApi) {
    this.#kernel = kernel;
  }
  list(): readonly ClaudePluginBundle[] {
    return this.#list;
  }
  async load(): Promise<readonly ClaudePluginBundle[]> {
    const container = this.#kernel.container;
    const collected = collectRoots(container.isBound(TOKENS.ClaudePluginRoots) ? container.getAll<ClaudePluginRootSource>(TOKENS.ClaudePluginRoots) : []);
    if (collected.roots.length === 0 && collected.failures.length === 0) return this.#list;
    const onlyManaged = container.get(TOKENS.ManagedPolicy, { optional: true })?.managedPluginsOnly;
    if (onlyManaged) {
      if (collected.roots.length > 0) this.#kernel.warn(refusedText(collected.roots, onlyManaged.where));
      return this.#list;
    }
    const { loadRoots } = await import('./bundles.js');
    // Frozen: every plugin that reads it gets this same list, and none may change it for the others.
    this.#list = deepFreeze(loadRoots(collected, this.#kernel.homeDir, this.#kernel.projectRoot));
    return this.#list;
  }
}

/** The one warning naming every Claude Code plugin directory left out under `allow_managed_plugins_only`. */
export function refusedText(roots: readonly ClaudePluginRoot[], where: string): string {
  const named = roots.map((root) => `${root.id} (${root.origin === 'plugin-dir' ? '--plugin-dir / MEWCODE_PLUGIN_DIR' : root.origin}: ${root.root})`).join(', ');
  return `claude plugins not loaded: ${named}: the organisation's managed settings (${where}) allow only the build's and the managed plugins (allow_managed_plugins_only), and a Claude Code plugin's hooks, MCP servers, commands and skills are none of those`;
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.ClaudePluginRoots)
      .toDynamicValue((context): ClaudePluginRootSource => {
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        return Object.freeze({
          name: '--plugin-dir',
          roots: () => (kernel.cli?.pluginDirs ?? []).map((root) => ({ id: root.split(/[\\/]/).filter(Boolean).at(-1) ?? root, root, origin: 'plugin-dir' as const })),
        });
      })
      .inSingletonScope();
    bind<Bundles>(BUNDLES)
      .toDynamicValue((context) => new Bundles(context.get<KernelApi>(TOKENS.Kernel)))
      .inSingletonScope();
    bind(TOKENS.ClaudePluginBundles)
      .toDynamicValue((context): ClaudePluginBundles => {
        const bundles = context.get<Bundles>(BUNDLES);
        return Object.freeze({ list: () => bundles.list() });
      })
      .inSingletonScope();
  }),
  async apply(kernel) {
    for (const bundle of await kernel.container.get<Bundles>(BUNDLES).load()) {
      for (const problem of bundle.problems) kernel.warn(`claude plugin ${bundle.id}: ${problem.file}: ${problem.message}`);
    }
  },
  doctorChecks: [{ name: 'claude-plugins', run: async (context) => (await import('./doctor-check.js')).claudePluginFindings(context) }],
});
