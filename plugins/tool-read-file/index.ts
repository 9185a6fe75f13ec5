/**
 * The read_file tool (T2) as a plugin: its caps come from output-limits (T8). The model sees
 * the definition from boot; the implementation is imported on the first call. A read counts for
 * write_file's and edit_file's read-first rule once its output reached the model (delivered-reads.ts).
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { KernelApi } from '../../types/plugin.js';
import type { FileReadTracker, OutputLimits } from '../../types/services.js';
import type { SeenText } from '../../types/file-reads.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import { outsideReadsOf } from '../../sdk/file-tool-support/outside-read.js';
import { additionalDirectoriesOf, readOnlyDirectoriesOf, workspaceFilesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { TOKENS } from '../../types/tokens.js';
import { withShownPaths } from '../../sdk/search-common/shown-path.js';
import { readFileDefinition } from './definition.js';
import { DeliveredReads } from './delivered-reads.js';
import type { ToolContext } from '../../types/tools.js';

/** This plugin's own binding: the reads waiting for their output to reach the model. */
const DELIVERED_READS = Symbol('tool-read-file.DeliveredReads');

export default definePlugin({
  name: 'tool-read-file',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(DELIVERED_READS)
      .toDynamicValue((context) => new DeliveredReads(context.get<FileReadTracker>(TOKENS.FileReads)))
      .inSingletonScope();
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
        // A file outside the project an allow rule names (`Read(//abs/…)`, `Read(~/…)`), as the sandbox layer judged it.
        const outsideReads = outsideReadsOf(kernel);
        const delivered = context.get<DeliveredReads>(DELIVERED_READS);
        const recordRead = (absolutePath: string, mtimeMs: number, context: ToolContext, seen?: SeenText): void => delivered.park(context.sessionId, context.toolCallId, absolutePath, mtimeMs, seen);
        // A name copied from glob or grep (`\xNN` escapes) is decoded before any check sees it (shown-path.ts).
        const definition = readFileDefinition(limits);
        const roots = (): { projectRoot: string; homeDir: string } => ({ projectRoot: kernel.projectRoot, homeDir: kernel.homeDir });
        return lazyTool({ ...definition, validateInput: withShownPaths(definition.validateInput, ['file_path'], roots) }, async () => {
          const { ReadFileTool } = await import('./read-file-tool.js');
          return new ReadFileTool(limits, reads, { additionalDirectories, readOnlyDirectories, workspaceFiles, recordRead, outsideReads });
        });
      })
      .inSingletonScope();
  }),
  apply(kernel) {
    const delivered = kernel.container.get<DeliveredReads>(DELIVERED_READS);
    // After every policy, the user's PostToolUse hooks and the audit: what the model is given.
    kernel.hooks.postToolUse.tapPromise({ name: 'tool-read-file', stage: 2000 }, async (result, context) => {
      delivered.settle(context.sessionId, context.call.id, !result.isError);
      return result;
    });
  },
});
