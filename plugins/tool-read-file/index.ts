/** The read_file tool (SPEC T2) as a plugin: its caps come from output-limits (T8). */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { KernelApi } from '../../types/plugin.js';
import type { FileReadTracker, OutputLimits } from '../../types/services.js';
import { additionalDirectoriesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { TOKENS } from '../../types/tokens.js';
import { ReadFileTool } from './read-file-tool.js';

export { ReadFileTool } from './read-file-tool.js';

export default definePlugin({
  name: 'tool-read-file',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue(
        (context) =>
          new ReadFileTool(context.get<OutputLimits>(TOKENS.OutputLimits), context.get<FileReadTracker>(TOKENS.FileReads), {
            additionalDirectories: additionalDirectoriesOf(context.get<KernelApi>(TOKENS.Kernel)),
          }),
      )
      .inSingletonScope();
  }),
});
