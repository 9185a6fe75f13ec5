/**
 * What a plugin author sees when a plugin does not load, through the BUILT CLI: the file and line
 * of a syntax error (Node 20 gives neither for an ES module), the one file of a package of several
 * that failed, the configuration line that made it required, the stack under --debug, the import
 * time under --debug-boot; and `mewcode plugin add` writes nothing a run would then refuse.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, runCli, scenario, type Scenario } from '../cli/helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function userConfig(s: Scenario, yaml: string): string {
  return write(path.join(s.home, '.mewcode', 'config.yaml'), yaml);
}

const GOOD = (name: string): string => `export default { name: '${name}', apply() {} };\n`;

test.concurrent('a syntax error in the entry or in a module it imports is named by file, line and column', async () => {
  await scenario([{ text: 'ok' }, { text: 'ok' }], async (s) => {
    const dir = path.join(s.home, 'plugins');
    const entry = write(path.join(dir, 'broken.mjs'), `const a = 1;\nfoo(1, 2;\n`);
    const importer = write(path.join(dir, 'importer.mjs'), `import { x } from './lib/helper.mjs';\nexport default { name: 'importer', apply() { return x; } };\n`);
    const helper = write(path.join(dir, 'lib', 'helper.mjs'), `export const x = 1;\n\nexport const y = (1;\n`);
    userConfig(s, `plugins:\n  - ${JSON.stringify(entry)}\n  - ${JSON.stringify(importer)}\n`);
    const r = await s.run(['-p', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`could not be loaded: missing ) after argument list (at ${entry}:2:8); skipped`);
    expect(r.stderr).toMatch(new RegExp(`plugin .*importer\\.mjs could not be loaded: .* \\(at ${helper.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+\\); skipped`));
  });
});

test.concurrent('a package of several plugin files: the failing file is named and the others load', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const pkg = path.join(s.home, '.mewcode', 'node_modules', 'mewcode-plugin-trio');
    write(path.join(pkg, 'package.json'), JSON.stringify({ name: 'mewcode-plugin-trio', version: '1.0.0', type: 'module', mewcode: { plugins: ['./dist/a.js', './dist/b.js', './dist/c.js'] } }));
    write(path.join(pkg, 'dist', 'a.js'), GOOD('trio-a'));
    const bad = write(path.join(pkg, 'dist', 'b.js'), `export default {\n  name: 'trio-b',,\n};\n`);
    write(path.join(pkg, 'dist', 'c.js'), GOOD('trio-c'));
    userConfig(s, 'plugins:\n  - mewcode-plugin-trio\n');
    const r = await s.run(['-p', 'hi', '--debug-boot']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`plugin mewcode-plugin-trio (${bad}) could not be loaded: `);
    expect(r.stderr).toContain(`(at ${bad}:2:`);
    // The two others loaded, and --debug-boot shows how long their import took.
    expect(r.stderr).toMatch(/^ {2}trio-a +bind +[\d.]+ ms +apply +[\d.]+ ms +import +[\d.]+ ms$/m);
    expect(r.stderr).toMatch(/^ {2}trio-c +bind /m);
    expect(r.stderr).not.toMatch(/^ {2}trio-b /m);
  });
});

test.concurrent('under --debug a plugin that throws while loading shows its stack with its file and line; a required one names the configuration line', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const file = write(path.join(s.home, 'plugins', 'throws.mjs'), `const x = 1;\nthrow new Error('boom at load');\n`);
    const factory = write(path.join(s.home, 'plugins', 'factory.mjs'), `export default function make() {\n  throw new Error('factory blew up');\n}\n`);
    userConfig(s, `plugins:\n  - ${JSON.stringify(factory)}\n  - use: ${JSON.stringify(file)}\n    required: true\n`);
    const plain = await s.run(['-p', 'hi']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/could not be loaded: boom at load\. It is required by configuration \(plugins: \{ use, required: true \}\) at .*config\.yaml:4:15, so MewCode will not run without it/);
    expect(plain.stderr).not.toContain('throws.mjs:2');
    const debug = await s.run(['-p', 'hi', '--debug']);
    expect(debug.code).toBe(2);
    expect(debug.stderr).toContain(`${file}:2:7`);
    expect(debug.stderr).toMatch(/could not be loaded: its factory threw: factory blew up; skipped\n\s+Error: factory blew up\n\s+at make \(file:.*factory\.mjs:2:9\)/);
    expect(s.requests).toEqual([]);
  });
});

test.concurrent('plugin add refuses what every run would refuse, and writes nothing', async () => {
  await scenario([], async (s) => {
    const sameName = write(path.join(s.cwd, 'tools', 'bash-clone.mjs'), `export default { name: 'tool-bash', apply() {} };\n`);
    const added = await runCli(['plugin', 'add', sameName], { cwd: s.cwd, env: s.env });
    expect(added.code).toBe(1);
    expect(added.stderr).toContain("has the name of the built-in plugin tool-bash; it was not loaded (declare replaces: ['tool-bash'] to stand in for it)");
    expect(existsSync(path.join(s.home, '.mewcode', 'config.yaml'))).toBe(false);

    const replacing = write(path.join(s.cwd, 'tools', 'bash-replacement.mjs'), `export default { name: 'tool-bash', replaces: ['tool-bash'], apply() {} };\n`);
    const ok = await runCli(['plugin', 'add', replacing], { cwd: s.cwd, env: s.env });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('replaces the built-in plugin tool-bash');
  });
});

test.concurrent('a plugin whose module or apply() waits on what never comes is named: a required one ends the run with exit 2, another is skipped', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const dir = path.join(s.home, 'plugins');
    const stuckApply = write(path.join(dir, 'policy.mjs'), `export default { name: 'org-policy', apply() { return new Promise(() => {}); } };\n`);
    userConfig(s, `plugins:\n  - use: ${JSON.stringify(stuckApply)}\n    required: true\n`);
    const r = await s.run(['-p', 'hi']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('plugin org-policy failed in apply: apply() waits on something that can never finish');
    expect(s.requests).toHaveLength(0);
  });
  await scenario([{ text: 'ok' }], async (s) => {
    const stuckModule = write(path.join(s.home, 'plugins', 'tla.mjs'), `await new Promise(() => {});\nexport default { name: 'tla' };\n`);
    userConfig(s, `plugins:\n  - ${JSON.stringify(stuckModule)}\n`);
    const r = await s.run(['-p', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ok\n');
    expect(r.stderr).toContain(`plugin ${stuckModule} could not be loaded: its module (top-level code) waits on something that can never finish`);
  });
});
