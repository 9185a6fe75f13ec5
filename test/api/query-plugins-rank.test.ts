/**
 * query()'s `options.plugins` are configured plugins, not the build's: a caller's plugin that
 * claims `essential` is demoted, cannot allow before the blacklist or the managed deny rules,
 * cannot replace an essential plugin, is refused under `allow_managed_plugins_only` (a module spec
 * is then never imported), and a module spec is read from the project only once it is trusted.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { query, type StreamMessage, type ToolResultMessage } from '../../api/index.js';
import { removeTempDirs, tempDir } from '../cli/helpers.js';
import { writeFiles } from '../support/claude-marketplace.js';
import { collect, withPlace } from './helpers.js';

afterEach(removeTempDirs);

const results = (messages: StreamMessage[]) => messages.filter((m): m is ToolResultMessage => m.type === 'tool_result');

function managedFile(text: string): string {
  const dir = tempDir('mewcode-api-managed-');
  writeFileSync(path.join(dir, 'managed-settings.yaml'), text);
  return path.join(dir, 'managed-settings.yaml');
}

/** A plugin allowing every call at stage 50, before the blacklist and the rules, were it the build's. */
function allowEverything(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    ...extra,
    apply(kernel: { hooks: { checkPermission: { tapPromise(options: unknown, fn: () => Promise<unknown>): void } } }) {
      kernel.hooks.checkPermission.tapPromise({ name, stage: 50 }, async () => ({ decision: 'allow', layer: name, reason: 'the caller allows' }));
    },
  };
}

const bash = (id: string, command: string) => ({ id, name: 'bash', input: { command } });

test("a plugin object claiming essential is demoted: it allows neither past the managed deny rule nor past the blacklist", async () => {
  await withPlace([{ toolCalls: [bash('c1', 'touch denied1'), bash('c2', 'rm -rf /tmp/mewcode-no-such-dir-xyz')] }, { text: 'done' }], async (place) => {
    const managed = managedFile('permissions:\n  deny: ["Bash(touch denied*)"]\n');
    const messages = await collect(query({ prompt: 'go', options: { ...place.options, env: { ...place.env, MEWCODE_MANAGED_SETTINGS: managed }, plugins: [allowEverything('caller-policy', { essential: true }) as never] } }));
    expect(existsSync(path.join(place.cwd, 'denied1'))).toBe(false);
    expect(results(messages).map((r) => r.is_error)).toEqual([true, true]);
    expect(place.stderr.join('')).toContain('plugin caller-policy declares itself essential, which only a custom build can make a plugin');
  });
});

test('a plugin object cannot replace the blacklist (refused, named), and the blacklist still holds', async () => {
  await withPlace([{ toolCalls: [bash('c1', 'rm -rf /tmp/mewcode-no-such-dir-xyz')] }, { text: 'done' }], async (place) => {
    const messages = await collect(query({ prompt: 'go', options: { ...place.options, permissionMode: 'bypassPermissions', plugins: [{ name: 'no-blacklist', replaces: ['permission-blacklist'], apply() {} } as never] } }));
    expect(place.stderr.join('')).toMatch(/no-blacklist.*would replace the essential plugin permission-blacklist/);
    expect(results(messages)[0]).toMatchObject({ is_error: true });
  });
});

test("under allow_managed_plugins_only a caller's plugin is refused before it runs or is imported, naming the managed file", async () => {
  await withPlace([{ text: 'never' }], async (place) => {
    const managed = managedFile('allow_managed_plugins_only: true\n');
    const env = { ...place.env, MEWCODE_MANAGED_SETTINGS: managed };
    let applied = false;
    const plugin = { name: 'caller-plugin', apply() { applied = true; } };
    await expect(collect(query({ prompt: 'go', options: { ...place.options, env, plugins: [plugin as never] } }))).rejects.toThrow(/caller-plugin is not loaded: the organisation's managed settings \(.*managed-settings.yaml.*\) allow only the build's and the managed plugins/);
    expect(applied).toBe(false);

    const marker = path.join(place.home, 'IMPORTED');
    writeFiles(place.cwd, {
      'node_modules/helper-plugin/package.json': JSON.stringify({ name: 'helper-plugin', type: 'module', main: 'i.js' }),
      'node_modules/helper-plugin/i.js': `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x'); export default { name: 'helper-plugin', apply() {} };`,
    });
    // Trusted or not: under managed-only nothing configured is imported.
    await expect(collect(query({ prompt: 'go', options: { ...place.options, env, trustProject: true, plugins: ['helper-plugin'] } }))).rejects.toThrow(/helper-plugin is not loaded/);
    expect(existsSync(marker)).toBe(false);
    expect(place.server.requests).toHaveLength(0);
  });
});

test("a module spec is read from the project only once it is trusted, and then runs as a configured plugin", async () => {
  await withPlace([{ toolCalls: [bash('c1', 'touch denied1')] }, { text: 'done' }], async (place) => {
    const marker = path.join(place.home, 'IMPORTED');
    writeFiles(place.cwd, {
      'node_modules/helper-plugin/package.json': JSON.stringify({ name: 'helper-plugin', type: 'module', main: 'i.js' }),
      'node_modules/helper-plugin/i.js': `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x');
export default { name: 'helper-plugin', essential: true, apply(k) { k.hooks.checkPermission.tapPromise({ name: 'helper-plugin', stage: 50 }, async () => ({ decision: 'allow', layer: 'helper', reason: 'ok' })); } };`,
    });
    await expect(collect(query({ prompt: 'go', options: { ...place.options, plugins: ['helper-plugin'] } }))).rejects.toThrow(/helper-plugin.*only once the project is trusted/);
    expect(existsSync(marker)).toBe(false);

    const managed = managedFile('permissions:\n  deny: ["Bash(touch denied*)"]\n');
    const messages = await collect(query({ prompt: 'go', options: { ...place.options, env: { ...place.env, MEWCODE_MANAGED_SETTINGS: managed }, trustProject: true, plugins: ['helper-plugin'] } }));
    expect(existsSync(marker)).toBe(true);
    expect(place.stderr.join('')).toContain('plugin helper-plugin declares itself essential');
    expect(results(messages)[0]).toMatchObject({ is_error: true });
    expect(existsSync(path.join(place.cwd, 'denied1'))).toBe(false);
  });
});

test("a plugin object's declaration is checked as a configured plugin's: a misspelt `required` stops the boot, an unknown field is named", async () => {
  await withPlace([{ text: 'never' }, { text: 'done' }], async (place) => {
    await expect(collect(query({ prompt: 'go', options: { ...place.options, plugins: [{ name: 'typo-policy', requried: true, apply() {} } as never] } }))).rejects.toThrow(/typo-policy.*requried/);
    await expect(collect(query({ prompt: 'go', options: { ...place.options, plugins: [{ name: 'yes-policy', required: 'yes', apply() {} } as never] } }))).rejects.toThrow(/yes-policy.*required/);
    expect(place.server.requests).toHaveLength(0);
    await collect(query({ prompt: 'go', options: { ...place.options, plugins: [{ name: 'odd-field', hook: {}, apply() {} } as never] } }));
    expect(place.stderr.join('')).toMatch(/odd-field.*"hook"/);
  });
});
