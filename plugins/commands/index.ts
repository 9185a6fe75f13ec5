/**
 * The built-in slash commands (U1): `/help` and `/compact`, contributed under TOKENS.Command
 * exactly as any plugin contributes its own, and run by the headless UI (`mewcode -p "/help"`)
 * and, later, the terminal UI. Each command reaches the kernel through TOKENS.Kernel when it is
 * resolved (kernel.commands()), never through kernel internals.
 */
import { ContainerModule } from 'inversify';
import type { KernelApi } from '../../types/plugin.js';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { compactCommand } from './compact.js';
import { helpCommand } from './help.js';

export { compactCommand, NO_COMPACTION_SERVICE } from './compact.js';
export { helpCommand, renderHelp } from './help.js';

export default definePlugin({
  name: 'commands',
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Command).toDynamicValue((context) => helpCommand(context.get<KernelApi>(TOKENS.Kernel))).inSingletonScope();
    bind(TOKENS.Command).toDynamicValue((context) => compactCommand(context.get<KernelApi>(TOKENS.Kernel))).inSingletonScope();
  }),
});
