/**
 * `stop` is a bail hook, yet a required plugin's stop tap (required on the plugin, by configuration
 * or by managed settings) is called on every run end, before any other tap, whatever stages the
 * others ask for; the first continuation among the required taps stands, and then no other tap is
 * asked. Configured plugins are loaded from files, as a user's configuration loads them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_STOP_CONTINUATIONS } from '../../kernel/agent-loop.js';
import type { ResolvedConfig } from '../../types/config.js';
import { definePlugin } from '../../types/plugin.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { say } from '../support/memory-provider.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());

const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

/** Every stop tap records `<name>:<reason>/<continuations>` in globalThis.__stops. */
const stops = ((globalThis as unknown as { __stops?: string[] }).__stops ??= []);
beforeEach(() => {
  stops.length = 0;
});

/** A plugin file whose stop tap records each call and continues when `continueWhen` (a JS expression over `c`, the context) holds. */
const stopPlugin = (name: string, stage: number, continueWhen: string, extra = ''): string =>
  `export default { name: '${name}'${extra}, apply(k) {
    k.hooks.stop.tapPromise({ name: '${name}', stage: ${stage} }, async (c) => {
      globalThis.__stops.push('${name}:' + c.reason + '/' + c.continuations);
      return (${continueWhen}) ? { continue: true, reason: '${name} says go on', by: '${name}' } : undefined;
    });
  } };`;

/** One answer per run end a run can have: the first, then MAX_STOP_CONTINUATIONS continuations. */
const runEnds = Array.from({ length: MAX_STOP_CONTINUATIONS + 1 }, (_, i) => i);
const everyAnswer = () => runEnds.map((i) => say(`answer ${i}`));

test("a configured plugin that always continues, tapped far earlier, does not starve a required plugin's stop tap", async () => {
  const project = temp('mc-stop-');
  writeFileSync(path.join(project, 'audit.mjs'), stopPlugin('org-audit', 0, 'false'));
  writeFileSync(path.join(project, 'mine.mjs'), stopPlugin('mine', -100000, 'true'));
  const { kernel } = await bootKernel(everyAnswer(), [], {
    projectRoot: project,
    config: configWith({ plugins: [{ use: './audit.mjs', required: true }, './mine.mjs'] }),
  });
  expect(doneEvent(await runPrompt(kernel, 'go', 'default')).finalText).toBe(`answer ${MAX_STOP_CONTINUATIONS}`);
  // One run end per answer (MAX_STOP_CONTINUATIONS continuations, the most a run takes): the organisation's tap saw each, first.
  expect(stops).toEqual(runEnds.flatMap((i) => [`org-audit:completed/${i}`, `mine:completed/${i}`]));
});

test("a build plugin's tap that continues (the user's Stop hooks) does not starve it either", async () => {
  const project = temp('mc-stop-');
  writeFileSync(path.join(project, 'audit.mjs'), stopPlugin('org-audit', 5000, 'false'));
  const userHooks = definePlugin({
    name: 'user-hooks',
    apply: (kernel) =>
      void kernel.hooks.stop.tapPromise('user-hooks', async (c) => {
        stops.push(`user-hooks:${c.reason}/${c.continuations}`);
        return { continue: true, reason: 'keep going', by: 'user-hooks' };
      }),
  });
  const { kernel } = await bootKernel(everyAnswer(), [userHooks], {
    projectRoot: project,
    config: configWith({ plugins: [{ use: './audit.mjs', required: true }] }),
  });
  await runPrompt(kernel, 'go', 'default');
  expect(stops.filter((s) => s.startsWith('org-audit'))).toEqual(runEnds.map((i) => `org-audit:completed/${i}`));
  expect(stops[0]).toBe('org-audit:completed/0');
});

test("every required tap is called even when one continues; the first required continuation is the one given, and the others' are not asked", async () => {
  const project = temp('mc-stop-');
  const managedDir = temp('mc-managed-');
  writeFileSync(path.join(managedDir, 'gate.mjs'), stopPlugin('org-gate', 10, 'c.continuations === 0'));
  writeFileSync(path.join(managedDir, 'managed-settings.yaml'), 'plugins:\n  - ./gate.mjs\n');
  writeFileSync(path.join(project, 'team.mjs'), stopPlugin('team-check', -10, 'c.continuations === 0'));
  writeFileSync(path.join(project, 'mine.mjs'), stopPlugin('mine', -100000, 'true'));
  const { loadManagedPolicy } = await import('../../config/managed-settings.js');
  const managed = await loadManagedPolicy({ env: {}, candidates: [{ file: path.join(managedDir, 'managed-settings.yaml'), named: true }] });
  const { kernel, model } = await bootKernel(everyAnswer(), [], {
    projectRoot: project,
    managed,
    config: configWith({ plugins: [{ use: './team.mjs', required: true }, './mine.mjs'] }),
  });
  await runPrompt(kernel, 'go', 'default');
  // The organisation's (managed) tap first, then the team's required one; both continue at the
  // first end: the organisation's reason is the next user message, and `mine` is not asked then.
  expect(stops.slice(0, 2)).toEqual(['org-gate:completed/0', 'team-check:completed/0']);
  expect(stops[2]).toBe('org-gate:completed/1');
  expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('org-gate says go on');
  expect(stops.filter((s) => s.startsWith('mine'))).toEqual(runEnds.slice(1).map((i) => `mine:completed/${i}`));
});
