/**
 * The kernel's own hook objects, reachable only through this module: the Kernel keeps them in a
 * true private field, and neither `mewcode` nor `mewcode/sdk` exports this module, so no plugin
 * can call a hook, read its taps or clear them. Tests (which call hooks as the kernel does)
 * import it directly.
 */
import type { KernelHooks } from '../types/hooks.js';

const RAW_HOOKS = new WeakMap<object, KernelHooks>();

export function recordRawHooks(kernel: object, hooks: KernelHooks): void {
  RAW_HOOKS.set(kernel, hooks);
}

export function rawHooksOf(kernel: object): KernelHooks {
  const hooks = RAW_HOOKS.get(kernel);
  if (!hooks) throw new Error('rawHooksOf: not a kernel');
  return hooks;
}
