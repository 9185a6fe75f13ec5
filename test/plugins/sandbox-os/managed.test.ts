/** Managed settings over the user's sandbox settings: forced on, domains pinned, never unconfined when forced. */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

  it('a forced sandbox drops the user\'s allow_write, allow_unix_sockets and network: true, saying each once', () => {
    const warnings: string[] = [];
    const out = applyManagedSandbox({ ...DEFAULT_SANDBOX_SETTINGS, network: true, allowWrite: ['/home/u'], allowUnixSockets: ['/run/docker.sock'], allowAllUnixSockets: true, denyRead: ['/opt/keys'] }, FORCED, (m) => warnings.push(m));
    expect(out).toMatchObject({ enabled: true, network: false, allowWrite: [], allowUnixSockets: [], denyRead: ['/opt/keys'] });
    expect(out.allowAllUnixSockets).toBeUndefined();
    expect(warnings).toHaveLength(4);
    for (const warning of warnings) expect(warning).toContain('managed settings force the OS sandbox on (/etc/mewcode/managed-settings.yaml:2:12)');
  });

  it('no managed settings: the user\'s settings as they are', () => {
    const settings = { ...DEFAULT_SANDBOX_SETTINGS, network: true };
    expect(applyManagedSandbox(settings, EMPTY_MANAGED_POLICY, () => undefined)).toEqual(settings);
  });
});

describe('a forced sandbox that cannot run here', () => {
  it('wrap refuses the command (it never runs unconfined), naming the managed file and why', async () => {
    const noBin = await mkdtemp(path.join(os.tmpdir(), 'mc-sbx-nobin-'));
    const sandbox = new OsCommandSandbox({ homeDir: noBin, warn: () => undefined, platform: 'linux', searchPath: noBin, systemLocations: [path.join(noBin, 'bwrap')], managed: FORCED });
    const wrapped = await sandbox.wrap({ argv: ['/bin/true'], cwd: noBin, projectRoot: noBin, homeDir: noBin });
    expect(wrapped).toEqual({ kind: 'refused', message: expect.stringMatching(/required by managed settings \(\/etc\/mewcode\/managed-settings\.yaml:2:12\) and cannot run here \(.*bwrap.*\)/) });
    const free = new OsCommandSandbox({ homeDir: noBin, warn: () => undefined, platform: 'linux', searchPath: noBin });
    expect((await free.wrap({ argv: ['/bin/true'], cwd: noBin, projectRoot: noBin, homeDir: noBin })).kind).toBe('unsandboxed');
  });

  it('a bwrap on PATH is not used: the command is refused, saying only a root-owned system program counts, and the script never starts', async () => {
    const bin = await mkdtemp(path.join(os.tmpdir(), 'mc-sbx-fakebin-'));
    const marker = path.join(bin, 'ran');
    // Passes the probe and runs its command on the host: a no-op "sandbox".
    await writeFile(path.join(bin, 'bwrap'), `#!/bin/sh\necho run >> ${marker}\nwhile [ "$1" != -- ]; do shift; done; shift\nexec "$@"\n`);
    await chmod(path.join(bin, 'bwrap'), 0o755);
    const warnings: string[] = [];
    const sandbox = new OsCommandSandbox({ homeDir: bin, warn: (m) => warnings.push(m), platform: 'linux', searchPath: bin, systemLocations: [path.join(bin, 'none')], managed: FORCED });
    const wrapped = await sandbox.wrap({ argv: ['/bin/true'], cwd: bin, projectRoot: bin, homeDir: bin });
    expect(wrapped).toEqual({ kind: 'refused', message: expect.stringContaining('never one found on PATH') });
    expect(wrapped.kind === 'refused' && wrapped.message).toMatch(/required by managed settings \(\/etc\/mewcode\/managed-settings\.yaml:2:12\) and cannot run here/);
    expect(existsSync(marker)).toBe(false);
    expect(warnings.join('\n')).toContain('no OS sandbox for commands');
    // Without the force the same PATH is the user's own, and its bwrap is used (the system has none here).
    const free = new OsCommandSandbox({ homeDir: bin, warn: () => undefined, platform: 'linux', searchPath: bin, systemLocations: [path.join(bin, 'none')] });
    expect((await free.probe()).active).toBe(true);
    expect(existsSync(marker)).toBe(true);
  });
});

describe('a forced sandbox and the user\'s widening settings', () => {
  it('a command cannot write where the user\'s allow_write points (the real sandbox)', async () => {
    // Not under /tmp: the sandbox gives each command a private /tmp, where a write would succeed unseen.
    const base = realpathSync(await mkdtemp(path.join(existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'mc-sbx-managed-')));
    try {
      const home = path.join(base, 'home');
      const project = path.join(base, 'project');
      const outside = path.join(base, 'outside');
      for (const dir of [path.join(home, '.mewcode'), project, outside]) await mkdir(dir, { recursive: true });
      await writeFile(path.join(home, '.mewcode', 'settings.yaml'), `sandbox:\n  allow_write: [${outside}]\n  network: true\n`);
      const warnings: string[] = [];
      const sandbox = new OsCommandSandbox({ homeDir: home, warn: (m) => warnings.push(m), platform: 'linux', managed: FORCED });
      const status = await sandbox.probe();
      if (!status.active && process.env.MEWCODE_REQUIRE_SANDBOX !== '1') return; // no sandbox here to test
      expect(status).toMatchObject({ active: true, network: false });
      const wrapped = await sandbox.wrap({ argv: ['/bin/sh', '-c', `echo x > ${outside}/w; echo y > ${project}/p`], cwd: project, projectRoot: project, homeDir: home });
      if (wrapped.kind !== 'sandboxed') throw new Error(`not sandboxed: ${JSON.stringify(wrapped)}`);
      spawnSync(wrapped.launch.file, wrapped.launch.args, { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...wrapped.launch.env } });
      await wrapped.launch.release();
      expect(existsSync(path.join(outside, 'w'))).toBe(false);
      expect(existsSync(path.join(project, 'p'))).toBe(true);
      expect(warnings.filter((w) => /allow_write|network: true/.test(w))).toEqual([expect.stringContaining(`sandbox.allow_write: ${outside} not used`), expect.stringContaining('sandbox.network: true not used')]);
      await sandbox.dispose();
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
