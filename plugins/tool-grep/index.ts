/** The `grep` tool plugin (SPEC T7). */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { OutputLimits } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { GrepTool } from './grep-tool.js';

export { GrepTool, type GrepToolOptions, type GrepEngine } from './grep-tool.js';

export default definePlugin({
  name: 'tool-grep',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => new GrepTool(context.get<OutputLimits>(TOKENS.OutputLimits)))
      .inSingletonScope();
  }),
});
