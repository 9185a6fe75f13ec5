/** The write_file tool (SPEC T3) as a plugin. */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { FileReadTracker } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { KernelApi } from '../../types/plugin.js';
import { additionalDirectoriesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { WriteFileTool } from './write-file-tool.js';

export { WriteFileTool } from './write-file-tool.js';

export default definePlugin({
  name: 'tool-write-file',
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) =>
        new WriteFileTool(context.get<FileReadTracker>(TOKENS.FileReads), { additionalDirectories: additionalDirectoriesOf(context.get<KernelApi>(TOKENS.Kernel)) }),
      )
      .inSingletonScope();
  }),
});
