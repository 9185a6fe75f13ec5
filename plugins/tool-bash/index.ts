/**
 * The tool-bash plugin (SPEC T5): contributes the `bash` tool.
 *
 * The tool is bound like every other tool (TOKENS.Tool, collected at boot in plugin order, K3),
 * through a private token so `apply` can reach the same singleton. Its configuration section
 * (`bash.env_allowlist`) is validated by the kernel right after the bindings load, which is
 * before any call runs but after the tool may be created; the tool therefore reads the
 * validated value at each call through `kernel.config('bash')` instead of at construction.
 * `apply` only ties the tool to the session: background jobs left running are stopped at its end.
 */
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { OutputLimits } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { BashTool } from './bash-tool.js';
import { bashSection, DEFAULT_BASH_SETTINGS, type BashSettings } from './settings.js';

export { BashTool } from './bash-tool.js';
export { bashSection, type BashSettings } from './settings.js';

const NAME = 'tool-bash';
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
        return new BashTool(context.get<OutputLimits>(TOKENS.OutputLimits), {
          settings: () => kernel.config<BashSettings>(bashSection.key) ?? DEFAULT_BASH_SETTINGS,
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
