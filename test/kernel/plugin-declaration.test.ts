/**
 * A configured plugin's declaration fails closed (kernel/plugin-declaration.ts): a field the
 * contract does not have is said, naming plugin, field and the nearest known field; one that reads
 * as a misspelt `required` (`requried: true`, `require: true`) and a `required` that is not a
 * boolean stop the run (exit 2) instead of running an organisation's policy as an ordinary plugin.
 * A `plugins:` entry with an unknown or mistyped key stops the run too, and a second plugin of the
 * same name (from another entry or file) is refused, never last-wins.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import { checkPluginFields, nearestPluginField } from '../../kernel/plugin-declaration.js';
import type { MewcodePlugin } from '../../types/plugin.js';
import type { ResolvedConfig } from '../../types/config.js';
import { bootKernel } from '../support/boot.js';
import { say } from '../support/memory-provider.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

/** Boots with the configured plugin files given (`files`: file name → source) and the `plugins:` entries. */
async function bootWith(files: Record<string, string>, plugins: unknown[]) {
  const project = temp('mc-declaration-');
  for (const [file, source] of Object.entries(files)) writeFileSync(path.join(project, file), source);
  return bootKernel([say('ok')], [], { projectRoot: project, config: configWith({ plugins }) });
}

const policy = (fields: string): string => `export default { name: 'org-policy', ${fields} apply(k) { k.hooks.sessionStart.tapPromise('org-policy', async () => undefined); } };`;

describe('a field that reads as a misspelt "required" stops the run', () => {
  test.each([['requried: true'], ['require: true'], ['Required: true'], ['isRequired: "yes"'], ['requires: 1'], ['reqired: {}']])('%s', async (field) => {
    const booted = bootWith({ 'p.mjs': policy(`${field},`) }, ['./p.mjs']);
    await expect(booted).rejects.toThrow(ConfigurationError);
    await expect(bootWith({ 'p.mjs': policy(`${field},`) }, ['./p.mjs'])).rejects.toThrow(new RegExp(`org-policy declares "${field.split(':')[0]}".*required: true`));
  });

  test('set to false it is only a warning, and the plugin runs', async () => {
    const { kernel, reporter } = await bootWith({ 'p.mjs': policy('requried: false,') }, ['./p.mjs']);
    const names = kernel.plugins.map((plugin) => plugin.name);
    await kernel.shutdown();
    expect(names).toContain('org-policy');
    expect(reporter.warnings.join('\n')).toMatch(/plugin org-policy declares "requried".*did you mean "required"/);
  });
});

describe('"required" that is not true or false stops the run; other flags of the wrong type skip the plugin', () => {
  test.each([['"yes"'], ['"false"'], ['1'], ['{}']])('required: %s', async (value) => {
    await expect(bootWith({ 'p.mjs': policy(`required: ${value},`) }, ['./p.mjs'])).rejects.toThrow(/org-policy: its "required" is .*not true or false/);
  });

  test.each([['essential: "yes"', 'essential'], ['safety: 1', 'safety'], ["replaces: 'x'", 'replaces'], ["dependsOn: 'x'", 'dependsOn'], ['configKeys: "x"', 'configKeys']])('%s', async (field, key) => {
    const { kernel, reporter } = await bootWith({ 'p.mjs': policy(`${field},`) }, ['./p.mjs']);
    const names = kernel.plugins.map((plugin) => plugin.name);
    await kernel.shutdown();
    expect(names).not.toContain('org-policy');
    expect(reporter.warnings.join('\n')).toMatch(new RegExp(`\\./p\\.mjs cannot be loaded: .*"${key}"`));
  });
});

describe('an unknown field is said, naming plugin, field and the nearest known field', () => {
  test.each([
    ['replace: ["x"]', 'replace', 'replaces'],
    ['depends: ["x"]', 'depends', 'dependsOn'],
    ['hook: {}', 'hook', undefined],
    ['aply() {}', 'aply', 'apply'],
    ['startTimeout: 10', 'startTimeout', 'startTimeoutMs'],
  ])('%s', async (field, key, nearest) => {
    const { kernel, reporter } = await bootWith({ 'p.mjs': policy(`${field},`) }, ['./p.mjs']);
    const names = kernel.plugins.map((plugin) => plugin.name);
    await kernel.shutdown();
    expect(names).toContain('org-policy');
    const said = reporter.warnings.join('\n');
    expect(said).toContain(`plugin org-policy declares "${key}", which is not a field of the plugin contract`);
    expect(said).toContain('./p.mjs');
    if (nearest) expect(said).toContain(`did you mean "${nearest}"`);
  });

  test('the nearest field', () => {
    expect(nearestPluginField('requried')).toBe('required');
    expect(nearestPluginField('Replace')).toBe('replaces');
    expect(nearestPluginField('doctorcheck')).toBe('doctorChecks');
    expect(nearestPluginField('colour')).toBeUndefined();
  });
});

describe('a plugins: entry with an unknown or mistyped key stops the run', () => {
  test.each([[{ use: './p.mjs', requried: true }], [{ use: './p.mjs', require: true }], [{ use: './p.mjs', required: 'yes' }], [{ use: './p.mjs', required: 'true' }], [{ use: './p.mjs', Required: true }]])('%j', async (entry) => {
    await expect(bootWith({ 'p.mjs': policy('') }, [entry])).rejects.toThrow(ConfigurationError);
  });
});

describe('the same plugin name twice is refused, never last-wins', () => {
  const named = (body: string): string => `export default { name: 'org-policy', apply(k) { k.hooks.sessionStart.tapPromise('org-policy', async () => undefined); globalThis.__orgPolicy = ${JSON.stringify(body)}; } };`;

  test('from two entries: the second is refused naming both, the first runs', async () => {
    const { kernel, reporter } = await bootWith({ 'a.mjs': named('a'), 'b.mjs': named('b') }, ['./a.mjs', './b.mjs']);
    const count = kernel.plugins.filter((plugin) => plugin.name === 'org-policy').length;
    await kernel.shutdown();
    expect(count).toBe(1);
    expect((globalThis as { __orgPolicy?: string }).__orgPolicy).toBe('a');
    expect(reporter.warnings.join('\n')).toMatch(/org-policy[\s\S]*\.\/b\.mjs|\.\/b\.mjs[\s\S]*org-policy/);
  });

  test('when one of them is required, it runs and the other is refused, said', async () => {
    const { kernel, reporter } = await bootWith({ 'a.mjs': named('a'), 'b.mjs': named('b') }, ['./a.mjs', { use: './b.mjs', required: true }]);
    const count = kernel.plugins.filter((plugin) => plugin.name === 'org-policy').length;
    await kernel.shutdown();
    expect(count).toBe(1);
    expect((globalThis as { __orgPolicy?: string }).__orgPolicy).toBe('b');
    expect(reporter.warnings.join('\n')).toMatch(/org-policy would replace the required plugin org-policy/);
  });

  test('when both are required, the run stops (exit 2)', async () => {
    const both = [{ use: './a.mjs', required: true }, { use: './b.mjs', required: true }];
    await expect(bootWith({ 'a.mjs': named('a'), 'b.mjs': named('b') }, both)).rejects.toThrow(ConfigurationError);
  });
});

describe("a custom build's own plugins are checked the same way", () => {
  const own = (fields: Record<string, unknown>): MewcodePlugin => ({ name: 'build-policy', apply: () => undefined, ...fields }) as MewcodePlugin;

  test.each([[{ requried: true }], [{ isRequired: 'yes' }], [{ required: 'yes' }], [{ required: 1 }]])('%j stops the boot', async (fields) => {
    await expect(bootKernel([say('ok')], [own(fields)])).rejects.toThrow(ConfigurationError);
    await expect(bootKernel([say('ok')], [own(fields)])).rejects.toThrow(/build-policy/);
  });

  test.each([[{ essential: 'yes' }], [{ safety: 1 }]])('%j (a flag that is not a boolean) stops the boot too: the build is the program', async (fields) => {
    await expect(bootKernel([say('ok')], [own(fields)])).rejects.toThrow(/build-policy: its "(essential|safety)" is/);
  });

  test('an unknown field is said with the nearest known field, and the plugin runs', async () => {
    const { kernel, reporter } = await bootKernel([say('ok')], [own({ dependson: [] })]);
    const names = kernel.plugins.map((plugin) => plugin.name);
    await kernel.shutdown();
    expect(names).toContain('build-policy');
    expect(reporter.warnings.join('\n')).toMatch(/plugin build-policy declares "dependson".*did you mean "dependsOn"/);
  });

  test('a name the kernel cannot tell apart stops the boot', async () => {
    await expect(bootKernel([say('ok')], [{ name: 'a:b', apply: () => undefined } as MewcodePlugin])).rejects.toThrow(/holds ":"/);
  });

  test('the default set declares nothing outside the contract', async () => {
    const { defaultPlugins } = await import('../../plugins/default-set.js');
    const said: string[] = [];
    for (const plugin of defaultPlugins) checkPluginFields(plugin, plugin.name, (message) => said.push(message));
    expect(said).toEqual([]);
  });
});
