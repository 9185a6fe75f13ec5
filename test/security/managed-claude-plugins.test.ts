/**
 * `allow_managed_plugins_only` covers Claude Code plugins too, through the BUILT CLI: a plugin
 * directory from --plugin-dir or MEWCODE_PLUGIN_DIR is not read, so its SessionStart hook (which
 * in a trusted project runs on the host) never runs and its commands do not exist; one warning
 * names the plugin and the managed file.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, tempDir } from '../cli/helpers.js';

afterAll(() => removeTempDirs());

/** A Claude Code plugin whose SessionStart hook leaves `canary`. */
function claudePlugin(canary: string): string {
  const root = path.join(tempDir('mewcode-ccplug-'), 'ccplug');
  mkdirSync(path.join(root, 'hooks'), { recursive: true });
  mkdirSync(path.join(root, 'commands'), { recursive: true });
  writeFileSync(path.join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo ran > ${canary}` }] }] } }));
  writeFileSync(path.join(root, 'commands', 'go2.md'), 'Say hi.\n');
  return root;
}

function managedOnly(): string {
  const file = path.join(tempDir('mewcode-managed-'), 'managed-settings.yaml');
  writeFileSync(file, 'allow_managed_plugins_only: true\n');
  return file;
}

describe('allow_managed_plugins_only and Claude Code plugins', () => {
  it('without it, a trusted run\'s --plugin-dir plugin runs its SessionStart hook: the baseline', async () => {
    const canary = path.join(tempDir('mewcode-canary-'), 'hook-ran');
    await scenario([{ text: 'done' }], async (s) => {
      const r = await s.run(['-p', 'hi', '--plugin-dir', claudePlugin(canary), '--trust-project']);
      expect(r.code).toBe(0);
      expect(existsSync(canary)).toBe(true);
    });
  });

  it.each([
    ['--plugin-dir', (root: string) => ({ args: ['--plugin-dir', root], env: {} })],
    ['MEWCODE_PLUGIN_DIR', (root: string) => ({ args: [], env: { MEWCODE_PLUGIN_DIR: root } })],
  ])('with it, a plugin from %s is not read: no hook, no command, one warning', async (_label, how) => {
    const canary = path.join(tempDir('mewcode-canary-'), 'hook-ran');
    await scenario([{ text: 'done' }], async (s) => {
      const managed = managedOnly();
      const root = claudePlugin(canary);
      const { args, env } = how(root);
      const r = await s.run(['-p', '/ccplug:go2', ...args, '--trust-project'], { env: { MEWCODE_MANAGED_SETTINGS: managed, ...env } });
      expect(existsSync(canary)).toBe(false);
      expect(r.stderr).toContain('unknown command /ccplug:go2');
      const warnings = r.stderr.split('\n').filter((line) => line.includes('claude plugins not loaded'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`ccplug (--plugin-dir / MEWCODE_PLUGIN_DIR: ${root})`);
      expect(warnings[0]).toContain(`${managed}:1:29`);
    });
  });
});
