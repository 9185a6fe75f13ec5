/**
 * The installed Claude Code plugins a run uses, as a TOKENS.ClaudePluginRoots source: worked out
 * once per kernel (the manifest, then the settings' `enabledPlugins`, the project's only when it
 * is trusted), and its problems and to-dos told once, as warnings and notices.
 */
import { enabledPlugins, type EnabledPlugins } from '../../config/claude-plugins/enabled.js';
import type { ClaudePluginRoot, ClaudePluginRootSource } from '../../types/claude-plugins.js';
import { deepFreeze } from '../../types/deep-freeze.js';
import type { KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { WorkspaceTrust } from '../../types/trust.js';

export class InstalledPluginSource implements ClaudePluginRootSource {
  readonly name = 'installed-claude-plugins';
  #result: EnabledPlugins | undefined;

  constructor(private readonly kernel: KernelApi) {}

  roots(): readonly ClaudePluginRoot[] {
    return this.result().roots;
  }

  result(): EnabledPlugins {
    if (this.#result) return this.#result;
    const { container, projectRoot, homeDir } = this.kernel;
    // Installed plugins are the user's settings: a run that reads no user settings (the
    // programmatic API's default) uses none of them.
    const sources = this.kernel.cli?.settingSources;
    if (sources && !sources.includes('user')) return (this.#result = { roots: [], states: [], notices: [], warnings: [] });
    const trust = container.isBound(TOKENS.WorkspaceTrust) ? container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
    // Frozen: the roots are handed to every reader of TOKENS.ClaudePluginRoots alike.
    this.#result = deepFreeze(enabledPlugins(projectRoot, homeDir, trust));
    for (const warning of this.#result.warnings) this.kernel.warn(warning);
    for (const notice of this.#result.notices) this.kernel.notify('notice', notice);
    return this.#result;
  }
}
