/**
 * The claude-plugins plugin: Claude Code plugin directories (`.claude-plugin/plugin.json` with
 * commands, agents, skills, hooks and MCP servers) read for this run, from every
 * TOKENS.ClaudePluginRoots source — installed plugins (bound by whoever installs them) and the
 * directories named by `--plugin-dir` / MEWCODE_PLUGIN_DIR (bound here). What each contributes is
 * offered under TOKENS.ClaudePluginBundles; the plugins owning each kind (custom-commands, skills,
 * subagents, hooks, mcp) read it and load the contributions through their own paths, so trust,
 * the sandbox and the permission chain apply as to the user's own files. Problems are warned
 * about once, each naming its file; `mewcode doctor` lists each plugin.
 */
import { ContainerModule } from 'inversify';
import type { ClaudePluginBundle, ClaudePluginBundles, ClaudePluginRootSource } from '../../types/claude-plugins.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { loadBundles } from './bundles.js';

const NAME = 'claude-plugins';

class Bundles implements ClaudePluginBundles {
  #list: ClaudePluginBundle[] | undefined;
  constructor(private readonly kernel: KernelApi) {}
  list(): readonly ClaudePluginBundle[] {
    if (!this.#list) {
      const container = this.kernel.container;
      const sources = container.isBound(TOKENS.ClaudePluginRoots) ? container.getAll<ClaudePluginRootSource>(TOKENS.ClaudePluginRoots) : [];
      this.#list = loadBundles(sources, this.kernel.homeDir);
    }
    return this.#list;
  }
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.ClaudePluginRoots)
      .toDynamicValue((context): ClaudePluginRootSource => {
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        return {
          name: '--plugin-dir',
          roots: () => (kernel.cli?.pluginDirs ?? []).map((root) => ({ id: root.split(/[\\/]/).filter(Boolean).at(-1) ?? root, root, origin: 'plugin-dir' as const })),
        };
      })
      .inSingletonScope();
    bind(TOKENS.ClaudePluginBundles)
      .toDynamicValue((context) => new Bundles(context.get<KernelApi>(TOKENS.Kernel)))
      .inSingletonScope();
  }),
  apply(kernel) {
    for (const bundle of kernel.container.get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles).list()) {
      for (const problem of bundle.problems) kernel.warn(`claude plugin ${bundle.id}: ${problem.file}: ${problem.message}`);
    }
  },
  doctorChecks: [{ name: 'claude-plugins', run: async (context) => (await import('./doctor-check.js')).claudePluginFindings(context) }],
});
