/**
 * A configured plugin's section in a project config file (`orgpol: {enforce: false}`) needs trust
 * like `plugins:` or `providers:`: listed by the dialog and the notice (its keys, not its values),
 * hashed in trust.json so a change asks again. The sections the build itself reads do not.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createWorkspaceTrust } from '../../config/index.js';
import { BUILD_CONFIG_KEYS } from '../../config/trust-keys.js';
import { KERNEL_SECTION_KEYS } from '../../kernel/kernel-config.js';
import { defaultPlugins } from '../../plugins/default-set.js';
import { type TempDirs, lines, makeTempDirs } from './helpers.js';

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

const trustOf = (options: { flag?: boolean; buildConfigKeys?: string[] } = {}) => createWorkspaceTrust({ projectRoot: dirs.cwd, homeDir: dirs.homeDir, ...options });
const listed = (trust: Awaited<ReturnType<typeof trustOf>>) => trust.pending().settings.map((s) => `${s.file}: ${s.key}`);

it('the keys the build reads are exactly the kernel’s and the default plugins’ sections', () => {
  const build = new Set<string>(KERNEL_SECTION_KEYS);
  for (const plugin of defaultPlugins) {
    if (plugin.config) build.add(plugin.config.key);
    for (const key of plugin.configKeys ?? []) build.add(key);
  }
  expect(new Set(BUILD_CONFIG_KEYS)).toEqual(build);
});

describe('a project’s plugin section', () => {
  it('is listed (its keys only) by an untrusted project’s dialog and notice, in the config and the config.local file', async () => {
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('max_turns: 3', 'bash:', '  timeout_ms: 5000', 'orgpol:', '  enforce: false', '  token: s3cret'));
    await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', lines('orgpol:', '  enforce: false'));
    const trust = await trustOf();
    expect(listed(trust)).toEqual(['.mewcode.yaml: orgpol', '.mewcode/config.local.yaml: orgpol']);
    expect(trust.notice()).toContain('.mewcode.yaml: orgpol: the configuration section of a plugin (keys: enforce, token)');
    expect(trust.notice()).not.toContain('s3cret');
    expect(trust.approves(`${dirs.cwd}/.mewcode.yaml`, 'orgpol', { enforce: false, token: 's3cret' })).toBe(false);
  });

  it('is hashed: trusted as it was, a changed value asks again, marked changed', async () => {
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('orgpol:', '  enforce: true'));
    await (await trustOf()).grant();
    const same = await trustOf();
    expect(same.source).toBe('stored');
    expect(same.approves(`${dirs.cwd}/.mewcode.yaml`, 'orgpol', { enforce: true })).toBe(true);
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('orgpol:', '  enforce: false'));
    const changed = await trustOf();
    expect(changed.isTrusted()).toBe(false);
    expect(changed.pending()).toMatchObject({ changed: true, settings: [{ file: '.mewcode.yaml', key: 'orgpol', summary: expect.stringMatching(/^changed since you trusted it: /) }] });
  });

  it('a custom build’s own section needs no trust when the build names it', async () => {
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('acme_ui:', '  theme: dark'));
    expect(listed(await trustOf())).toEqual(['.mewcode.yaml: acme_ui']);
    expect(listed(await trustOf({ buildConfigKeys: ['acme_ui'] }))).toEqual([]);
  });
});
