/** The `glob` tool plugin (SPEC T6). */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { OutputLimits } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { GlobTool } from './glob-tool.js';

export { GlobTool, type GlobToolOptions } from './glob-tool.js';

export default definePlugin({
  name: 'tool-glob',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => new GlobTool(context.get<OutputLimits>(TOKENS.OutputLimits)))
      .inSingletonScope();
  }),
});
