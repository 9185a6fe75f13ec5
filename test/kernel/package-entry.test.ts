/**
 * A plugin package's files must lie inside the package (and a managed one's inside the managed
 * directory); a folder of the package whose name merely begins with two dots (`..dist`) is one
 * of its own folders, not a way out.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { manifestPluginFiles, resolvePackageEntry } from '../../kernel/package-entry.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());

/** `<dir>` holding package.json (`manifest`) and an empty module at each of `files`. */
function writePackage(dir: string, manifest: object, files: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), 'export default {};\n');
  }
}

test('an entry and a "mewcode.plugins" list in a `..dist` folder of the package are inside it', () => {
  const base = temp('package-entry-');
  const dir = path.join(base, 'node_modules', 'acme-suite');
  writePackage(dir, { name: 'acme-suite', exports: { '.': './..dist/index.js' }, mewcode: { plugins: ['./..dist/policy.js', './.../tool.js'] } }, ['..dist/index.js', '..dist/policy.js', '.../tool.js']);
  expect(resolvePackageEntry('acme-suite', base)).toBe(path.join(dir, '..dist', 'index.js'));
  expect(manifestPluginFiles('acme-suite', base)).toEqual([path.join(dir, '..dist', 'policy.js'), path.join(dir, '...', 'tool.js')]);
});

test('a managed package linked to a `..store` folder of the managed directory is inside it', () => {
  const base = temp('package-entry-managed-');
  const store = path.join(base, '..store', 'acme-policy');
  writePackage(store, { name: 'acme-policy', exports: './index.js', mewcode: { plugins: ['./index.js'] } }, ['index.js']);
  mkdirSync(path.join(base, 'node_modules'));
  symlinkSync(store, path.join(base, 'node_modules', 'acme-policy'));
  const linked = path.join(base, 'node_modules', 'acme-policy', 'index.js');
  expect(resolvePackageEntry('acme-policy', base, true)).toBe(linked);
  expect(manifestPluginFiles('acme-policy', base, true)).toEqual([linked]);
});

test('a file above the package, or one outside the managed directory, is still refused', () => {
  const base = temp('package-entry-out-');
  writePackage(path.join(base, 'node_modules', 'acme-out'), { name: 'acme-out', exports: './../x.js', mewcode: { plugins: ['../x.js'] } }, []);
  writeFileSync(path.join(base, 'node_modules', 'x.js'), '');
  expect(() => resolvePackageEntry('acme-out', base)).toThrow('which is outside the package');
  expect(() => manifestPluginFiles('acme-out', base)).toThrow('"mewcode.plugins" names ../x.js, which is outside the package');
  const elsewhere = temp('package-entry-elsewhere-');
  writePackage(elsewhere, { name: 'acme-far', exports: './index.js' }, ['index.js']);
  symlinkSync(elsewhere, path.join(base, 'node_modules', 'acme-far'));
  expect(() => resolvePackageEntry('acme-far', base, true)).toThrow(`leads to ${path.join(elsewhere, 'index.js')}, outside ${base}`);
});
