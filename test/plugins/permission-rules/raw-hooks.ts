/**
 * The kernel's own hook objects, for tests that call a hook the way the kernel does (plugins
 * and hosts only get tap-only facades since the Kernel v2 hook lockdown).
 */
import type { Kernel } from '../../../kernel/kernel.js';
import { rawHooksOf } from '../../../kernel/raw-hooks.js';
import type { KernelHooks } from '../../../types/hooks.js';

export function rawHooks(kernel: Kernel): KernelHooks {
  return rawHooksOf(kernel);
}
