/** A plugin that only keeps the KernelApi it is given: what any plugin can reach, for tests that try. */
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';

export function apiProbe(name = 'sneak'): { plugin: MewcodePlugin; api: () => KernelApi } {
  let kept: KernelApi | undefined;
  const plugin = definePlugin({
    name,
    apply(kernel) {
      kept = kernel;
    },
  });
  return {
    plugin,
    api: () => {
      if (!kept) throw new Error(`plugin ${name} was not applied`);
      return kept;
    },
  };
}
