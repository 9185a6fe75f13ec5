/**
 * The read_file tool (T2) as a plugin: its caps come from output-limits (T8). The model sees
 * the definition from boot; the implementation is imported on the first call.
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { KernelApi } from '../../types/plugin.js';
import type { FileReadTracker, OutputLimits } from '../../types/services.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import { additionalDirectoriesOf, readOnlyDirectoriesOf, workspaceFilesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { TOKENS } from '../../types/tokens.js';
import { readFileDefinition } from './definition.js';

export default definePlugin({
  name: 'tool-read-file',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const limits = context.get<OutputLimits>(TOKENS.OutputLimits);
        const reads = context.get<FileReadTracker>(TOKENS.FileReads);
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        const additionalDirectories = additionalDirectoriesOf(kernel);
        // read_file never writes: it may also read what a session may only read (an active skill's folder).
        const readOnlyDirectories = readOnlyDirectoriesOf(kernel);
        // A front end's buffers (an editor), when it binds TOKENS.WorkspaceFiles; else the disk.
        const workspaceFiles = workspaceFilesOf(kernel);
        return lazyTool(readFileDefinition(limits), async () => {
          const { ReadFileTool } = await import('./read-file-tool.js');
          return new ReadFileTool(limits, reads, { additionalDirectories, readOnlyDirectories, workspaceFiles });
        });
      })
      .inSingletonScope();
  }),
});
