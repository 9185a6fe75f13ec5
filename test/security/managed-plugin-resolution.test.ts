/**
 * A managed plugin named by its npm name, through the BUILT CLI: it is resolved from the managed
 * file's directory's own node_modules and nowhere else. A package of that name the user placed in
 * NODE_PATH, ~/.node_modules, a directory above the managed one, or reached by a link out of the
 * managed directory never stands in for it: the run stops (the plugin is required) naming the
 * plugin and the directory searched, and the impostor's code is never imported (its canary).
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, tempDir, type Scenario } from '../cli/helpers.js';

afterAll(() => removeTempDirs());

/** A package `name` in `modules`; importing it leaves `canary`. With `exports` or with `main` only. */
function plantPackage(modules: string, name: string, canary: string, style: 'exports' | 'main' = 'exports'): string {
  const dir = path.join(modules, name);
  mkdirSync(dir, { recursive: true });
  const manifest = style === 'exports' ? { name, type: 'module', exports: { import: './index.mjs' } } : { name, main: 'index.mjs' };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  writeFileSync(path.join(dir, 'index.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(canary)}, 'imported');\nexport default { name: ${JSON.stringify(`${name}-plugin`)}, apply() {} };\n`);
  return dir;
}

/** parent/org/managed-settings.yaml requiring `names`. */
function organisation(names: readonly string[]): { parent: string; org: string; file: string } {
  const parent = tempDir('mewcode-managed-parent-');
  const org = path.join(parent, 'org');
  mkdirSync(org);
  const file = path.join(org, 'managed-settings.yaml');
  writeFileSync(file, `plugins: [${names.join(', ')}]\nallow_managed_plugins_only: true\n`);
  return { parent, org, file };
}

async function runWith(s: Scenario, managed: string, env: Record<string, string> = {}) {
  return s.run(['-p', 'hi'], { env: { MEWCODE_MANAGED_SETTINGS: managed, ...env } });
}

describe('a managed npm plugin resolves from <managed dir>/node_modules only', () => {
  it('found there (with exports, and with main only), it loads: the baseline', async () => {
    await scenario([{ text: 'done' }], async (s) => {
      const { org, file } = organisation(['acme-policy', 'acme-main']);
      const canary = path.join(s.cwd, 'canary-exports');
      const mainCanary = path.join(s.cwd, 'canary-main');
      plantPackage(path.join(org, 'node_modules'), 'acme-policy', canary);
      plantPackage(path.join(org, 'node_modules'), 'acme-main', mainCanary, 'main');
      const r = await runWith(s, file);
      expect(r.stderr).not.toContain('could not be loaded');
      expect(r.code).toBe(0);
      expect(existsSync(canary)).toBe(true);
      expect(existsSync(mainCanary)).toBe(true);
    });
  });

  const IMPOSTORS: [string, (s: Scenario, org: { parent: string; org: string }, canary: string) => Record<string, string>][] = [
    ['in NODE_PATH', (s, _org, canary) => {
      const modules = tempDir('mewcode-node-path-');
      plantPackage(modules, 'acme-policy', canary);
      return { NODE_PATH: modules };
    }],
    ['in ~/.node_modules', (s, _org, canary) => {
      plantPackage(path.join(s.home, '.node_modules'), 'acme-policy', canary);
      return {};
    }],
    ['in ~/.node_libraries', (s, _org, canary) => {
      plantPackage(path.join(s.home, '.node_libraries'), 'acme-policy', canary);
      return {};
    }],
    ['in node_modules of the directory above the managed one', (_s, { parent }, canary) => {
      plantPackage(path.join(parent, 'node_modules'), 'acme-policy', canary);
      return {};
    }],
    ['behind a link in the managed node_modules leading out of the managed directory', (s, { org }, canary) => {
      const elsewhere = plantPackage(tempDir('mewcode-elsewhere-'), 'acme-policy', canary);
      mkdirSync(path.join(org, 'node_modules'), { recursive: true });
      symlinkSync(elsewhere, path.join(org, 'node_modules', 'acme-policy'));
      return {};
    }],
  ];

  it.each(IMPOSTORS)('a package %s is not used: the run stops naming the plugin and the directory, nothing imported', async (_label, plant) => {
    await scenario([{ text: 'must not be asked' }], async (s) => {
      const org = organisation(['acme-policy']);
      const canary = path.join(s.cwd, 'impostor-imported');
      const env = plant(s, org, canary);
      const r = await runWith(s, org.file, env);
      expect(existsSync(canary)).toBe(false);
      expect(r.code).not.toBe(0);
      expect(s.requests).toHaveLength(0);
      expect(r.stderr).toContain('plugin acme-policy could not be loaded');
      expect(r.stderr).toContain(path.join(org.org, 'node_modules'));
      expect(r.stderr).toMatch(/required by managed settings/);
    });
  });
});
