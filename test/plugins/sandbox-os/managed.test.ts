/** Managed settings over the user's sandbox settings: forced on, domains pinned, never unconfined when forced. */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EMPTY_MANAGED_POLICY, type ManagedPolicy } from '../../../types/managed.js';
import { applyManagedSandbox } from '../../../plugins/sandbox-os/managed.js';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../plugins/sandbox-os/settings.js';

const FORCED: ManagedPolicy = { ...EMPTY_MANAGED_POLICY, sandbox: { forceEnabled: { value: true, where: '/etc/mewcode/managed-settings.yaml:2:12' } } };
const PINNED: ManagedPolicy = { ...EMPTY_MANAGED_POLICY, sandbox: { allowedDomains: { value: ['registry.npmjs.org'], where: '/etc/mewcode/managed-settings.yaml:3:20' } } };

describe('applyManagedSandbox', () => {
  it('the user\'s sandbox: false is overridden when managed settings force it on, and said', () => {
    const warnings: string[] = [];
    const out = applyManagedSandbox({ ...DEFAULT_SANDBOX_SETTINGS, enabled: false, disabledAt: '/home/u/.mewcode/settings.yaml:1:10' }, FORCED, (m) => warnings.push(m));
    expect(out.enabled).toBe(true);
    expect(out.disabledAt).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/settings\.yaml:1:10: sandbox: false is overridden: managed settings force the OS sandbox on \(\/etc\/mewcode\/managed-settings\.yaml:2:12\)/)]);
  });

  it('pinned domains replace the user\'s; network: true is closed; nothing is said when the user widened nothing', () => {
    const warnings: string[] = [];
    const out = applyManagedSandbox({ ...DEFAULT_SANDBOX_SETTINGS, network: true, allowedDomains: ['registry.npmjs.org', 'evil.example'] }, PINNED, (m) => warnings.push(m));
    expect(out).toMatchObject({ network: false, allowedDomains: ['registry.npmjs.org'] });
    expect(warnings).toHaveLength(2);
    const quiet: string[] = [];
    expect(applyManagedSandbox({ ...DEFAULT_SANDBOX_SETTINGS }, PINNED, (m) => quiet.push(m))).toMatchObject({ network: false, allowedDomains: ['registry.npmjs.org'] });
    expect(quiet).toEqual([]);
  });

  it('no managed settings: the user\'s settings as they are', () => {
    const settings = { ...DEFAULT_SANDBOX_SETTINGS, network: true };
    expect(applyManagedSandbox(settings, EMPTY_MANAGED_POLICY, () => undefined)).toEqual(settings);
  });
});

describe('a forced sandbox that cannot run here', () => {
  it('wrap refuses the command (it never runs unconfined), naming the managed file and why', async () => {
    const noBin = await mkdtemp(path.join(os.tmpdir(), 'mc-sbx-nobin-'));
    const sandbox = new OsCommandSandbox({ homeDir: noBin, warn: () => undefined, platform: 'linux', searchPath: noBin, managed: FORCED });
    const wrapped = await sandbox.wrap({ argv: ['/bin/true'], cwd: noBin, projectRoot: noBin, homeDir: noBin });
    expect(wrapped).toEqual({ kind: 'refused', message: expect.stringMatching(/required by managed settings \(\/etc\/mewcode\/managed-settings\.yaml:2:12\) and cannot run here \(.*bwrap.*\)/) });
    const free = new OsCommandSandbox({ homeDir: noBin, warn: () => undefined, platform: 'linux', searchPath: noBin });
    expect((await free.wrap({ argv: ['/bin/true'], cwd: noBin, projectRoot: noBin, homeDir: noBin })).kind).toBe('unsandboxed');
  });
});
