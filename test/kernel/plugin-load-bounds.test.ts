/**
 * Loading a plugin always ends: its module's top-level code and its factory (PLUGIN_LOAD_TIMEOUT_MS),
 * its bindings and its apply() (APPLY_TIMEOUT_MS) each have a bound. One past its bound, or waiting
 * on something nothing can settle any more, fails like one that threw, naming the plugin: a
 * required one stops the boot, another is removed (its taps go, a later tap is refused).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import { expireStalledWaits } from '../../kernel/decision-bounds.js';
import { loadExternalPlugins } from '../../kernel/external-plugins.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { say } from '../support/memory-provider.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const slowApply = (name: string, ms: number, required = false, taps?: string[]) =>
  definePlugin({
    name,
    ...(required ? { required: true } : {}),
    async apply(kernel: KernelApi) {
      kernel.hooks.sessionStart.tap(name, () => undefined);
      taps?.push(`${name} early`);
      await sleep(ms);
      try {
        kernel.hooks.sessionStart.tap(name, () => undefined);
        taps?.push(`${name} late`);
      } catch (error) {
        taps?.push(`${name} refused: ${(error as Error).message}`);
      }
    },
  });

test('apply() within its bound loads; one past it is removed naming the plugin, and the tap it makes later is refused', async () => {
  const taps: string[] = [];
  const { kernel, reporter } = await bootKernel([say('ok')], [slowApply('in-time', 100, false, taps), slowApply('too-slow', 900, false, taps)], { pluginApplyTimeoutMs: 400 });
  expect(reporter.warnings).toContainEqual(expect.stringMatching(/^plugin too-slow failed in apply: apply\(\) did not finish within 400 ms \(slow work belongs in start\(\)\); its taps and tools were removed/));
  expect(reporter.warnings.join('\n')).not.toContain('in-time');
  expect(doneEvent(await runPrompt(kernel, 'hi')).finalText).toBe('ok');
  await sleep(700); // too-slow's apply goes on and tries its second tap
  expect(taps).toEqual(['in-time early', 'in-time late', 'too-slow early', 'too-slow refused: plugin too-slow tried to tap hook sessionStart after it was removed (it failed, or MewCode is shutting down); a removed plugin taps nothing']);
  await kernel.shutdown();
});

test('a required plugin whose apply() is past its bound stops the boot with a ConfigurationError naming it', async () => {
  const booting = bootKernel([say('must not run')], [slowApply('acme-policy', 600, true)], { pluginApplyTimeoutMs: 200 });
  await expect(booting).rejects.toThrow(ConfigurationError);
  await expect(booting).rejects.toThrow('plugin acme-policy failed in apply: apply() did not finish within 200 ms (slow work belongs in start()). It is required');
});

test('an apply() waiting on what nothing can settle fails at once when the process has nothing left to run', async () => {
  let waiting = false;
  const stuck = definePlugin({ name: 'stuck', required: true, apply: () => ((waiting = true), new Promise<void>(() => undefined)) });
  const booting = bootKernel([], [stuck]);
  booting.catch(() => undefined);
  while (!waiting) await sleep(5);
  await sleep(5);
  expect(expireStalledWaits()).toBe(1);
  await expect(booting).rejects.toThrow('plugin stuck failed in apply: apply() waits on something that can never finish');
});

test('bindings whose loading never ends are a failure of that phase, named', async () => {
  const stuck = definePlugin({ name: 'slow-bindings', bindings: new ContainerModule(() => new Promise<void>((resolve) => setTimeout(resolve, 600))) });
  const { kernel, reporter } = await bootKernel([say('ok')], [stuck], { pluginApplyTimeoutMs: 200 });
  expect(reporter.warnings).toContainEqual(expect.stringMatching(/^plugin slow-bindings failed in bindings: its bindings did not finish loading within 200 ms; skipped/));
  await kernel.shutdown();
});

test("a module whose top-level await or factory never settles is a load failure naming the plugin's file", async () => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-load-bounds-')));
  dirs.push(dir);
  const module = path.join(dir, 'tla.mjs');
  writeFileSync(module, `await new Promise(() => {});\nexport default { name: 'tla' };\n`);
  const factory = path.join(dir, 'factory.mjs');
  writeFileSync(factory, `globalThis.__factoryCalled = true;\nexport default () => new Promise(() => {});\n`);
  const failures: string[] = [];
  const loading = loadExternalPlugins([{ spec: module, from: [dir] }, { spec: factory, from: [dir] }], (_spec, message) => void failures.push(message));
  while (!(globalThis as { __factoryCalled?: boolean }).__factoryCalled) await sleep(5);
  await sleep(20);
  expect(expireStalledWaits()).toBe(2);
  expect(await loading).toEqual([]);
  expect(failures.sort()).toEqual([
    `plugin ${factory} could not be loaded: its factory waits on something that can never finish (nothing is left running that could settle it)`,
    `plugin ${module} could not be loaded: its module (top-level code) waits on something that can never finish (nothing is left running that could settle it)`,
  ]);
});
