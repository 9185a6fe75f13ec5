/**
 * The ACP session's starting mode: --permission-mode, else the settings' default_mode, and never
 * a mode the editor is not offered (bypassPermissions under managed settings that disable it).
 */
import { Container } from 'inversify';
import { modeState, startingMode } from '../../../plugins/ui-acp/modes.js';
import type { PermissionMode } from '../../../types/permissions.js';
import type { CliOptions, KernelApi } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';

function kernel(defaultMode: PermissionMode | undefined, bypassDisabled: boolean): KernelApi {
  const container = new Container();
  container.bind(TOKENS.PermissionSettings).toConstantValue({ defaultMode: () => defaultMode } as never);
  container.bind(TOKENS.ManagedPolicy).toConstantValue({ permissions: bypassDisabled ? { disableBypassMode: { where: '/etc/mewcode/managed-settings.json' } } : {} } as never);
  return { container } as unknown as KernelApi;
}

const options = (permissionMode: PermissionMode, permissionModeGiven: boolean) => ({ permissionMode, permissionModeGiven }) as CliOptions;

test.each([
  ['the settings default', kernel('bypassPermissions', false), options('default', false), 'bypassPermissions'],
  ['a given mode over the settings', kernel('plan', false), options('acceptEdits', true), 'acceptEdits'],
  ['the settings default, bypass disabled', kernel('bypassPermissions', true), options('default', false), 'default'],
  ['a given bypass, bypass disabled', kernel(undefined, true), options('bypassPermissions', true), 'default'],
] as const)('%s', (_name, k, o, expected) => {
  const mode = startingMode(k, o);
  expect(mode).toBe(expected);
  expect(modeState(k, mode).availableModes.map((m) => m.id)).toContain(mode);
});
