/** Whether the permission mode may become bypassPermissions in the terminal UI. */
import type { KernelApi } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';

/** Why bypassPermissions cannot be chosen (managed settings disable it), or undefined. */
export function bypassRefusal(kernel: KernelApi): string | undefined {
  if (!kernel.container.isBound(TOKENS.ManagedPolicy)) return undefined;
  const disabled = kernel.container.get(TOKENS.ManagedPolicy).permissions.disableBypassMode;
  return disabled ? `bypassPermissions is disabled by managed settings (${disabled.where}: disable_bypass_mode)` : undefined;
}
