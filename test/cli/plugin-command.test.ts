/**
 * `mewcode plugin add|list|remove` through the built CLI with a real npm: a plugin package from a
 * local folder (no network), installed into ~/.mewcode with one MewCode (the running one), named
 * in config.yaml, used in a session, listed, removed; bad input changes nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, prepareCli, removeTempDirs, runCli, scenario, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const NPM_TIMEOUT = 120_000;

/** A plugin package written the documented way: ESM, `mewcode/sdk` imports, mewcode as a peer. */
function pluginPackage(name: string, body = ''): string {
  const dir = tempDir('mewcode-plugin-src-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.2.3', type: 'module', main: 'index.js', peerDependencies: { mewcode: '*' } }));
  writeFileSync(
    join(dir, 'index.js'),
    body ||
      `import { definePlugin, ContainerModule, TOKENS } from 'mewcode/sdk';
export default definePlugin({
  name: '${name}',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool).toConstantValue({
      name: 'hello', description: 'Greets.', readOnly: true,
      inputSchema: { type: 'object', properties: { who: { type: 'string' } } },
      async execute(input) { return { content: 'hello, ' + input.who }; },
    });
  }),
});
`,
  );
  return dir;
}

test('add from a folder: installed in ~/.mewcode beside a link to the running MewCode, named in config.yaml, used, listed, removed', async () => {
  const source = pluginPackage('mewcode-plugin-hello');
  await scenario([{ toolCalls: [{ id: 'c1', name: 'hello', input: { who: 'world' } }] }, { text: 'Greeted.' }], async (s) => {
    const added = await runCli(['plugin', 'add', source], { cwd: s.cwd, env: s.env, timeoutMs: NPM_TIMEOUT });
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const userDir = join(s.home, '.mewcode');
    expect(added.stdout).toContain(`Added mewcode-plugin-hello 1.2.3 to plugins: in ${join(userDir, 'config.yaml')}`);
    expect(readFileSync(join(userDir, 'config.yaml'), 'utf8')).toMatch(/plugins:\s*\n\s*- mewcode-plugin-hello/);
    expect(JSON.parse(readFileSync(join(userDir, 'package.json'), 'utf8'))).toMatchObject({ name: 'mewcode-user-plugins', private: true });
    // A copy, not a link back to the source folder; and one MewCode: the running one.
    expect(lstatSync(join(userDir, 'node_modules', 'mewcode-plugin-hello')).isSymbolicLink()).toBe(false);
    expect(realpathSync(join(userDir, 'node_modules', 'mewcode'))).toBe(realpathSync(REPO_ROOT));
    expect(existsSync(join(userDir, 'node_modules', 'mewcode-plugin-hello', 'node_modules'))).toBe(false);
    const ls = spawnSync('npm', ['ls', '--all', '--parseable'], { cwd: userDir, encoding: 'utf8', env: { ...process.env, HOME: s.home } });
    expect(ls.stdout.split('\n').filter((line) => /(?:^|\/)mewcode$/.test(line) || line.endsWith('/node_modules/mewcode'))).toHaveLength(1);

    const run = await s.run(['-p', 'greet the world', '--output-format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.stringify(s.requests[1]!.body)).toContain('hello, world');

    const list = await runCli(['plugin', 'list'], { cwd: s.cwd, env: s.env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/mewcode-plugin-hello\tuser\tnpm 1\.2\.3/);

    const again = await runCli(['plugin', 'add', source], { cwd: s.cwd, env: s.env, timeoutMs: NPM_TIMEOUT });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already names it');
    expect(readFileSync(join(userDir, 'config.yaml'), 'utf8').match(/mewcode-plugin-hello/g)).toHaveLength(1);

    const removed = await runCli(['plugin', 'remove', 'mewcode-plugin-hello'], { cwd: s.cwd, env: s.env, timeoutMs: NPM_TIMEOUT });
    expect(removed.code).toBe(0);
    expect(readFileSync(join(userDir, 'config.yaml'), 'utf8')).not.toContain('mewcode-plugin-hello');
    expect(existsSync(join(userDir, 'node_modules', 'mewcode-plugin-hello'))).toBe(false);
    const empty = await runCli(['plugin', 'list'], { cwd: s.cwd, env: s.env });
    expect(empty.stdout).toMatch(/No MewCode plugins are configured/);
  });
}, 300_000);

test('a package that exports no plugin is refused, uninstalled again, and the configuration is untouched', async () => {
  const source = pluginPackage('not-a-plugin', 'export const answer = 42;\n');
  await scenario([], async (s) => {
    mkdirSync(join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(join(s.home, '.mewcode', 'config.yaml'), '# mine\nmax_turns: 9\n');
    const r = await runCli(['plugin', 'add', source], { cwd: s.cwd, env: s.env, timeoutMs: NPM_TIMEOUT });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/plugin add: plugin not-a-plugin does not export a plugin/);
    expect(readFileSync(join(s.home, '.mewcode', 'config.yaml'), 'utf8')).toBe('# mine\nmax_turns: 9\n');
    expect(existsSync(join(s.home, '.mewcode', 'node_modules', 'not-a-plugin'))).toBe(false);
  });
}, 300_000);

test('a plugin file is named as it is (relative to the project with --project); comments in the config survive', async () => {
  await scenario([], async (s) => {
    mkdirSync(join(s.cwd, 'tools'));
    writeFileSync(join(s.cwd, 'tools', 'mine.mjs'), "export default { name: 'mine' };\n");
    writeFileSync(join(s.cwd, '.mewcode.yaml'), '# team settings\nplugins: [other-plugin] # keep\n');
    const r = await runCli(['plugin', 'add', './tools/mine.mjs', '--project'], { cwd: s.cwd, env: s.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/load once you trust the project/);
    const text = readFileSync(join(s.cwd, '.mewcode.yaml'), 'utf8');
    expect(text).toContain('# team settings');
    expect(text).toContain('./tools/mine.mjs');
    expect(text).toContain('other-plugin');
    const list = await runCli(['plugin', 'list'], { cwd: s.cwd, env: s.env });
    expect(list.stdout).toMatch(/\.\/tools\/mine\.mjs\tproject \(loads once the project is trusted\)\tfile \/.*\/tools\/mine\.mjs/);
  });
});

test.each([
  [['plugin', 'add', './nowhere'], /plugin add: nothing at .*nowhere/, 1],
  [['plugin', 'remove', 'ghost'], /plugin remove: no plugin named ghost in .*config\.yaml/, 1],
  [['plugin', 'add'], /plugin add takes one npm package or path/, 2],
  [['plugin', 'frobnicate'], /unknown plugin subcommand "frobnicate"/, 2],
])('bad input %j: a clear error, nothing changed', async (args, message, code) => {
  await scenario([], async (s) => {
    const r = await runCli(args as string[], { cwd: s.cwd, env: s.env });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(s.home, '.mewcode', 'config.yaml'))).toBe(false);
  });
});

test('--project without a package.json says what to do', async () => {
  const source = pluginPackage('mewcode-plugin-x');
  await scenario([], async (s) => {
    const r = await runCli(['plugin', 'add', source, '--project'], { cwd: s.cwd, env: s.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/has no package\.json: run `npm init` there first/);
  });
});
