/**
 * The edit_file tool (T4) as a plugin: it cuts long lines in its messages with output-limits
 * (T8). The model sees the definition from boot; the implementation (with the diff library) is
 * imported on the first call, keeping it out of start-up.
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { FileReadTracker, OutputLimits } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { KernelApi } from '../../types/plugin.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import { additionalDirectoriesOf, workspaceFilesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { withShownPaths } from '../../sdk/search-common/shown-path.js';
import { EDIT_FILE_DEFINITION } from './definition.js';

export default definePlugin({
  name: 'tool-edit-file',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const limits = context.get<OutputLimits>(TOKENS.OutputLimits);
        const reads = context.get<FileReadTracker>(TOKENS.FileReads);
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        const additionalDirectories = additionalDirectoriesOf(kernel);
        // A front end's buffers (an editor), when it binds TOKENS.WorkspaceFiles; else the disk.
        const workspaceFiles = workspaceFilesOf(kernel);
        const roots = (): { projectRoot: string; homeDir: string } => ({ projectRoot: kernel.projectRoot, homeDir: kernel.homeDir });
        // A name copied from glob or grep (`\xNN` escapes) is decoded before any check sees it (shown-path.ts).
        const definition = { ...EDIT_FILE_DEFINITION, validateInput: withShownPaths(EDIT_FILE_DEFINITION.validateInput, ['file_path'], roots) };
        return lazyTool(definition, async () => {
          const { EditFileTool } = await import('./edit-file-tool.js');
          return new EditFileTool(limits, reads, { additionalDirectories, workspaceFiles, roots });
        });
      })
      .inSingletonScope();
  }),
});
