/**
 * The output-limits plugin (T8): binds the OutputLimits service every tool uses for its
 * caps and for saving full outputs — each session's in its own folder, `<spill dir>/<session id>/`,
 * which no other session's tools may read (sdk/private-records.ts) —, and cleans old spill files
 * in the background at start-up.
 */
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { OutputLimits } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { LIMITS } from './limits.js';
import { cutBytes, cutLine } from '../../sdk/text-cuts.js';
import { isStatePathRefused } from '../../sdk/project-state-dir.js';
import { createSpillFile, DEFAULT_SPILL_DIR, ensureDirectory, removeOldSpillFiles, sessionFolder, spillFileName, spillLocation } from './spill-directory.js';

const NAME = 'output-limits';

/**
 * `spillDir` is checked for links from `projectRoot` down (by default the directory two levels up,
 * the project of `<root>/.mewcode/tool-output`).
 */
export function createOutputLimits(spillDir: string, projectRoot = path.dirname(path.dirname(spillDir))): OutputLimits {
  const location = spillLocation(projectRoot, spillDir);
  // Frozen: every tool and the audit log read this one object, and no plugin holding it may raise
  // bash's cap or empty the audit records' target and reason for the rest of the run.
  const limits: OutputLimits = {
    ...LIMITS,
    spillDir: () => spillDir,
    async spillPath(toolCallId, suffix, sessionId) {
      const folder = sessionFolder(location, sessionId);
      ensureDirectory(folder);
      return path.join(folder.root, folder.relative, spillFileName(toolCallId, suffix));
    },
    async openSpillFile(toolCallId, suffix, sessionId) {
      return createSpillFile(sessionFolder(location, sessionId), spillFileName(toolCallId, suffix));
    },
    cutLine,
    cutBytes,
  };
  return Object.freeze(limits);
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.OutputLimits)
      .toDynamicValue((context) => {
        const root = context.get<KernelApi>(TOKENS.Kernel).projectRoot;
        return createOutputLimits(path.join(root, DEFAULT_SPILL_DIR), root);
      })
      .inSingletonScope();
  }),
  apply(kernel) {
    const limits = kernel.container.get<OutputLimits>(TOKENS.OutputLimits);
    kernel.hooks.sessionStart.tapPromise(NAME, async () => {
      // Background: the first request never waits for the clean-up.
      void removeOldSpillFiles(spillLocation(kernel.projectRoot, limits.spillDir()), limits.spillMaxAgeMs).catch((error: unknown) => {
        if (isStatePathRefused(error)) kernel.warn(`${NAME}: old tool outputs are not cleaned up: ${error.message}`);
      });
    });
  },
});
