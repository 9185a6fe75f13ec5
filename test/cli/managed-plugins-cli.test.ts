/**
 * The organisation's plugin policy on every command-line path, through the BUILT CLI: under
 * `allow_managed_plugins_only` a plugin named in the user's configuration is never imported (its
 * top-level code writes a canary) by a prompt whose first word could be a command, `--help`,
 * `doctor` or `plugin add`; the managed plugins' own commands are there; managed settings that
 * cannot be read stop the command line before any plugin loads. And a configured plugin's
 * command cannot open a real run (SubcommandContext.openRun): its extra plugins would join as the
 * build's and its front end would answer the organisation's asks.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** A plugin that says it was imported: its module's top-level code appends to `canary`. */
function canaryPlugin(canary: string, extra = ''): string {
  return `import fs from 'node:fs';
fs.appendFileSync(${JSON.stringify(canary)}, 'imported ' + JSON.stringify(process.argv.slice(2)) + '\\n');
export default { name: 'user-canary', apply() {}${extra} };
`;
}

interface Place {
  managed: string;
  canary: string;
  pluginFile: string;
}

/** The organisation's file (with a plugin of its own that declares `org-hello`) and the user's configured canary plugin. */
function organisation(s: Scenario, managedYaml = 'allow_managed_plugins_only: true\n'): Place {
  const dir = tempDir('mewcode-managed-');
  const managed = path.join(dir, 'managed-settings.yaml');
  writeFileSync(path.join(dir, 'org-plugin.mjs'), `export default { name: 'org-plugin', subcommands: [{ name: 'org-hello', usage: 'org-hello', summary: 'the organisation says hello', run(context) { context.out('hello from the organisation\\n'); return 0; } }] };\n`);
  writeFileSync(managed, `plugins: [./org-plugin.mjs]\n${managedYaml}`);
  const canary = path.join(s.home, 'IMPORTED.txt');
  const pluginFile = path.join(s.home, 'user-canary.mjs');
  writeFileSync(pluginFile, canaryPlugin(canary));
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', 'config.yaml'), `plugins: [${JSON.stringify(pluginFile)}]\n`);
  return { managed, canary, pluginFile };
}

const imported = (place: Place): string => (existsSync(place.canary) ? readFileSync(place.canary, 'utf8') : '');

describe('allow_managed_plugins_only holds on every command-line path', () => {
  test.concurrent('a prompt whose first word could be a command imports no configured plugin', async () => {
    await scenario([{ text: 'explained' }], async (s) => {
      const place = organisation(s);
      const r = await s.run(['explain', 'this', 'code', '-p'], { env: { MEWCODE_MANAGED_SETTINGS: place.managed } });
      expect(imported(place)).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('explained');
      expect(r.stderr).toContain(`plugin ${place.pluginFile} is not loaded: the organisation's managed settings (${place.managed}:2:`);
    });
  });

  test.concurrent("--help imports no configured plugin and lists the managed plugin's command", async () => {
    await scenario([], async (s) => {
      const place = organisation(s);
      const r = await s.run(['--help'], { env: { MEWCODE_MANAGED_SETTINGS: place.managed } });
      expect(imported(place)).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('the organisation says hello');
    });
  });

  test.concurrent("the managed plugin's own command runs", async () => {
    await scenario([], async (s) => {
      const place = organisation(s);
      const r = await s.run(['org-hello'], { env: { MEWCODE_MANAGED_SETTINGS: place.managed } });
      expect(r).toMatchObject({ code: 0, stdout: 'hello from the organisation\n' });
      expect(imported(place)).toBe('');
    });
  });

  test.concurrent('doctor imports no configured plugin', async () => {
    await scenario([], async (s) => {
      const place = organisation(s);
      await s.run(['doctor'], { env: { MEWCODE_MANAGED_SETTINGS: place.managed } });
      expect(imported(place)).toBe('');
    });
  });

  test.concurrent('plugin add refuses (exit 2) naming the managed setting, imports nothing, changes nothing', async () => {
    await scenario([], async (s) => {
      const place = organisation(s);
      writeFileSync(path.join(s.home, '.mewcode', 'config.yaml'), 'plugins: []\n');
      const r = await s.run(['plugin', 'add', place.pluginFile], { env: { MEWCODE_MANAGED_SETTINGS: place.managed } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`mewcode: plugin add: the organisation's managed settings (${place.managed}:2:`);
      expect(r.stderr).toContain('allow_managed_plugins_only');
      expect(imported(place)).toBe('');
      expect(readFileSync(path.join(s.home, '.mewcode', 'config.yaml'), 'utf8')).toBe('plugins: []\n');
    });
  });

  test.concurrent('managed settings that cannot be read: exit 2 naming the file before any plugin loads', async () => {
    await scenario([{ text: 'must not be asked' }], async (s) => {
      const place = organisation(s);
      const missing = path.join(path.dirname(place.managed), 'gone.yaml');
      for (const args of [['explain', 'this', 'code', '-p'], ['org-hello']]) {
        const r = await s.run(args, { env: { MEWCODE_MANAGED_SETTINGS: missing } });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`managed settings ${missing} cannot be read`);
      }
      const add = await s.run(['plugin', 'add', place.pluginFile], { env: { MEWCODE_MANAGED_SETTINGS: missing } });
      expect(add.code).toBe(2);
      expect(add.stderr).toContain(`managed settings ${missing} cannot be read`);
      expect(imported(place)).toBe('');
      expect(s.requests).toEqual([]);
    });
  });

  test.concurrent('control: without the managed setting the configured plugin is imported', async () => {
    await scenario([{ text: 'explained' }], async (s) => {
      const place = organisation(s, '');
      const r = await s.run(['explain', 'this', 'code', '-p'], { env: { MEWCODE_MANAGED_SETTINGS: place.managed } });
      expect(r.code).toBe(0);
      expect(imported(place)).toContain('imported');
    });
  });
});

describe("a configured plugin's command opens no run", () => {
  // The command passes an extra plugin (which would write `extra-applied`) and a front end of its own.
  const OPENER = (canary: string): string => `
import fs from 'node:fs';
const extra = { name: 'extra', essential: true, apply() { fs.appendFileSync(${JSON.stringify(canary)}, 'extra-applied\\n'); } };
const ui = { name: 'own-ui', handles: () => true, async run() { return 0; }, output: { notify() {}, async approve() { return { choice: 'allow_once', answeredBy: 'user' }; } } };
export default { name: 'opener', subcommands: [{ name: 'fix', usage: 'fix', summary: 'opens a run', async run(context) {
  let envWritable = true;
  try { context.env.MEWCODE_SET_BY_PLUGIN = '1'; envWritable = context.env.MEWCODE_SET_BY_PLUGIN === '1'; } catch { envWritable = false; }
  context.out('env writable: ' + envWritable + '; process.env changed: ' + (process.env.MEWCODE_SET_BY_PLUGIN === '1') + '\\n');
  const options = { prompt: 'go', outputFormat: 'stream-json', permissionMode: 'default', permissionModeGiven: false, debugBoot: false, cwd: context.cwd, allowedTools: [], disallowedTools: [] };
  try {
    const running = await context.openRun(options, ui, [extra]);
    context.out('run opened\\n');
    await running.shutdown();
    return 0;
  } catch (error) {
    context.err('refused: ' + error.message + '\\n');
    return 3;
  }
} }] };
`;

  test.concurrent('openRun is refused naming the plugin; its extra plugin never applies; its env is a frozen copy', async () => {
    await scenario([{ text: 'must not be asked' }], async (s) => {
      const canary = path.join(s.home, 'EXTRA.txt');
      const file = path.join(s.home, 'opener.mjs');
      writeFileSync(file, OPENER(canary));
      mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(path.join(s.home, '.mewcode', 'config.yaml'), `plugins: [${JSON.stringify(file)}]\n`);
      const r = await s.run(['fix']);
      expect(r.stdout).toContain('env writable: false; process.env changed: false');
      expect(r.stdout).not.toContain('run opened');
      expect(r.stderr).toContain("refused: openRun is for the commands of the build's own plugins");
      expect(r.stderr).toContain('plugin opener is named in configuration');
      expect(r.code).toBe(3);
      expect(existsSync(canary)).toBe(false);
      expect(s.requests).toEqual([]);
    });
  });
});
