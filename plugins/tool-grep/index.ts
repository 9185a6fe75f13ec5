/**
 * The `grep` tool plugin (SPEC T7). The model sees the definition from boot; the implementation
 * (with its regex engine) is imported on the first call, keeping it out of start-up.
 */
import { ContainerModule } from 'inversify';
import { lazyTool } from '../../kernel/lazy-tool.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { OutputLimits, SearchPolicy } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { GREP_DESCRIPTION, GREP_INPUT_SCHEMA } from './grep-definition.js';

export default definePlugin({
  name: 'tool-grep',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const limits = context.get<OutputLimits>(TOKENS.OutputLimits);
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        return lazyTool({ name: 'grep', description: GREP_DESCRIPTION, inputSchema: GREP_INPUT_SCHEMA, readOnly: true }, async () => {
          const { GrepTool } = await import('./grep-tool.js');
          return new GrepTool(limits, { searchPolicy: () => (kernel.container.isBound(TOKENS.SearchPolicy) ? kernel.container.get<SearchPolicy>(TOKENS.SearchPolicy) : undefined) });
        });
      })
      .inSingletonScope();
  }),
});
