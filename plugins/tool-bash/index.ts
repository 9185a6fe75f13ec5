/**
 * The tool-bash plugin (T5): contributes the `bash` tool.
 *
 * The tool is bound like every other tool (TOKENS.Tool, collected at boot in plugin order, K3),
 * as a lazyTool: its definition is known at boot, its implementation imported on the first call. Its configuration section
 * (`bash.env_allowlist`) is validated by the kernel right after the bindings load, which is
 * before any call runs but after the tool may be created; the tool therefore reads the
 * validated value at each call through `kernel.config('bash')` instead of at construction.
 * Commands run inside the OS sandbox (TOKENS.CommandSandbox) when one is bound and active.
 * `apply` only ties the tool to the session: background jobs left running are stopped at its end
 * (when the implementation was ever loaded).
 */
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import type { CommandLauncher } from '../../types/workspace-io.js';
import type { OutputLimits } from '../../types/services.js';
import type { ResolvedConfig } from '../../types/config.js';
import { TOKENS } from '../../types/tokens.js';
import { CommandEnvironmentStore } from './session-environment.js';
import type { BashTool } from './bash-tool.js';
import { bashDefinition } from './definition.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import { bashSection, DEFAULT_BASH_SETTINGS, type BashSettings } from './settings.js';

export { bashSection, type BashSettings } from './settings.js';

const NAME = 'tool-bash';

/** Where the effective `bash.env_allowlist` was written, when that is the project's own file (K5). */
function allowlistFromProject(config: ResolvedConfig): string | undefined {
  const where = config.locate(['bash', 'env_allowlist']);
  if (where === undefined) return undefined;
  const projectFiles = config.layers.filter((layer) => layer.layer === 'project').map((layer) => layer.file);
  return projectFiles.some((file) => where.startsWith(`${file}:`)) ? where : undefined;
}
/** The implementation, once the first call has imported it (background jobs are stopped at session end). */
interface LoadedBash {
  current: BashTool | undefined;
}
const LOADED_BASH = Symbol('mewcode/tool-bash/LoadedBash');

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  dependsOn: ['output-limits'],
  config: bashSection,
  bindings: new ContainerModule(({ bind }) => {
    bind<LoadedBash>(LOADED_BASH).toConstantValue({ current: undefined });
    // What a SessionStart hook's CLAUDE_ENV_FILE exports (the hooks plugin sets it): later commands get it.
    bind(TOKENS.CommandEnvironment).toConstantValue(new CommandEnvironmentStore());
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        const limits = context.get<OutputLimits>(TOKENS.OutputLimits);
        const loaded = context.get<LoadedBash>(LOADED_BASH);
        const fromProject = allowlistFromProject(context.get<ResolvedConfig>(TOKENS.Config));
        if (fromProject) {
          kernel.warn(
            `config: ${fromProject}: bash.env_allowlist is ignored in the project configuration, which a repository controls ` +
              '(it would choose which of your secrets reach its commands); set it in ~/.mewcode/config.yaml or .mewcode/config.local.yaml',
          );
        }
        // The definition is known now (tool JSON stays byte-identical, K3); the implementation with
        // its process handling is imported on the first call.
        return lazyTool(bashDefinition(limits), async () => {
          const { BashTool } = await import('./bash-tool.js');
          loaded.current = new BashTool(limits, {
            // The OS sandbox (sandbox-os), when the build has one; looked up at each call.
            sandbox: () => (kernel.container.isBound(TOKENS.CommandSandbox) ? kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox) : undefined),
            // A front end's terminals (an editor), when it binds TOKENS.CommandLauncher; else a child process.
            launcher: () => (kernel.container.isBound(TOKENS.CommandLauncher) ? kernel.container.get<CommandLauncher>(TOKENS.CommandLauncher) : undefined),
            sessionEnv: () => context.get(TOKENS.CommandEnvironment).variables(),
            settings: () => (fromProject ? DEFAULT_BASH_SETTINGS : (kernel.config<BashSettings>(bashSection.key) ?? DEFAULT_BASH_SETTINGS)),
          });
          return loaded.current;
        });
      })
      .inSingletonScope();
  }),
  apply(kernel) {
    const loaded = kernel.container.get<LoadedBash>(LOADED_BASH);
    kernel.hooks.sessionEnd.tapPromise(NAME, async () => loaded.current?.stopBackground());
  },
});
