/**
 * The tool-bash plugin (SPEC T5): contributes the `bash` tool.
 *
 * The tool is bound like every other tool (TOKENS.Tool, collected at boot in plugin order, K3),
 * through a private token so `apply` can reach the same singleton. Its configuration section
 * (`bash.env_allowlist`) is validated by the kernel right after the bindings load, which is
 * before any call runs but after the tool may be created; the tool therefore reads the
 * validated value at each call through `kernel.config('bash')` instead of at construction.
 * Commands run inside the OS sandbox (TOKENS.CommandSandbox) when one is bound and active.
 * `apply` only ties the tool to the session: background jobs left running are stopped at its end.
 */
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import type { OutputLimits } from '../../types/services.js';
import type { ResolvedConfig } from '../../types/config.js';
import { TOKENS } from '../../types/tokens.js';
import { BashTool } from './bash-tool.js';
import { bashSection, DEFAULT_BASH_SETTINGS, type BashSettings } from './settings.js';

export { BashTool } from './bash-tool.js';
export { bashSection, type BashSettings } from './settings.js';

const NAME = 'tool-bash';

/** Where the effective `bash.env_allowlist` was written, when that is the project's own file (K5). */
function allowlistFromProject(config: ResolvedConfig): string | undefined {
  const where = config.locate(['bash', 'env_allowlist']);
  if (where === undefined) return undefined;
  const projectFiles = config.layers.filter((layer) => layer.layer === 'project').map((layer) => layer.file);
  return projectFiles.some((file) => where.startsWith(`${file}:`)) ? where : undefined;
}
const BASH_TOOL = Symbol('mewcode/tool-bash/BashTool');

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  dependsOn: ['output-limits'],
  config: bashSection,
  bindings: new ContainerModule(({ bind }) => {
    bind(BASH_TOOL)
      .toDynamicValue((context) => {
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        const fromProject = allowlistFromProject(context.get<ResolvedConfig>(TOKENS.Config));
        if (fromProject) {
          kernel.warn(
            `config: ${fromProject}: bash.env_allowlist is ignored in the project configuration, which a repository controls ` +
              '(it would choose which of your secrets reach its commands); set it in ~/.mewcode/config.yaml or .mewcode/config.local.yaml',
          );
        }
        return new BashTool(context.get<OutputLimits>(TOKENS.OutputLimits), {
          // The OS sandbox (sandbox-os), when the build has one; looked up at each call.
          sandbox: () => (kernel.container.isBound(TOKENS.CommandSandbox) ? kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox) : undefined),
          settings: () => (fromProject ? DEFAULT_BASH_SETTINGS : (kernel.config<BashSettings>(bashSection.key) ?? DEFAULT_BASH_SETTINGS)),
        });
      })
      .inSingletonScope();
    bind(TOKENS.Tool).toService(BASH_TOOL);
  }),
  apply(kernel) {
    const tool = kernel.container.get<BashTool>(BASH_TOOL);
    kernel.hooks.sessionEnd.tapPromise(NAME, async () => tool.stopBackground());
  },
});
