/**
 * The `glob` tool plugin (SPEC T6). The model sees the definition from boot; the implementation
 * (with its glob matcher) is imported on the first call, keeping it out of start-up.
 */
import { ContainerModule } from 'inversify';
import { lazyTool } from '../../kernel/lazy-tool.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { OutputLimits, SearchPolicy } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { GLOB_DESCRIPTION, GLOB_INPUT_SCHEMA } from './glob-definition.js';

export default definePlugin({
  name: 'tool-glob',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const limits = context.get<OutputLimits>(TOKENS.OutputLimits);
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        return lazyTool({ name: 'glob', description: GLOB_DESCRIPTION, inputSchema: GLOB_INPUT_SCHEMA, readOnly: true }, async () => {
          const { GlobTool } = await import('./glob-tool.js');
          return new GlobTool(limits, { searchPolicy: () => (kernel.container.isBound(TOKENS.SearchPolicy) ? kernel.container.get<SearchPolicy>(TOKENS.SearchPolicy) : undefined) });
        });
      })
      .inSingletonScope();
  }),
});
