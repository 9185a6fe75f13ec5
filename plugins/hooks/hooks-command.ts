/**
 * `/hooks`: the same listing as `mewcode hooks` inside a session (the TUI, `-p "/hooks"`): rules,
 * their sources, trust state and run counts. Contributed even when no hook file exists, so the
 * command can say so and name where hooks go.
 */
import { terminalSafe } from '../../config/terminal-safe.js';
import { TOKENS } from '../../types/tokens.js';
import type { Command } from '../../types/commands.js';
import type { KernelApi } from '../../types/plugin.js';
import type { WorkspaceTrust } from '../../types/trust.js';

export function hooksCommand(kernelOf: () => KernelApi | undefined): Command {
  return {
    name: 'hooks',
    description: 'List the hook rules, where they come from, whether they are trusted, and how often each ran',
    async run() {
      const kernel = kernelOf();
      if (!kernel) return { output: 'The hooks plugin is not started.', isError: true };
      const trust = kernel.container.isBound(TOKENS.WorkspaceTrust) ? kernel.container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
      const { describeHooks } = await import('./listing.js');
      const { loadPluginHooks } = await import('./plugin-hooks.js');
      const plugins = loadPluginHooks(kernel);
      const listing = await describeHooks(kernel.projectRoot, kernel.homeDir, trust, plugins.sources);
      const warnings = [...listing.warnings, ...plugins.warnings].map((warning) => `warning: ${terminalSafe(warning)}\n`).join('');
      return { output: `${warnings}${listing.text}`.trimEnd() };
    },
  };
}
