/**
 * `allow_managed_plugins_only` in managed settings: a plugin named in a user's or a project's
 * configuration is never imported (its module's own code would already run in MewCode's process,
 * beyond any check the kernel makes), while the build's and the organisation's plugins load.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { ManagedPolicy } from '../../types/managed.js';
import { bootKernel, runPrompt } from '../support/boot.js';
import { say } from '../support/memory-provider.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });
const WHERE = '/etc/mewcode/managed-settings.yaml:3:1';
const policy = (baseDir: string, onlyManaged: boolean): ManagedPolicy => ({
  files: ['/etc/mewcode/managed-settings.yaml'],
  plugins: [{ use: './org.mjs', baseDir, file: path.join(baseDir, 'managed-settings.yaml'), where: '/etc/mewcode/managed-settings.yaml:1:10' }],
  ...(onlyManaged ? { managedPluginsOnly: { value: true as const, where: WHERE } } : {}),
  permissions: { deny: [], ask: [] },
  sandbox: {},
  mcp: { deniedServers: [] },
});

/** The organisation's plugin and a configured one; each leaves a file when its module is imported. */
function project(): string {
  const root = temp('mc-managed-only-');
  const marker = (name: string) => JSON.stringify(path.join(root, `${name}-imported`));
  writeFileSync(path.join(root, 'org.mjs'), `import { writeFileSync } from 'node:fs'; writeFileSync(${marker('org')}, ''); export default { name: 'org-policy', apply() {} };`);
  writeFileSync(path.join(root, 'helper.mjs'), `import { writeFileSync } from 'node:fs'; writeFileSync(${marker('helper')}, ''); export default { name: 'helper', apply() {} };`);
  return root;
}

test("with allow_managed_plugins_only a configured plugin is not imported (said, naming the managed file), the organisation's is", async () => {
  const root = project();
  const { kernel, reporter } = await bootKernel([say('ok')], [], { projectRoot: root, managed: policy(root, true), config: configWith({ plugins: ['./helper.mjs'] }) });
  await runPrompt(kernel, 'go');
  await kernel.shutdown();
  expect(existsSync(path.join(root, 'helper-imported'))).toBe(false);
  expect(existsSync(path.join(root, 'org-imported'))).toBe(true);
  expect(reporter.warnings.join('\n')).toContain(`plugin ./helper.mjs is not loaded: the organisation's managed settings (${WHERE}) allow only the build's and the managed plugins`);
});

test('without it the same configured plugin loads (the baseline of the test above)', async () => {
  const root = project();
  const { kernel } = await bootKernel([say('ok')], [], { projectRoot: root, managed: policy(root, false), config: configWith({ plugins: ['./helper.mjs'] }) });
  await kernel.shutdown();
  expect(existsSync(path.join(root, 'helper-imported'))).toBe(true);
});

test('a configured plugin the user marks required ends the boot with a ConfigurationError instead of running without it', async () => {
  const root = project();
  const booting = bootKernel([say('ok')], [], { projectRoot: root, managed: policy(root, true), config: configWith({ plugins: [{ use: './helper.mjs', required: true }] }) });
  await expect(booting).rejects.toThrow(ConfigurationError);
  await expect(booting).rejects.toThrow(/plugin \.\/helper\.mjs is not loaded.*Your configuration requires it/);
  expect(existsSync(path.join(root, 'helper-imported'))).toBe(false);
});
