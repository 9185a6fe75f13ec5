/**
 * `mewcode plugin marketplace …` and `mewcode plugin install|enable|disable|uninstall|list` for
 * Claude Code plugins, through the BUILT CLI, against marketplaces built in temporary directories
 * as a local folder and as a local git repository (file:// URLs: no network); `/plugin` in a run;
 * the settings' `enabledPlugins` with and without workspace trust.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileUrl, gitCommitAll, gitInit, writeCatalogue, writeFiles, writePlugin } from '../support/claude-marketplace.js';
import { EVERYTHING } from '../plugins/mcp/helpers.js';
import { writeKitPlugin } from '../plugins/claude-plugins/fixture.js';
import { lastUserTexts, prepareCli, removeTempDirs, runCli, scenario, tempDir, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

function marketplace(dir: string, name = 'team-tools'): string {
  writePlugin(join(dir, 'plugins', 'fmt'), 'fmt', { version: '2.1.0' });
  writePlugin(join(dir, 'plugins', 'lint'), 'lint', { version: '0.3.0' });
  writeCatalogue(dir, name, [
    { name: 'fmt', source: './plugins/fmt' },
    { name: 'lint', source: './plugins/lint' },
  ]);
  return dir;
}

/** The same marketplace as a git repository with one commit: its folder and that commit. */
function gitMarketplace(prefix: string): { dir: string; first: string } {
  const dir = tempDir(prefix);
  gitInit(dir);
  marketplace(dir);
  return { dir, first: gitCommitAll(dir, 'first') };
}

const plugin = (s: Scenario, ...args: string[]) => runCli(['plugin', ...args], { cwd: s.cwd, env: s.env });
const manifestOf = (s: Scenario) => JSON.parse(readFileSync(join(s.home, '.mewcode', 'plugins', 'installed.json'), 'utf8'));

test('a folder marketplace: add, list, install, plugin list shows both kinds, disable, enable, uninstall, remove', async () => {
  await scenario([], async (s) => {
    const dir = marketplace(tempDir('mewcode-market-'));
    const added = await plugin(s, 'marketplace', 'add', dir);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`Added the marketplace team-tools (folder ${dir}, read in place): 2 plugins: fmt, lint.`);
    expect((await plugin(s, 'marketplace', 'list')).stdout).toBe(`team-tools\tfolder ${dir}\t2 plugins: fmt, lint\n`);

    const installed = await plugin(s, 'install', 'fmt@team-tools');
    expect(installed.code).toBe(0);
    const copy = join(s.home, '.mewcode', 'plugins', 'cache', 'team-tools', 'fmt');
    expect(installed.stdout).toContain(`Installed fmt@team-tools (version 2.1.0) into ${copy}; enabled. This applies from the next start of MewCode.`);
    expect(existsSync(join(copy, 'commands', 'hello.md'))).toBe(true);
    expect(manifestOf(s).plugins['fmt@team-tools']).toMatchObject({ name: 'fmt', marketplace: 'team-tools', version: '2.1.0', enabled: true, root: copy });

    // One list, both kinds, each marked.
    writeFileSync(join(s.cwd, 'mine.mjs'), "export default { name: 'mine' };\n");
    expect((await plugin(s, 'add', './mine.mjs', '--project')).code).toBe(0);
    const list = await plugin(s, 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^\.\/mine\.mjs\tproject \(loads once the project is trusted\)\tfile \/.*\/mine\.mjs$/m);
    // Each Claude Code plugin with what it contributes, and every part that fails to load, named.
    expect(list.stdout).toMatch(/^fmt@team-tools\tclaude-plugin\tenabled\tversion 2\.1\.0\t1 command$/m);
    writeFileSync(join(copy, '.mcp.json'), '{"mcpServers": {');
    const broken = await plugin(s, 'list');
    expect(broken.stdout).toMatch(/^fmt@team-tools\tclaude-plugin\tenabled\tversion 2\.1\.0\t1 command; 1 problem$/m);
    expect(broken.stdout).toContain(`  problem: ${join(copy, '.mcp.json')}: `);

    const disabled = await plugin(s, 'disable', 'fmt');
    expect(disabled.stdout).toBe('fmt@team-tools is now disabled. This applies from the next start of MewCode.\n');
    expect(manifestOf(s).plugins['fmt@team-tools'].enabled).toBe(false);
    expect((await plugin(s, 'list')).stdout).toMatch(/^fmt@team-tools\tclaude-plugin\tdisabled/m);
    expect((await plugin(s, 'enable', 'fmt@team-tools')).stdout).toContain('fmt@team-tools is now enabled.');
    expect(manifestOf(s).plugins['fmt@team-tools'].enabled).toBe(true);

    const uninstalled = await plugin(s, 'uninstall', 'fmt@team-tools');
    expect(uninstalled.stdout).toBe(`Uninstalled fmt@team-tools (removed ${copy}).\n`);
    expect(existsSync(copy)).toBe(false);
    expect(manifestOf(s).plugins).toEqual({});

    expect((await plugin(s, 'install', 'lint')).code).toBe(0);
    const removed = await plugin(s, 'marketplace', 'remove', 'team-tools');
    expect(removed.stdout).toBe('Removed the marketplace team-tools and uninstalled its plugins: lint@team-tools.\n');
    expect(manifestOf(s)).toEqual({ version: 1, marketplaces: {}, plugins: {} });
    expect((await plugin(s, 'list')).stdout).toContain('No Claude Code plugins are installed.');
  });
}, 60_000);

test('a git marketplace: cloned with git, a new commit picked up by update and recorded, the plugin reinstalled from it', async () => {
  await scenario([], async (s) => {
    const { dir, first } = gitMarketplace('mewcode-market-git-');
    const added = await plugin(s, 'marketplace', 'add', fileUrl(dir));
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`Added the marketplace team-tools (git ${fileUrl(dir)} at ${first.slice(0, 7)}): 2 plugins`);
    expect(manifestOf(s).marketplaces['team-tools']).toMatchObject({ source: { kind: 'git', url: fileUrl(dir) }, commit: first, root: join(s.home, '.mewcode', 'plugins', 'marketplaces', 'team-tools') });
    expect((await plugin(s, 'install', 'fmt@team-tools')).stdout).toContain(`(version 2.1.0, commit ${first.slice(0, 7)})`);

    writePlugin(join(dir, 'plugins', 'fmt'), 'fmt', { version: '2.2.0' });
    const second = gitCommitAll(dir, 'second');
    const updated = await plugin(s, 'marketplace', 'update', 'team-tools');
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`team-tools: ${first.slice(0, 7)} → ${second.slice(0, 7)}; 2 plugins.`);
    expect(manifestOf(s).marketplaces['team-tools'].commit).toBe(second);
    expect((await plugin(s, 'marketplace', 'update')).stdout).toContain(`team-tools: already at ${second.slice(0, 7)}`);
    expect((await plugin(s, 'list')).stdout).toMatch(new RegExp(`^fmt@team-tools\\tclaude-plugin\\tenabled\\tversion 2\\.1\\.0, commit ${first.slice(0, 7)}\\t1 command$`, 'm'));
    const again = await plugin(s, 'install', 'fmt@team-tools');
    expect(again.stdout).toContain(`Reinstalled fmt@team-tools (version 2.2.0, commit ${second.slice(0, 7)})`);
    expect(manifestOf(s).plugins['fmt@team-tools']).toMatchObject({ version: '2.2.0', commit: second });

    expect((await plugin(s, 'marketplace', 'remove', 'team-tools')).code).toBe(0);
    expect(existsSync(join(s.home, '.mewcode', 'plugins', 'marketplaces', 'team-tools'))).toBe(false);
  });
}, 60_000);

test('bad input: each a clear message naming the file or the name; nothing is changed', async () => {
  await scenario([], async (s) => {
    const broken = tempDir('mewcode-market-bad-');
    writeFiles(broken, { '.claude-plugin/marketplace.json': '{"name": "x", "plugins": [' });
    const r1 = await plugin(s, 'marketplace', 'add', broken);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toMatch(new RegExp(`plugin marketplace add: ${broken}/\\.claude-plugin/marketplace\\.json is not valid JSON`));
    expect(existsSync(join(s.home, '.mewcode', 'plugins', 'installed.json'))).toBe(false);

    const r2 = await plugin(s, 'install', 'fmt@nowhere');
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/plugin install: no marketplace named "nowhere" has been added \(none is known yet\)/);
    writeFiles(s.home, { '.claude/settings.json': JSON.stringify({ extraKnownMarketplaces: { nowhere: { source: { source: 'git', url: 'https://git.example.com/nowhere.git' } } } }) });
    const hinted = await plugin(s, 'install', 'fmt@nowhere');
    expect(hinted.code).toBe(1);
    expect(hinted.stderr).toMatch(/has been added \(none is known yet\).*\.claude\/settings\.json names it: mewcode plugin marketplace add https:\/\/git\.example\.com\/nowhere\.git/);

    const dir = tempDir('mewcode-market-');
    writePlugin(join(dir, 'plugins', 'fmt'), 'fmt');
    writeCatalogue(dir, 'team-tools', [{ name: 'nosource' }, { name: 'fmt', source: './plugins/fmt' }]);
    const r3 = await plugin(s, 'marketplace', 'add', dir);
    expect(r3.code).toBe(0);
    expect(r3.stderr).toMatch(/warning: .*marketplace\.json: plugins\[0\] \("nosource"\): it has no "source"; skipped/);
    expect(r3.stdout).toContain('1 plugin: fmt.');
    const other = tempDir('mewcode-market-other-');
    writeCatalogue(other, 'team-tools', []);
    const r4 = await plugin(s, 'marketplace', 'add', other);
    expect(r4.code).toBe(1);
    expect(r4.stderr).toMatch(/names the marketplace "team-tools", but a marketplace of that name is already added from/);

    const manifest = join(s.home, '.mewcode', 'plugins', 'installed.json');
    const before = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, `${before.slice(0, 40)}`);
    const r5 = await plugin(s, 'install', 'fmt@team-tools');
    expect(r5.code).toBe(1);
    expect(r5.stderr).toContain(`${manifest} is not valid JSON`);
    expect((await plugin(s, 'list')).stderr).toContain(`${manifest} is not valid JSON`);
    expect(readFileSync(manifest, 'utf8')).toBe(before.slice(0, 40));

    for (const [args, message] of [
      [['install'], /plugin install takes one <plugin>\[@<marketplace>\]/],
      [['marketplace', 'frob'], /plugin marketplace frob: usage: mewcode plugin marketplace add/],
      [['install', 'fmt', '--project'], /plugin install has no --project/],
    ] as const) {
      const r = await plugin(s, ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
}, 60_000);

test("a project's enabledPlugins: untrusted it is not applied and the trust notice lists it; trusted it is; /plugin shows it and disables a plugin from the next start", async () => {
  await scenario([], async (s) => {
    const dir = marketplace(tempDir('mewcode-market-'));
    expect((await plugin(s, 'marketplace', 'add', dir)).code).toBe(0);
    expect((await plugin(s, 'install', 'fmt@team-tools')).code).toBe(0);
    expect((await plugin(s, 'install', 'lint@team-tools')).code).toBe(0);
    expect((await plugin(s, 'disable', 'lint@team-tools')).code).toBe(0);
    writeFiles(s.cwd, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'lint@team-tools': true, 'ghost@team-tools': true } }) });

    expect((await plugin(s, 'list')).stderr).toContain('warning: not applied until you trust this project: .claude/settings.json: enabledPlugins');
    const untrusted = await s.run(['-p', '/plugin']);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).toMatch(/^ {2}on {3}fmt@team-tools 2\.1\.0$/m);
    expect(untrusted.stdout).toMatch(/^ {2}off {2}lint@team-tools 0\.3\.0$/m);
    expect(untrusted.stdout).not.toContain('ghost');
    expect(untrusted.stderr).toMatch(/trust: these settings of .* were skipped: this project is not trusted:\n\s+\.claude\/settings\.json: enabledPlugins: lint@team-tools, ghost@team-tools/);

    const trusted = await s.run(['-p', '/plugin', '--trust-project']);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(new RegExp(`^ {2}on {3}lint@team-tools 0\\.3\\.0 by ${s.cwd}/\\.claude/settings\\.json$`, 'm'));
    expect(`${trusted.stdout}${trusted.stderr}`).toContain('enables the plugin ghost@team-tools, which is not installed; to use it: mewcode plugin install ghost@team-tools');
    expect(trusted.stderr).not.toContain('trust: these settings');

    const off = await s.run(['-p', '/plugin disable fmt']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('fmt@team-tools is now disabled; this applies from the next start of MewCode');
    expect(manifestOf(s).plugins['fmt@team-tools'].enabled).toBe(false);
    expect((await s.run(['-p', '/plugin'])).stdout).toMatch(/^ {2}off {2}fmt@team-tools/m);
    expect(s.requests).toHaveLength(0);
  });
}, 60_000);

test('end to end: a plugin installed from a git marketplace is used by the next run (its command and its skill); disabled, it is gone', async () => {
  await scenario([{ text: 'hello sent' }, { toolCalls: [{ id: 'l1', name: 'load_skill', input: { name: 'fmt:house-style' } }] }, { text: 'done' }], async (s) => {
    const dir = tempDir('mewcode-market-e2e-');
    gitInit(dir);
    marketplace(dir);
    writeFiles(join(dir, 'plugins', 'fmt'), { 'skills/house-style/SKILL.md': '---\nname: house-style\ndescription: The fmt house style\n---\nFMT-HOUSE-RULES: tabs, never spaces.\n' });
    gitCommitAll(dir, 'marketplace');
    expect((await plugin(s, 'marketplace', 'add', fileUrl(dir))).code).toBe(0);
    expect((await plugin(s, 'install', 'fmt@team-tools')).code).toBe(0);

    const command = await s.run(['-p', '/fmt:hello world']);
    expect(command.stderr).toBe('');
    expect(command.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toContain('Say hello from fmt: world');

    const skill = await s.run(['-p', 'format it the house way']);
    expect(skill.code).toBe(0);
    expect(JSON.stringify(s.requests[1]!.body.system)).toContain('fmt:house-style');
    expect(JSON.stringify(s.requests[2]!.body)).toContain('FMT-HOUSE-RULES: tabs, never spaces.');

    expect((await plugin(s, 'disable', 'fmt@team-tools')).code).toBe(0);
    const help = await s.run(['-p', '/help']);
    expect(help.stdout).not.toContain('/fmt:hello');
    expect(s.requests).toHaveLength(3);
  });
}, 60_000);

test('end to end: a plugin of every kind installed from a git marketplace — its command with arguments and a ! line, its agent, its skill, its hook blocking a call, its MCP server', async () => {
  await scenario(
    [
      { text: 'greeted' },
      { toolCalls: [{ id: 'a1', name: 'agent', input: { description: 'review', prompt: 'Review the kit', subagent_type: 'kit:reviewer' } }] },
      { text: 'Reviewed: all good.' },
      {
        toolCalls: [
          { id: 'l1', name: 'load_skill', input: { name: 'kit:style' } },
          { id: 'b1', name: 'bash', input: { command: 'echo forbidden-thing' } },
          { id: 'm1', name: 'mcp__plugin_kit_everything__echo', input: { message: 'hi from kit' } },
        ],
      },
      { text: 'done' },
    ],
    async (s) => {
      const dir = tempDir('mewcode-market-kit-');
      gitInit(dir);
      writeKitPlugin(join(dir, 'plugins', 'kit'), { mcp: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
      writeCatalogue(dir, 'kits', [{ name: 'kit', source: './plugins/kit' }]);
      gitCommitAll(dir, 'the kit');
      expect((await plugin(s, 'marketplace', 'add', fileUrl(dir))).code).toBe(0);
      expect((await plugin(s, 'install', 'kit@kits')).code).toBe(0);
      const copy = join(s.home, '.mewcode', 'plugins', 'cache', 'kits', 'kit');
      expect((await plugin(s, 'list')).stdout).toMatch(/^kit@kits\tclaude-plugin\tenabled\tversion 1\.2\.0[^\n]*\t1 command, 1 agent, 1 skill, 1 hook, 1 MCP server$/m);
      // Trusted: the kit's hook is the user's own and runs on the host (in an untrusted project it
      // runs in the OS sandbox, where this /tmp home is not visible).
      const env = { MEWCODE_REQUIRE_SANDBOX: process.env.MEWCODE_REQUIRE_SANDBOX, MEWCODE_TRUST_PROJECT: '1' };
      // The kit's MCP server starts with every run; on a loaded machine the default wait can pass
      // first, and its notice on stderr is not what these runs check.
      mkdirSync(join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(join(s.home, '.mewcode', 'config.yaml'), 'mcp:\n  startup_wait_ms: 20000\n');

      const command = await s.run(['-p', '/kit:hello Alice Bob'], { env });
      expect(command.stderr).toBe('');
      expect(command.code).toBe(0);
      expect(lastUserTexts(s.requests[0]!.body).join('\n')).toBe(`Hello Alice and Bob!\nRoot: ${copy}\nplugin-line-42`);

      const run = await s.run(['-p', 'review, style, run and echo', '--allowedTools', 'Bash(echo:*)', '--allowedTools', 'mcp__plugin_kit_everything'], { env });
      expect(run.code).toBe(0);
      expect(s.requests[1]!.body.tools.find((t: any) => t.name === 'agent').description).toContain('- kit:reviewer: Reviews things for the kit');
      expect(JSON.stringify(s.requests[2]!.body.system)).toContain(`You are the kit reviewer. Kit files live in ${copy}.`);
      const results = s.requests[4]!.body.messages.at(-1).content;
      expect(JSON.stringify(results.find((b: any) => b.tool_use_id === 'l1').content)).toContain('The skill \\"kit:style\\" is active');
      expect(JSON.stringify(s.requests[4]!.body)).toContain(`KIT-STYLE-RULES from ${copy}`);
      const blocked = results.find((b: any) => b.tool_use_id === 'b1');
      expect(blocked.is_error).toBe(true);
      expect(JSON.stringify(blocked.content)).toContain('kit guard blocks this bash call');
      expect(results.find((b: any) => b.tool_use_id === 'm1')).toMatchObject({ content: 'Echo: hi from kit', is_error: false });
    },
  );
}, 90_000);

test("a marketplace entry's own parts: strict: false makes the entry the whole definition (its commands and one-skill folders); strict entries add to plugin.json; strict: false with a plugin.json declaring parts is refused", async () => {
  await scenario([{ text: 'done' }], async (s) => {
    const dir = tempDir('mewcode-market-entries-');
    writeFiles(dir, {
      'cmds/loosecmd.md': 'Loose command: $ARGUMENTS\n',
      'office/xlsx/SKILL.md': '---\nname: xlsx\ndescription: Spreadsheets\n---\nXLSX\n',
      'office/docx/SKILL.md': '---\nname: docx\ndescription: Documents\n---\nDOCX\n',
      'scripts/guard.sh': '#!/bin/sh\nexit 0\n',
    });
    writePlugin(join(dir, 'plugins', 'fmt'), 'fmt', { version: '2.1.0' });
    writePlugin(join(dir, 'plugins', 'clash'), 'clash');
    writeCatalogue(dir, 'team-tools', [
      { name: 'loose', source: './', strict: false, description: 'Loose tools', commands: ['./cmds/'], skills: ['./office/xlsx'] },
      { name: 'fmt', source: './plugins/fmt', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } },
      { name: 'clash', source: './plugins/clash', strict: false, commands: './commands/hello.md' },
    ]);
    writeFiles(join(dir, 'plugins', 'clash'), { '.claude-plugin/plugin.json': JSON.stringify({ name: 'clash', commands: './commands/hello.md' }) });
    expect((await plugin(s, 'marketplace', 'add', dir)).code).toBe(0);
    const loose = await plugin(s, 'install', 'loose@team-tools');
    expect(loose.stderr).toBe('');
    expect(loose.code).toBe(0);
    expect((await plugin(s, 'install', 'fmt@team-tools')).code).toBe(0);
    const clash = await plugin(s, 'install', 'clash@team-tools');
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/plugin "clash" has "strict": false .* but .*plugin\.json declares commands too; not installed/);
    expect(manifestOf(s).plugins['clash@team-tools']).toBeUndefined();

    const list = await plugin(s, 'list');
    expect(list.stdout).toMatch(/^loose@team-tools\tclaude-plugin\tenabled\t1 command, 1 skill$/m);
    expect(list.stdout).toMatch(/^fmt@team-tools\tclaude-plugin\tenabled\tversion 2\.1\.0\t1 command, 1 hook$/m);
    const help = await s.run(['-p', '/help']);
    expect(help.stdout).toMatch(/\/loose:loosecmd\s/);
    expect(help.stdout).toMatch(/\/loose:xlsx\s+Spreadsheets/);
    expect(help.stdout).not.toContain('/loose:docx');
    const run = await s.run(['-p', '/loose:loosecmd a b']);
    expect(run.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toBe('Loose command: a b');
  });
}, 60_000);

test("/plugin install, uninstall, update and marketplace in a session answer with the shell command that does it (Claude Code's spelling kept), not a bare usage line", async () => {
  await scenario([], async (s) => {
    for (const [typed, command] of [
      ['/plugin install fmt@team-tools', 'mewcode plugin install fmt@team-tools'],
      ['/plugin uninstall fmt@team-tools', 'mewcode plugin uninstall fmt@team-tools'],
      ['/plugin update fmt@team-tools', 'mewcode plugin update fmt@team-tools'],
      ['/plugin marketplace add acme/tools', 'mewcode plugin marketplace add acme/tools'],
      ['/plugin market rm team-tools', 'mewcode plugin marketplace remove team-tools'],
    ] as const) {
      const r = await s.run(['-p', typed]);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain(`in a shell: ${command}`);
    }
    expect(s.requests).toHaveLength(0);
  });
}, 60_000);

test('plugin update <plugin>@<marketplace> (as Claude Code spells it): fetches the marketplace and reinstalls from its newest commit; again, it says it is up to date', async () => {
  await scenario([], async (s) => {
    const { dir, first } = gitMarketplace('mewcode-market-update-');
    expect((await plugin(s, 'marketplace', 'add', fileUrl(dir))).code).toBe(0);
    expect((await plugin(s, 'install', 'fmt@team-tools')).code).toBe(0);
    writePlugin(join(dir, 'plugins', 'fmt'), 'fmt', { version: '2.2.0', body: 'NEW-BODY $ARGUMENTS\n' });
    const second = gitCommitAll(dir, 'second');
    const updated = await plugin(s, 'update', 'fmt@team-tools');
    expect(updated.stderr).toBe('');
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`Updated fmt@team-tools from version 2.1.0 (commit ${first.slice(0, 7)}) to version 2.2.0 (commit ${second.slice(0, 7)})`);
    expect(readFileSync(join(s.home, '.mewcode', 'plugins', 'cache', 'team-tools', 'fmt', 'commands', 'hello.md'), 'utf8')).toBe('NEW-BODY $ARGUMENTS\n');
    const again = await plugin(s, 'update', 'fmt');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('fmt@team-tools is up to date (version 2.2.0');
    const missing = await plugin(s, 'update', 'ghost@team-tools');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no installed plugin ghost@team-tools');
  });
}, 60_000);
