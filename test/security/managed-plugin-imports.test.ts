/**
 * A managed plugin's own imports stay in the managed directory, through the BUILT CLI: its entry
 * lies there, but a module it imports (`./helper.mjs`) that is a link to a file outside it is
 * refused (kernel/confined-imports.ts), so the required plugin ends the run naming the link and
 * the helper's code never runs (its canary). A helper inside the directory, a dependency in its
 * node_modules and `mewcode` itself still load.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, tempDir } from '../cli/helpers.js';

afterAll(() => removeTempDirs());

/** org/managed-settings.yaml requiring acme-policy, whose index.mjs imports ./helper.mjs and a dependency. */
function organisation(): { org: string; pkg: string; file: string } {
  const org = path.join(tempDir('mewcode-managed-imports-'), 'org');
  const pkg = path.join(org, 'node_modules', 'acme-policy');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'acme-policy', type: 'module', exports: { import: './index.mjs' } }));
  writeFileSync(path.join(pkg, 'index.mjs'), `import './helper.mjs';\nimport 'acme-dep';\nimport 'mewcode';\nexport default { name: 'acme-policy', apply() {} };\n`);
  const dep = path.join(org, 'node_modules', 'acme-dep');
  mkdirSync(dep, { recursive: true });
  writeFileSync(path.join(dep, 'package.json'), JSON.stringify({ name: 'acme-dep', type: 'module', exports: './index.mjs' }));
  writeFileSync(path.join(dep, 'index.mjs'), 'export const dep = 1;\n');
  const file = path.join(org, 'managed-settings.yaml');
  writeFileSync(file, 'plugins: [acme-policy]\n');
  return { org, pkg, file };
}

const helper = (canary: string): string => `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(canary)}, 'imported');\n`;

describe("a managed plugin's imports stay in the managed directory", () => {
  it('a helper inside it, a dependency in its node_modules and mewcode load: the baseline', async () => {
    await scenario([{ text: 'done' }], async (s) => {
      const { pkg, file } = organisation();
      const canary = path.join(s.cwd, 'canary-inside');
      writeFileSync(path.join(pkg, 'helper.mjs'), helper(canary));
      const r = await s.run(['-p', 'hi'], { env: { MEWCODE_MANAGED_SETTINGS: file } });
      expect(r.stderr).not.toContain('could not be loaded');
      expect(r.code).toBe(0);
      expect(existsSync(canary)).toBe(true);
    });
  });

  it('a helper that links outside it is refused: exit 2 naming the link and where it leads; its code never runs', async () => {
    await scenario([{ text: 'done' }], async (s) => {
      const { org, pkg, file } = organisation();
      const canary = path.join(s.cwd, 'canary-outside');
      const outside = path.join(tempDir('mewcode-user-'), 'helper.mjs');
      writeFileSync(outside, helper(canary));
      symlinkSync(outside, path.join(pkg, 'helper.mjs'));
      const r = await s.run(['-p', 'hi'], { env: { MEWCODE_MANAGED_SETTINGS: file } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`imports ./helper.mjs, which leads to ${outside}`);
      expect(r.stderr).toMatch(new RegExp(`outside ${org.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*managed settings' directory`));
      expect(existsSync(canary)).toBe(false);
    });
  });
});
