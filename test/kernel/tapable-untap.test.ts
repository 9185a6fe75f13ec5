/**
 * Removing a plugin's taps (TapLedger.removeAll: a failed apply, shutdown) relies on two things
 * tapable does not document: its `taps` array is the list a hook compiles its call from, and adding
 * an interceptor drops the compiled call. This test pins both on the installed tapable, for every
 * hook of the catalogue (each tapable class the kernel uses), also after the hook has run once: an
 * upgrade that breaks untapping fails here, not in a session that still runs a removed plugin.
 */
import { HOOK_CATALOGUE, type HookSpec } from '../../types/hook-catalogue.js';
import type { HookName } from '../../types/hooks.js';
import { createHooks, HOOK_NAMES } from '../../kernel/hooks.js';
import { createPluginHooks, TapLedger } from '../../kernel/hook-facade.js';

type AnyHook = { taps: { name: string }[]; call?(...args: unknown[]): unknown; promise?(...args: unknown[]): Promise<unknown> };

async function run(hook: AnyHook, name: HookName): Promise<void> {
  const args = (HOOK_CATALOGUE[name] as HookSpec).args.map(() => undefined);
  if ((HOOK_CATALOGUE[name] as HookSpec).class.startsWith('Sync')) hook.call!(...args);
  else await hook.promise!(...args);
}

function tapRecording(hooks: ReturnType<typeof createPluginHooks>, name: HookName, plugin: string, ran: string[]): void {
  const facade = hooks[name] as unknown as Record<'tap' | 'tapPromise', (options: string, fn: (...args: unknown[]) => unknown) => void>;
  if ((HOOK_CATALOGUE[name] as HookSpec).class.startsWith('Sync')) facade.tap(plugin, () => void ran.push(plugin));
  else facade.tapPromise(plugin, async () => void ran.push(plugin));
}

test.each(HOOK_NAMES)('%s: a removed plugin\'s tap no longer runs, whether or not the hook ran before', async (name) => {
  for (const ranFirst of [true, false]) {
    const hooks = createHooks();
    const ledger = new TapLedger();
    const ran: string[] = [];
    for (const plugin of ['gone', 'kept']) tapRecording(createPluginHooks(hooks, { plugin }, ledger), name, plugin, ran);
    const hook = hooks[name] as unknown as AnyHook;
    if (ranFirst) {
      await run(hook, name);
      expect(ran).toEqual(['gone', 'kept']);
      ran.length = 0;
    }
    expect(ledger.removeAll('gone')).toBe(1);
    expect(hook.taps.map((tap) => tap.name)).toEqual(['kept']);
    await run(hook, name);
    expect(ran).toEqual(['kept']);
    // A plugin tapping after the removal is called too: the hook compiles again.
    ran.length = 0;
    tapRecording(createPluginHooks(hooks, { plugin: 'late' }, ledger), name, 'late', ran);
    await run(hook, name);
    expect(ran).toEqual(['kept', 'late']);
  }
});
