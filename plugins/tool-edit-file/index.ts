/** The edit_file tool (SPEC T4) as a plugin: it cuts long lines in its messages with output-limits (T8). */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { FileReadTracker, OutputLimits } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { KernelApi } from '../../types/plugin.js';
import { additionalDirectoriesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { EditFileTool } from './edit-file-tool.js';

export { EditFileTool } from './edit-file-tool.js';

export default definePlugin({
  name: 'tool-edit-file',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) =>
        new EditFileTool(context.get<OutputLimits>(TOKENS.OutputLimits), context.get<FileReadTracker>(TOKENS.FileReads), { additionalDirectories: additionalDirectoriesOf(context.get<KernelApi>(TOKENS.Kernel)) }),
      )
      .inSingletonScope();
  }),
});
