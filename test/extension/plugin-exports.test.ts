/**
 * Plugin packages resolved the way Node imports them, against the BUILT bundle: `exports` with
 * only an `import` condition (at "." and at subpaths, scoped, with `*` patterns), `require`-only
 * CommonJS packages, `default`, nested conditions, arrays, the string form and a plain `main`. A
 * package exporting both `import` and `require` is loaded as the ES module. A subpath the package
 * does not export, and a target that leaves the package, are reported by name and skipped.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';
import { runCli } from './run-built-cli.js';


/** A plugin module contributing one tool named `name` (ESM or CommonJS). */
function pluginSource(name: string, format: 'esm' | 'cjs'): string {
  const factory = `(api) => api.definePlugin({
    name: 'p-${name}',
    bindings: new api.ContainerModule(({ bind }) => {
      bind(api.TOKENS.Tool).toConstantValue({ name: '${name}', description: 'A test tool.', inputSchema: { type: 'object', properties: {} }, readOnly: true, async execute() { return { content: 'ok' }; } });
    }),
  })`;
  return format === 'esm' ? `export default ${factory};\n` : `module.exports = ${factory};\n`;
}

async function writePackage(root: string, name: string, manifest: Record<string, unknown>, files: Record<string, string>): Promise<void> {
  const dir = path.join(root, 'node_modules', name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

let server: ScriptedServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

test('plugin packages load by their exports under the import conditions, CommonJS and plain main included', async () => {
  const project = await mkdtemp(path.join(os.tmpdir(), 'mewcode-plugin-exports-'));
  const home = await mkdtemp(path.join(os.tmpdir(), 'mewcode-home-'));
  dirs.push(project, home);
  const esm = { type: 'module' };
  await writePackage(project, 'esm-root', { ...esm, exports: { '.': { import: './index.js' } } }, { 'index.js': pluginSource('t_root', 'esm') });
  await writePackage(project, 'esm-subpath', { ...esm, exports: { '.': { import: './index.js' }, './policy': { import: './lib/policy.js' } } }, { 'index.js': pluginSource('t_unused', 'esm'), 'lib/policy.js': pluginSource('t_subpath', 'esm') });
  await writePackage(project, '@acme/esm-subpath', { ...esm, exports: { './policy': { import: './policy.js' } } }, { 'policy.js': pluginSource('t_scoped_subpath', 'esm') });
  await writePackage(project, 'esm-pattern', { ...esm, exports: { './plugins/*': { import: './dist/*.js' }, './plugins/internal/*': null } }, { 'dist/shout.js': pluginSource('t_pattern', 'esm'), 'dist/internal/x.js': pluginSource('t_excluded', 'esm') });
  await writePackage(project, 'cjs-require-only', { exports: { '.': { require: './index.cjs' } } }, { 'index.cjs': pluginSource('t_require_only', 'cjs') });
  await writePackage(project, 'default-only', { ...esm, exports: { '.': { default: './main.js' } } }, { 'main.js': pluginSource('t_default', 'esm') });
  await writePackage(project, 'dual', { exports: { '.': { require: './index.cjs', import: './index.mjs' } } }, { 'index.cjs': pluginSource('t_dual_cjs', 'cjs'), 'index.mjs': pluginSource('t_dual_esm', 'esm') });
  await writePackage(project, 'nested', { ...esm, exports: { '.': { browser: './browser.js', node: { import: './node.js', require: './node.cjs' }, default: './fallback.js' } } }, { 'node.js': pluginSource('t_nested', 'esm') });
  await writePackage(project, 'array-target', { ...esm, exports: { '.': [{ worker: './worker.js' }, './second.js'] } }, { 'second.js': pluginSource('t_array', 'esm') });
  await writePackage(project, 'string-exports', { ...esm, exports: './lib.js' }, { 'lib.js': pluginSource('t_string', 'esm') });
  await writePackage(project, 'plain-main', { main: 'lib/main.js' }, { 'lib/main.js': pluginSource('t_main', 'cjs') });
  await writePackage(project, 'escaping', { ...esm, exports: { '.': { import: './../plain-main/lib/main.js' } } }, {});
  const specs = [
    'esm-root',
    'esm-subpath/policy',
    '@acme/esm-subpath/policy',
    'esm-pattern/plugins/shout',
    'esm-pattern/plugins/internal/x',
    'cjs-require-only',
    'default-only',
    'dual',
    'nested',
    'array-target',
    'string-exports',
    'plain-main',
    'esm-subpath/missing',
    'escaping',
  ];
  await writeFile(path.join(project, '.mewcode.yaml'), `plugins:\n${specs.map((spec) => `  - "${spec}"\n`).join('')}`);

  server = await startScriptedServer({ turns: [{ text: 'done' }] });
  const { code, stderr } = await runCli(project, home, server, ['-p', 'hi', '--trust-project']);
  expect(code).toBe(0);
  const tools: string[] = server.requests[0]!.body.tools.map((t: { name: string }) => t.name);
  const loaded = tools.filter((name) => name.startsWith('t_'));
  expect(loaded.sort()).toEqual(['t_array', 't_default', 't_dual_esm', 't_main', 't_nested', 't_pattern', 't_require_only', 't_root', 't_scoped_subpath', 't_string', 't_subpath'].sort());
  // Not exported (null, absent) or outside the package: each named, the rest still loaded.
  expect(stderr).toContain('plugin esm-pattern/plugins/internal/x could not be loaded');
  expect(stderr).toContain('plugin esm-subpath/missing could not be loaded');
  expect(stderr).toMatch(/plugin esm-subpath\/missing could not be loaded: [^\n]*\.\/missing/);
  expect(stderr).toContain('plugin escaping could not be loaded');
  expect(stderr.match(/could not be loaded/g)).toHaveLength(3);
  expect(stderr).toContain('which is outside the package');
});

test('a package.json "mewcode.plugins" list loads several plugins from one package; a bad list is reported naming the file', async () => {
  const project = await mkdtemp(path.join(os.tmpdir(), 'mewcode-plugin-manifest-'));
  const home = await mkdtemp(path.join(os.tmpdir(), 'mewcode-home-'));
  dirs.push(project, home);
  const esm = { type: 'module' };
  await writePackage(project, 'acme-suite', { ...esm, main: './index.js', mewcode: { plugins: ['./dist/policy.js', './dist/tool.js'] } }, {
    'index.js': pluginSource('t_suite_main_unused', 'esm'),
    'dist/policy.js': pluginSource('t_suite_policy', 'esm'),
    'dist/tool.js': pluginSource('t_suite_tool', 'esm'),
  });
  await writePackage(project, 'missing-part', { ...esm, mewcode: { plugins: ['./dist/a.js', './dist/gone.js'] } }, { 'dist/a.js': pluginSource('t_part_a', 'esm') });
  await writePackage(project, 'outside', { ...esm, mewcode: { plugins: ['../acme-suite/dist/tool.js'] } }, {});
  await writePackage(project, 'not-a-list', { ...esm, mewcode: { plugins: './dist/a.js' } }, {});
  await writeFile(path.join(project, '.mewcode.yaml'), 'plugins: [acme-suite, missing-part, outside, not-a-list]\n');

  server = await startScriptedServer({ turns: [{ text: 'done' }] });
  const { code, stderr } = await runCli(project, home, server, ['-p', 'hi', '--trust-project']);
  expect(code).toBe(0);
  const tools: string[] = server.requests[0]!.body.tools.map((t: { name: string }) => t.name);
  expect(tools.filter((name) => name.startsWith('t_')).sort()).toEqual(['t_suite_policy', 't_suite_tool']);
  const manifest = (name: string) => path.join(project, 'node_modules', name, 'package.json');
  expect(stderr).toContain(`plugin missing-part could not be loaded: ${manifest('missing-part')}: "mewcode.plugins" names ./dist/gone.js, but there is no file`);
  expect(stderr).toContain(`plugin outside could not be loaded: ${manifest('outside')}: "mewcode.plugins" names ../acme-suite/dist/tool.js, which is outside the package`);
  expect(stderr).toContain(`plugin not-a-list could not be loaded: ${manifest('not-a-list')}: "mewcode.plugins" must be a non-empty list`);
});
