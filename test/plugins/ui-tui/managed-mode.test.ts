/** The terminal UI under managed settings that disable bypassPermissions: /mode refuses it, a settings default of bypass starts in default. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { initialStatus } from '../../../plugins/ui-tui/app/start.js';
import { bypassRefusal } from '../../../plugins/ui-tui/model/bypass-refusal.js';
import { initialMode, TuiController } from '../../../plugins/ui-tui/model/controller.js';
import { localCommands } from '../../../plugins/ui-tui/model/local-commands.js';
import { UiStore } from '../../../plugins/ui-tui/model/ui-store.js';
import permissionRules from '../../../plugins/permission-rules/index.js';
import { EMPTY_MANAGED_POLICY, type ManagedPolicy } from '../../../types/managed.js';
import type { CliOptions } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel } from '../../support/boot.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

afterEach(() => removeTempDirs());

const cli: CliOptions = { outputFormat: 'text', permissionMode: 'default', permissionModeGiven: false, debugBoot: false, cwd: '/tmp/project', allowedTools: [], disallowedTools: [] };
const DISABLED: ManagedPolicy = { ...EMPTY_MANAGED_POLICY, permissions: { deny: [], ask: [], disableBypassMode: { value: true, where: '/etc/mewcode/managed-settings.yaml:2:24' } } };

async function tui(managed: ManagedPolicy) {
  const homeDir = temp('mewcode-tui-home-');
  mkdirSync(path.join(homeDir, '.mewcode'), { recursive: true });
  writeFileSync(path.join(homeDir, '.mewcode', 'settings.yaml'), 'permissions:\n  default_mode: bypassPermissions\n');
  const { kernel } = await bootKernel([], [permissionRules], { projectRoot: temp('mewcode-tui-root-'), homeDir, managed });
  const api = kernel.container.get(TOKENS.Kernel);
  const controller = new TuiController(api, new UiStore(initialStatus(api, cli)));
  const mode = localCommands(controller).find((command) => command.name === 'mode')!;
  return { kernel, api, controller, mode };
}

test('/mode bypassPermissions is refused, naming the managed file; the mode stays; other modes still switch', async () => {
  const { controller, mode, kernel } = await tui(DISABLED);
  expect(await mode.run('bypassPermissions')).toEqual({ isError: true, output: expect.stringContaining('bypassPermissions is disabled by managed settings (/etc/mewcode/managed-settings.yaml:2:24') });
  expect(controller.mode).toBe('default');
  expect(await mode.run('acceptEdits')).toEqual({ output: 'Mode: acceptEdits.' });
  expect(controller.mode).toBe('acceptEdits');
  await kernel.shutdown();
});

test('a settings default_mode of bypassPermissions starts in default mode', async () => {
  const { api, kernel } = await tui(DISABLED);
  expect(bypassRefusal(api)).toBeDefined();
  expect(initialMode(api, 'default', false)).toBe('default');
  await kernel.shutdown();
});

test('control: without managed settings /mode bypassPermissions switches and the settings default applies', async () => {
  const { api, controller, mode, kernel } = await tui(EMPTY_MANAGED_POLICY);
  expect(initialMode(api, 'default', false)).toBe('bypassPermissions');
  expect(await mode.run('bypassPermissions')).toEqual({ output: 'Mode: bypassPermissions.' });
  expect(controller.mode).toBe('bypassPermissions');
  await kernel.shutdown();
});
