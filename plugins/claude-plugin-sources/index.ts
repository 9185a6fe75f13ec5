/**
 * claude-plugin-sources: which Claude Code plugins installed with `mewcode plugin install` a run
 * uses. It contributes one TOKENS.ClaudePluginRoots source (the enabled installed plugins, with
 * the settings' `enabledPlugins` honoured), the `/plugin` command, and a `mewcode doctor` check.
 * Turning a plugin directory into commands, agents, skills, hooks and MCP servers is the loader's
 * work (it reads every TOKENS.ClaudePluginRoots source); the reusable logic (manifest,
 * marketplaces, install) lives in config/claude-plugins/, shared with `mewcode plugin`.
 */
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import type { ClaudePluginRootSource } from '../../types/claude-plugins.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { pluginCommand } from './slash-command.js';
import { InstalledPluginSource } from './source.js';

const NAME = 'claude-plugin-sources';
/** The source itself, for this plugin's apply and command: a symbol of this module's, which no other plugin can name. */
const SOURCE: ServiceIdentifier<InstalledPluginSource> = Symbol('claude-plugin-sources/source');

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind<InstalledPluginSource>(SOURCE)
      .toDynamicValue((context) => new InstalledPluginSource(context.get<KernelApi>(TOKENS.Kernel)))
      .inSingletonScope();
    // The contract only: a name and the roots (read once, frozen).
    bind(TOKENS.ClaudePluginRoots)
      .toDynamicValue((context): ClaudePluginRootSource => {
        const source = context.get<InstalledPluginSource>(SOURCE);
        return Object.freeze({ name: source.name, roots: () => source.roots() });
      })
      .inSingletonScope();
    bind(TOKENS.Command).toDynamicValue((context) => pluginCommand(context.get<KernelApi>(TOKENS.Kernel), context.get<InstalledPluginSource>(SOURCE))).inSingletonScope();
  }),
  apply(kernel) {
    // Worked out (and its notices told) at boot, whether or not a loader asks for the roots.
    kernel.container.get<InstalledPluginSource>(SOURCE).result();
  },
  doctorChecks: [{ name: 'installed-plugins', run: async (context) => (await import('./doctor-check.js')).checkClaudePlugins(context) }],
});
