/**
 * The output-limits plugin (SPEC T8): binds the OutputLimits service every tool uses for its
 * caps and for saving full outputs, and cleans old spill files in the background at start-up.
 */
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { OutputLimits } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { LIMITS } from './limits.js';
import { cutBytes, cutLine } from '../../sdk/text-cuts.js';
import { DEFAULT_SPILL_DIR, ensureDirectory, removeOldSpillFiles, spillFileName } from './spill-directory.js';

const NAME = 'output-limits';

export function createOutputLimits(spillDir: string): OutputLimits {
  return {
    ...LIMITS,
    spillDir: () => spillDir,
    async spillPath(toolCallId, suffix) {
      await ensureDirectory(spillDir);
      return path.join(spillDir, spillFileName(toolCallId, suffix));
    },
    cutLine,
    cutBytes,
  };
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.OutputLimits)
      .toDynamicValue((context) => createOutputLimits(path.join(context.get<KernelApi>(TOKENS.Kernel).projectRoot, DEFAULT_SPILL_DIR)))
      .inSingletonScope();
  }),
  apply(kernel) {
    const limits = kernel.container.get<OutputLimits>(TOKENS.OutputLimits);
    kernel.hooks.sessionStart.tapPromise(NAME, async () => {
      // Background: the first request never waits for the clean-up.
      void removeOldSpillFiles(limits.spillDir(), limits.spillMaxAgeMs).catch(() => undefined);
    });
  },
});
