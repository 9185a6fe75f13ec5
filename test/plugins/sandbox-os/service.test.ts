/** The sandbox service: user settings, lazy probing, degrading to "unavailable" loudly and once. */
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../config/load.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import sandboxOs from '../../../plugins/sandbox-os/index.js';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';
import { locateMechanism, SYSTEM_LOCATIONS } from '../../../plugins/sandbox-os/probe.js';
import { readSandboxSettings } from '../../../plugins/sandbox-os/settings.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel } from '../../support/boot.js';
import { createWorkspaceTrust } from '../../../config/trust.js';

async function tmp(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

async function homeWith(file: string, text: string): Promise<string> {
  const home = await tmp('mc-sbx-settings-');
  await mkdir(path.join(home, '.mewcode'));
  await writeFile(path.join(home, '.mewcode', file), text);
  return home;
}

/** A fake `bwrap` on its own PATH that records each run and answers as told. */
async function fakeBwrap(script: string): Promise<{ dir: string; marker: string }> {
  const dir = await tmp('mc-sbx-fakebin-');
  const marker = path.join(dir, 'ran');
  await writeFile(path.join(dir, 'bwrap'), `#!/bin/sh\necho run >> ${marker}\n${script}\n`);
  await chmod(path.join(dir, 'bwrap'), 0o755);
  return { dir, marker };
}

describe('user settings', () => {
  test('sandbox: false and enabled: false turn it off, naming where', async () => {
    const warnings: string[] = [];
    const off = await readSandboxSettings(await homeWith('settings.yaml', 'sandbox: false\n'), (m) => warnings.push(m));
    expect(off).toMatchObject({ enabled: false, disabledAt: expect.stringMatching(/settings\.yaml:1:10$/) });
    const off2 = await readSandboxSettings(await homeWith('config.yaml', 'sandbox:\n  enabled: false\n'), (m) => warnings.push(m));
    expect(off2.enabled).toBe(false);
    expect(warnings).toEqual([]);
  });

  test('a settings file over the config size cap is not read (its loader reports it); a directory gives no second warning', async () => {
    const warnings: string[] = [];
    const big = await homeWith('settings.yaml', 'sandbox: false\n' + '#'.repeat(1024 * 1024) + '\n');
    expect((await readSandboxSettings(big, (m) => warnings.push(m))).enabled).toBe(true);
    const dirHome = await tmp('mc-sbx-dir-');
    await mkdir(path.join(dirHome, '.mewcode', 'config.yaml'), { recursive: true });
    expect((await readSandboxSettings(dirHome, (m) => warnings.push(m))).enabled).toBe(true);
    expect(warnings).toEqual([]);
  });

  test('network, deny_read and allow_write; ~ is the given home; bad entries are skipped naming file:line:col', async () => {
    const warnings: string[] = [];
    const home = await homeWith('settings.yaml', 'sandbox:\n  network: true\n  deny_read: [~/secrets, /opt/keys, relative/path]\n  allow_write: [~/.cache/go]\n  colour: blue\n  enabled: maybe\n');
    const settings = await readSandboxSettings(home, (m) => warnings.push(m));
    expect(settings).toMatchObject({ enabled: true, network: true, denyRead: [path.join(home, 'secrets'), '/opt/keys'], allowWrite: [path.join(home, '.cache/go')] });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/settings\.yaml:3:\d+: sandbox\.deny_read: expected an absolute path/);
    expect(warnings[1]).toMatch(/settings\.yaml:5:\d+: sandbox\.colour: unknown key/);
    expect(warnings[2]).toMatch(/settings\.yaml:6:\d+: sandbox\.enabled: expected true or false/);
  });

  test('allowed_domains: host names (name or *.name) are kept lower-cased; anything else is skipped with its location', async () => {
    const warnings: string[] = [];
    const text = 'sandbox:\n  allowed_domains: [Registry.NPMjs.org, "*.github.com", "https://x.io/path", "a b", 42, registry.npmjs.org.]\n';
    const settings = await readSandboxSettings(await homeWith('settings.yaml', text), (m) => warnings.push(m));
    expect(settings).toMatchObject({ network: false, allowedDomains: ['registry.npmjs.org', '*.github.com'] });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/settings\.yaml:2:\d+: sandbox\.allowed_domains: "https:\/\/x\.io\/path" is not a host name/);
    const again = await readSandboxSettings(await homeWith('settings.yaml', 'sandbox:\n  allowed_domains: oops\n'), (m) => warnings.push(m));
    expect(again.allowedDomains).toEqual([]);
    expect(warnings.at(-1)).toMatch(/sandbox\.allowed_domains: expected a list of host names/);
  });

  test('settings.yaml wins over config.yaml; no file → defaults', async () => {
    const home = await homeWith('settings.yaml', 'sandbox: false\n');
    await writeFile(path.join(home, '.mewcode', 'config.yaml'), 'sandbox:\n  network: true\n');
    expect((await readSandboxSettings(home, () => undefined)).enabled).toBe(false);
    expect(await readSandboxSettings(await tmp('mc-sbx-empty-'), () => undefined)).toMatchObject({ enabled: true, network: false });
  });

  test("a project's sandbox: is ignored, with a warning naming its file (even the local file of a trusted project)", async () => {
    const root = await tmp('mc-sbx-proj-');
    const home = await tmp('mc-sbx-home-');
    // An untrusted project's `sandbox:` is held back by workspace trust before it gets here; once
    // the project is trusted the local file reaches the merged config, and is still not obeyed.
    await mkdir(path.join(root, '.mewcode'));
    await writeFile(path.join(root, '.mewcode', 'config.local.yaml'), 'sandbox: false\n');
    const config = await loadConfig({ cwd: root, homeDir: home, trust: await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true }) });
    const { kernel, reporter } = await bootKernel([], [outputLimits, sandboxOs], { projectRoot: root, homeDir: home, config });
    expect(kernel.container.get(TOKENS.CommandSandbox).status().disabledByUser).toBeUndefined();
    await kernel.shutdown(); // warnings are held for a UI until then
    expect(reporter.warnings.join('\n')).toContain(`${path.join(root, '.mewcode', 'config.local.yaml')}:1:10: sandbox: is ignored outside your own settings`);
  });
});

describe('availability', () => {
  test('start() probes, once; later calls answer from the cache', async () => {
    const { dir, marker } = await fakeBwrap('exit 0');
    const sandbox = new OsCommandSandbox({ homeDir: await tmp('mc-sbx-home-'), warn: () => undefined, platform: 'linux', searchPath: dir, startTimeoutMs: 5000 });
    await sandbox.start();
    expect(readFileSync(marker, 'utf8')).toBe('run\n');
    expect(sandbox.status()).toEqual({ active: true, mechanism: 'bubblewrap', network: false });
    sandbox.status();
    await sandbox.probe();
    const wrapped = await sandbox.wrap({ argv: ['/bin/true'], cwd: '/', projectRoot: await tmp('mc-sbx-proj-'), homeDir: '/' });
    if (wrapped.kind === 'sandboxed') await wrapped.launch.release();
    await sandbox.dispose();
    expect(readFileSync(marker, 'utf8')).toBe('run\n');
  });

  test('a probe that fails (user namespaces refused) degrades to unavailable, says why once at start, and bash runs as before', async () => {
    const { dir } = await fakeBwrap("echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1");
    const warnings: string[] = [];
    const sandbox = new OsCommandSandbox({ homeDir: await tmp('mc-sbx-home-'), warn: (m) => warnings.push(m), platform: 'linux', searchPath: dir, startTimeoutMs: 5000 });
    await sandbox.start();
    expect(warnings).toHaveLength(1);
    const status = await sandbox.probe();
    expect(status).toMatchObject({ active: false, mechanism: 'none' });
    expect(status.reason).toContain('setting up uid map: Permission denied');
    expect(status.reason).toContain('user namespaces are not allowed here');
    sandbox.status();
    const wrapped = await sandbox.wrap({ argv: ['/bin/true'], cwd: '/', projectRoot: '/', homeDir: '/' });
    expect(wrapped).toMatchObject({ kind: 'unsandboxed', status });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('no OS sandbox for commands');
    expect(warnings[0]).toContain('--dangerously-skip-sandbox');
  });

  test('a probe slower than startTimeoutMs does not hold up start(); it settles in the background, warns once, before any command runs', async () => {
    const { dir, marker } = await fakeBwrap("sleep 1; echo 'bwrap: No permissions to creating new namespace' >&2; exit 1");
    const warnings: string[] = [];
    const sandbox = new OsCommandSandbox({ homeDir: await tmp('mc-sbx-home-'), warn: (m) => warnings.push(m), platform: 'linux', searchPath: dir, startTimeoutMs: 50 });
    const started = Date.now();
    await sandbox.start();
    expect(Date.now() - started).toBeLessThan(900);
    expect(warnings).toEqual([]);
    // The first bash call waits for the same probe: the warning comes before its answer.
    const wrapped = await sandbox.wrap({ argv: ['/bin/true'], cwd: '/', projectRoot: '/', homeDir: '/' });
    expect(wrapped.kind).toBe('unsandboxed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('No permissions to creating new namespace');
    await sandbox.probe();
    expect(readFileSync(marker, 'utf8')).toBe('run\n');
    expect(warnings).toHaveLength(1);
  });

  test('booted as a plugin: an unusable bwrap is said at boot, before any bash call', async () => {
    const { dir, marker } = await fakeBwrap("echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1");
    const savedPath = process.env.PATH;
    process.env.PATH = `${dir}${path.delimiter}${savedPath ?? ''}`;
    // A system bwrap only root can change comes before PATH's (probe.ts): then the one on PATH is never started.
    const system = locateMechanism('linux', '', undefined, { systemLocations: SYSTEM_LOCATIONS.linux ?? [] });
    try {
      const root = await tmp('mc-sbx-proj-');
      const home = await tmp('mc-sbx-home-');
      const { kernel, reporter } = await bootKernel([], [outputLimits, sandboxOs], { projectRoot: root, homeDir: home });
      // The probe started at boot runs beside the first request; it settles long before a model answers.
      const status = await kernel.container.get(TOKENS.CommandSandbox).probe();
      await kernel.shutdown(); // warnings are held for a UI until then
      const said = reporter.warnings.filter((w) => w.includes('no OS sandbox for commands'));
      if (system.ok) {
        expect(existsSync(marker)).toBe(false);
        expect(said).toHaveLength(status.active ? 0 : 1);
        return;
      }
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('setting up uid map');
    } finally {
      process.env.PATH = savedPath;
    }
  });

  test('no bwrap installed: said once at start, without starting anything', async () => {
    const warnings: string[] = [];
    const sandbox = new OsCommandSandbox({ homeDir: await tmp('mc-sbx-home-'), warn: (m) => warnings.push(m), platform: 'linux', searchPath: await tmp('mc-sbx-nobin-') });
    await sandbox.start();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('bubblewrap (bwrap) is not installed');
    expect(sandbox.status()).toMatchObject({ active: false, mechanism: 'none' });
    expect(warnings).toHaveLength(1);
  });

  test('a platform without an OS sandbox', async () => {
    const sandbox = new OsCommandSandbox({ homeDir: '/x', warn: () => undefined, platform: 'win32' });
    expect(sandbox.status()).toEqual({ active: false, mechanism: 'none', reason: 'no OS sandbox is supported on win32' });
  });

  test('turned off by the user: no warning, no probe', async () => {
    const { dir, marker } = await fakeBwrap('exit 0');
    const warnings: string[] = [];
    const sandbox = new OsCommandSandbox({ homeDir: await homeWith('settings.yaml', 'sandbox: false\n'), warn: (m) => warnings.push(m), platform: 'linux', searchPath: dir });
    await sandbox.start();
    expect(await sandbox.probe()).toMatchObject({ active: false, disabledByUser: true, reason: expect.stringContaining('turned off by the user') });
    expect(existsSync(marker)).toBe(false);
    expect(warnings).toEqual([]);
  });
});
