/**
 * The write_file tool (T3) as a plugin. The model sees the definition from boot; the
 * implementation (contained, race-free writes) is imported on the first call.
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { FileReadTracker } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { KernelApi } from '../../types/plugin.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import { additionalDirectoriesOf, workspaceFilesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { withShownPaths } from '../../sdk/search-common/shown-path.js';
import { WRITE_FILE_DEFINITION } from './definition.js';

export default definePlugin({
  name: 'tool-write-file',
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const reads = context.get<FileReadTracker>(TOKENS.FileReads);
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        const additionalDirectories = additionalDirectoriesOf(kernel);
        // A front end's buffers (an editor), when it binds TOKENS.WorkspaceFiles; else the disk.
        const workspaceFiles = workspaceFilesOf(kernel);
        const roots = (): { projectRoot: string; homeDir: string } => ({ projectRoot: kernel.projectRoot, homeDir: kernel.homeDir });
        // A name copied from glob or grep (`\xNN` escapes) is decoded before any check sees it (shown-path.ts).
        const definition = { ...WRITE_FILE_DEFINITION, validateInput: withShownPaths(WRITE_FILE_DEFINITION.validateInput, ['file_path'], roots) };
        return lazyTool(definition, async () => {
          const { WriteFileTool } = await import('./write-file-tool.js');
          return new WriteFileTool(reads, { additionalDirectories, workspaceFiles, roots });
        });
      })
      .inSingletonScope();
  }),
});
