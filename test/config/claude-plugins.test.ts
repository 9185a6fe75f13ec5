/**
 * Claude Code plugin marketplaces and installs (config/claude-plugins/): local folders and local
 * git repositories in temporary directories, the manifest's contents, bad input, and which
 * installed plugins a run uses given Claude-shaped settings and workspace trust.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { enabledPlugins } from '../../config/claude-plugins/enabled.js';
import { installPlugin, setPluginEnabled, uninstallPlugin } from '../../config/claude-plugins/install.js';
import { readManifest, writeManifest } from '../../config/claude-plugins/manifest.js';
import { addMarketplace, listMarketplaces, removeMarketplace, resolveMarketplaceSpec, updateMarketplaces } from '../../config/claude-plugins/marketplaces.js';
import { manifestPath } from '../../config/claude-plugins/paths.js';
import { createWorkspaceTrust } from '../../config/trust.js';
import { fileUrl, gitCommitAll, gitInit, writeCatalogue, writeFiles, writePlugin } from '../support/claude-marketplace.js';
import { type TempDirs, makeTempDirs } from './helpers.js';

let dirs: TempDirs;
let market: string;
beforeEach(async () => {
  dirs = await makeTempDirs();
  market = path.join(path.dirname(dirs.cwd), 'market');
});
afterEach(async () => {
  await dirs.cleanup();
});

function folderMarketplace(name = 'team-tools'): string {
  writePlugin(path.join(market, 'plugins', 'fmt'), 'fmt', { version: '2.1.0' });
  writePlugin(path.join(market, 'plugins', 'lint'), 'lint');
  writeCatalogue(market, name, [
    { name: 'fmt', source: './plugins/fmt', description: 'Formats' },
    { name: 'lint', source: './plugins/lint', version: '0.3.0' },
  ]);
  return market;
}

describe('a local folder marketplace', () => {
  it('is added, listed, installed from, switched off and on, uninstalled and removed; the manifest records each step', async () => {
    const added = await addMarketplace(dirs.homeDir, folderMarketplace(), dirs.cwd);
    expect(added.record).toMatchObject({ name: 'team-tools', source: { kind: 'directory', path: market }, root: market });
    expect(added.catalogue.plugins.map((p) => p.name)).toEqual(['fmt', 'lint']);
    expect(listMarketplaces(dirs.homeDir).map((m) => m.record.name)).toEqual(['team-tools']);

    const installed = await installPlugin(dirs.homeDir, 'fmt@team-tools');
    const root = path.join(dirs.homeDir, '.mewcode', 'plugins', 'cache', 'team-tools', 'fmt');
    expect(installed.plugin).toMatchObject({ name: 'fmt', marketplace: 'team-tools', root, version: '2.1.0', enabled: true, from: './plugins/fmt in team-tools' });
    expect(readFileSync(path.join(root, 'commands', 'hello.md'), 'utf8')).toContain('Say hello from fmt');
    // A bare name works when one marketplace has it; the entry's version wins over plugin.json's.
    expect((await installPlugin(dirs.homeDir, 'lint')).plugin).toMatchObject({ name: 'lint', version: '0.3.0' });

    const manifest = JSON.parse(readFileSync(manifestPath(dirs.homeDir), 'utf8'));
    expect(manifest).toMatchObject({ version: 1, marketplaces: { 'team-tools': { name: 'team-tools' } }, plugins: { 'fmt@team-tools': { enabled: true, version: '2.1.0' }, 'lint@team-tools': { enabled: true } } });
    expect(enabledPlugins(dirs.cwd, dirs.homeDir, undefined).roots).toEqual([
      { id: 'fmt@team-tools', root, origin: 'installed' },
      { id: 'lint@team-tools', root: path.join(path.dirname(root), 'lint'), origin: 'installed' },
    ]);

    expect(setPluginEnabled(dirs.homeDir, 'fmt', false)).toMatchObject({ changed: true });
    expect(readManifest(dirs.homeDir).plugins['fmt@team-tools']!.enabled).toBe(false);
    expect(enabledPlugins(dirs.cwd, dirs.homeDir, undefined).roots.map((r) => r.id)).toEqual(['lint@team-tools']);
    // Installing again (an update) keeps the user's switch.
    expect((await installPlugin(dirs.homeDir, 'fmt@team-tools')).plugin.enabled).toBe(false);
    expect(setPluginEnabled(dirs.homeDir, 'fmt@team-tools', true)).toMatchObject({ changed: true });

    expect(uninstallPlugin(dirs.homeDir, 'fmt@team-tools').name).toBe('fmt');
    expect(existsSync(root)).toBe(false);
    expect(Object.keys(readManifest(dirs.homeDir).plugins)).toEqual(['lint@team-tools']);

    // Removing the marketplace uninstalls what came from it; the folder itself is the user's and stays.
    expect(removeMarketplace(dirs.homeDir, 'team-tools').uninstalled).toEqual(['lint@team-tools']);
    expect(readManifest(dirs.homeDir)).toEqual({ version: 1, marketplaces: {}, plugins: {} });
    expect(existsSync(path.join(market, '.claude-plugin', 'marketplace.json'))).toBe(true);
  });

  it("a plugin the user's ~/.claude/settings.json turns off is installed switched off, and says so", async () => {
    await addMarketplace(dirs.homeDir, folderMarketplace(), dirs.cwd);
    writeFiles(dirs.homeDir, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'fmt@team-tools': false } }) });
    const report = await installPlugin(dirs.homeDir, 'fmt@team-tools');
    expect(report.plugin.enabled).toBe(false);
    expect(report.notes).toEqual([expect.stringMatching(/home\/\.claude\/settings\.json disables fmt@team-tools: installed disabled/)]);
    expect((await installPlugin(dirs.homeDir, 'lint@team-tools')).plugin.enabled).toBe(true);
  });

  it('a second add of the same folder says so; another marketplace of the same name is refused', async () => {
    await addMarketplace(dirs.homeDir, folderMarketplace(), dirs.cwd);
    expect((await addMarketplace(dirs.homeDir, market, dirs.cwd)).alreadyAdded).toBe(true);
    const other = path.join(path.dirname(dirs.cwd), 'other');
    writeCatalogue(other, 'team-tools', []);
    await expect(addMarketplace(dirs.homeDir, other, dirs.cwd)).rejects.toThrow(/other\/\.claude-plugin\/marketplace\.json names the marketplace "team-tools", but a marketplace of that name is already added from .*market/);
  });
});

describe('what marketplace add accepts', () => {
  it('owner/repo[@ref] and git-url[#ref] as Claude Code spells them; a direct URL to a marketplace.json is refused with the reason', () => {
    const at = (spec: string) => resolveMarketplaceSpec(spec, dirs.cwd, dirs.homeDir);
    expect(at('acme/tools')).toEqual({ source: { kind: 'git', url: 'https://github.com/acme/tools.git' } });
    expect(at('acme/tools@v2')).toEqual({ source: { kind: 'git', url: 'https://github.com/acme/tools.git' }, ref: 'v2' });
    expect(at('acme/tools#v2')).toEqual({ source: { kind: 'git', url: 'https://github.com/acme/tools.git' }, ref: 'v2' });
    expect(at('https://git.example.com/tools.git#release/1')).toEqual({ source: { kind: 'git', url: 'https://git.example.com/tools.git' }, ref: 'release/1' });
    expect(at('git@github.com:acme/tools.git')).toEqual({ source: { kind: 'git', url: 'git@github.com:acme/tools.git' } });
    expect(() => at('https://example.com/plugins/.claude-plugin/marketplace.json')).toThrow(/a marketplace\.json by its URL .* not supported .*git repository or a folder/);
  });
});

describe('plugin names', () => {
  it('a plugin whose name cannot name its commands (no plugin.json, an entry named "fmt.tools") is refused at install, not left to fail at every start', async () => {
    writeFiles(market, { 'tools/commands/a.md': 'A\n', 'named/.claude-plugin/plugin.json': JSON.stringify({ name: 'good-name' }), 'named/commands/b.md': 'B\n' });
    writeCatalogue(market, 'team-tools', [
      { name: 'fmt.tools', source: './tools' },
      { name: 'named.tools', source: './named' },
    ]);
    await addMarketplace(dirs.homeDir, market, dirs.cwd);
    await expect(installPlugin(dirs.homeDir, 'fmt.tools@team-tools')).rejects.toThrow(/plugin "fmt\.tools": "fmt\.tools" cannot be a plugin name \(letters, digits, "-" and "_"; .*not installed/);
    expect(readManifest(dirs.homeDir).plugins).toEqual({});
    expect(existsSync(path.join(dirs.homeDir, '.mewcode', 'plugins', 'cache', 'team-tools', 'fmt.tools'))).toBe(false);
    // Its plugin.json's name is the one its commands use: that one is fine.
    expect((await installPlugin(dirs.homeDir, 'named.tools@team-tools')).plugin.name).toBe('named.tools');
  });
});

describe('uninstalling leaves no files behind', () => {
  it("uninstall and marketplace remove delete the plugin's copy, its ${CLAUDE_PLUGIN_DATA} folder, and the marketplace's emptied cache folder", async () => {
    await addMarketplace(dirs.homeDir, folderMarketplace(), dirs.cwd);
    await installPlugin(dirs.homeDir, 'fmt@team-tools');
    await installPlugin(dirs.homeDir, 'lint@team-tools');
    const plugins = path.join(dirs.homeDir, '.mewcode', 'plugins');
    // What the plugins kept across updates (a hook or MCP server writes here).
    writeFiles(plugins, { 'data/fmt-team-tools/state.json': '{}', 'data/lint-team-tools/state.json': '{}' });
    uninstallPlugin(dirs.homeDir, 'fmt@team-tools');
    expect(existsSync(path.join(plugins, 'data', 'fmt-team-tools'))).toBe(false);
    expect(existsSync(path.join(plugins, 'data', 'lint-team-tools'))).toBe(true);
    removeMarketplace(dirs.homeDir, 'team-tools');
    expect(readdirSync(path.join(plugins, 'data'))).toEqual([]);
    expect(readdirSync(path.join(plugins, 'cache'))).toEqual([]);
  });
});

describe('a git marketplace', () => {
  it('is cloned; update fetches a new commit and records it; a plugin installed from it records the commit', async () => {
    gitInit(market);
    folderMarketplace();
    const first = gitCommitAll(market, 'first');
    const added = await addMarketplace(dirs.homeDir, fileUrl(market), dirs.cwd);
    const clone = path.join(dirs.homeDir, '.mewcode', 'plugins', 'marketplaces', 'team-tools');
    expect(added.record).toMatchObject({ name: 'team-tools', source: { kind: 'git', url: fileUrl(market) }, root: clone, commit: first });
    expect((await installPlugin(dirs.homeDir, 'fmt@team-tools')).plugin).toMatchObject({ commit: first, version: '2.1.0' });

    writePlugin(path.join(market, 'plugins', 'fmt'), 'fmt', { version: '2.2.0' });
    writeCatalogue(market, 'team-tools', [{ name: 'fmt', source: './plugins/fmt' }, { name: 'lint', source: './plugins/lint' }, { name: 'new', source: './plugins/lint' }]);
    const second = gitCommitAll(market, 'second');
    const [result] = await updateMarketplaces(dirs.homeDir, 'team-tools');
    expect(result!.report).toMatchObject({ previousCommit: first, record: { commit: second } });
    expect(result!.report!.catalogue.plugins.map((p) => p.name)).toEqual(['fmt', 'lint', 'new']);
    expect(readManifest(dirs.homeDir).marketplaces['team-tools']!.commit).toBe(second);
    // The installed copy stays until it is installed again.
    expect(readManifest(dirs.homeDir).plugins['fmt@team-tools']).toMatchObject({ commit: first, version: '2.1.0' });
    expect((await installPlugin(dirs.homeDir, 'fmt@team-tools')).plugin).toMatchObject({ commit: second, version: '2.2.0' });

    removeMarketplace(dirs.homeDir, 'team-tools');
    expect(existsSync(clone)).toBe(false);
  });

  it('a plugin in a git repository of its own is cloned at the pinned commit', async () => {
    const repo = path.join(path.dirname(dirs.cwd), 'deploy-repo');
    gitInit(repo);
    writePlugin(repo, 'deploy', { version: '1.0.0' });
    const pinned = gitCommitAll(repo, 'v1');
    writePlugin(repo, 'deploy', { version: '2.0.0' });
    gitCommitAll(repo, 'v2');
    writeCatalogue(market, 'team-tools', [{ name: 'deploy', source: { source: 'url', url: fileUrl(repo), sha: pinned } }]);
    await addMarketplace(dirs.homeDir, market, dirs.cwd);
    const { plugin } = await installPlugin(dirs.homeDir, 'deploy@team-tools');
    expect(plugin).toMatchObject({ commit: pinned, version: '1.0.0', from: fileUrl(repo) });
    expect(existsSync(path.join(plugin.root, '.git'))).toBe(false);
  });
});

describe('bad input: a clear error or warning naming the file; the rest works', () => {
  it('a git repository without a usable catalogue is refused naming the repository; nothing is kept', async () => {
    gitInit(market);
    writeFiles(market, { '.claude-plugin/marketplace.json': '{"name": "x"}' });
    gitCommitAll(market, 'bad');
    await expect(addMarketplace(dirs.homeDir, fileUrl(market), dirs.cwd)).rejects.toThrow(`${fileUrl(market)}: <repository>/.claude-plugin/marketplace.json: "plugins" must be a list`);
    expect(existsSync(manifestPath(dirs.homeDir))).toBe(false);
    expect(readdirSync(path.join(dirs.homeDir, '.mewcode', 'plugins', 'marketplaces'))).toEqual([]);
  });

  it('a malformed marketplace.json is refused and nothing is recorded', async () => {
    writeFiles(market, { '.claude-plugin/marketplace.json': '{"name": "broken", "plugins": [' });
    await expect(addMarketplace(dirs.homeDir, market, dirs.cwd)).rejects.toThrow(/market\/\.claude-plugin\/marketplace\.json is not valid JSON/);
    writeFiles(market, { '.claude-plugin/marketplace.json': '{"plugins": []}' });
    await expect(addMarketplace(dirs.homeDir, market, dirs.cwd)).rejects.toThrow(/marketplace\.json: "name" \(the marketplace's name\) is missing/);
    await expect(addMarketplace(dirs.homeDir, path.join(dirs.cwd, 'nowhere'), dirs.cwd)).rejects.toThrow(/nothing at .*nowhere/);
    expect(existsSync(manifestPath(dirs.homeDir))).toBe(false);
  });

  it('an entry without a source, a duplicate name and an unsupported source are skipped with warnings; the others install', async () => {
    writePlugin(path.join(market, 'plugins', 'fmt'), 'fmt');
    writeCatalogue(market, 'team-tools', [
      { name: 'nosource' },
      { name: 'fmt', source: './plugins/fmt' },
      { name: 'fmt', source: './plugins/other' },
      { name: 'pkg', source: { source: 'npm', package: 'x' } },
      { name: 'gone', source: './plugins/gone' },
    ]);
    const { catalogue } = await addMarketplace(dirs.homeDir, market, dirs.cwd);
    expect(catalogue.warnings).toEqual([
      expect.stringMatching(/marketplace\.json: plugins\[0\] \("nosource"\): it has no "source"; skipped/),
      expect.stringMatching(/marketplace\.json: plugins\[2\]: the name "fmt" is used by an earlier entry, which is kept; this one is skipped/),
      expect.stringMatching(/marketplace\.json: plugins\[3\] \("pkg"\): source type "npm" is not supported by MewCode/),
    ]);
    expect(catalogue.plugins.map((p) => p.name)).toEqual(['fmt', 'gone']);
    await expect(installPlugin(dirs.homeDir, 'nosource@team-tools')).rejects.toThrow(/marketplace team-tools has no plugin named "nosource"/);
    await expect(installPlugin(dirs.homeDir, 'gone@team-tools')).rejects.toThrow(/marketplace\.json: plugin "gone": its source \.\/plugins\/gone is not a folder of the marketplace/);
    expect((await installPlugin(dirs.homeDir, 'fmt@team-tools')).plugin.name).toBe('fmt');
  });

  it('a source outside the marketplace, an unknown marketplace, a malformed plugin.json and a name offered twice are refused', async () => {
    writePlugin(path.join(dirs.cwd, 'outside'), 'outside');
    writeFiles(market, { 'plugins/bad/.claude-plugin/plugin.json': '{ nope' });
    writePlugin(path.join(market, 'plugins', 'fmt'), 'fmt');
    writeCatalogue(market, 'team-tools', [
      { name: 'escape', source: `../${path.basename(dirs.cwd)}/outside` },
      { name: 'bad', source: './plugins/bad' },
      { name: 'fmt', source: './plugins/fmt' },
    ]);
    const second = path.join(path.dirname(dirs.cwd), 'second');
    writePlugin(path.join(second, 'fmt'), 'fmt');
    writeCatalogue(second, 'second', [{ name: 'fmt', source: './fmt' }]);
    await addMarketplace(dirs.homeDir, market, dirs.cwd);
    await addMarketplace(dirs.homeDir, second, dirs.cwd);
    await expect(installPlugin(dirs.homeDir, 'escape@team-tools')).rejects.toThrow(/plugin "escape": its source .* lies outside the marketplace/);
    await expect(installPlugin(dirs.homeDir, 'bad@team-tools')).rejects.toThrow(/plugin "bad": .*plugins\/bad\/\.claude-plugin\/plugin\.json is not valid JSON/);
    await expect(installPlugin(dirs.homeDir, 'fmt@nowhere')).rejects.toThrow(/no marketplace named "nowhere" has been added \(known: team-tools, second\)/);
    await expect(installPlugin(dirs.homeDir, 'fmt')).rejects.toThrow(/several marketplaces offer "fmt": fmt@team-tools, fmt@second; name one/);
    expect(Object.keys(readManifest(dirs.homeDir).plugins)).toEqual([]);
    await installPlugin(dirs.homeDir, 'fmt@team-tools');
    const clash = await installPlugin(dirs.homeDir, 'fmt@second');
    expect(clash.warnings).toEqual([expect.stringMatching(/a plugin named "fmt" is also installed from team-tools/)]);
    expect(() => setPluginEnabled(dirs.homeDir, 'fmt', false)).toThrow(/several installed plugins are named "fmt": fmt@team-tools, fmt@second; name one/);
  });

  it('a source in a marketplace folder whose name begins with two dots (`./..plugins/fmt`) is inside the marketplace and installs', async () => {
    writePlugin(path.join(market, '..plugins', 'fmt'), 'fmt');
    writeCatalogue(market, 'team-tools', [{ name: 'fmt', source: './..plugins/fmt' }]);
    await addMarketplace(dirs.homeDir, market, dirs.cwd);
    const installed = await installPlugin(dirs.homeDir, 'fmt@team-tools');
    expect(installed.plugin).toMatchObject({ name: 'fmt', from: './..plugins/fmt in team-tools' });
    expect(readFileSync(path.join(installed.plugin.root, 'commands', 'hello.md'), 'utf8')).toContain('Say hello from fmt');
  });

  it('an installed copy the manifest places in a `..old` folder of ~/.mewcode/plugins is removed on uninstall, like any copy there', async () => {
    await addMarketplace(dirs.homeDir, folderMarketplace(), dirs.cwd);
    const { plugin } = await installPlugin(dirs.homeDir, 'fmt@team-tools');
    // The manifest is a file a hand may edit: the copy moved to a folder whose name begins with two dots.
    const moved = path.join(dirs.homeDir, '.mewcode', 'plugins', '..old', 'fmt');
    mkdirSync(path.dirname(moved));
    renameSync(plugin.root, moved);
    writeManifest(dirs.homeDir, { ...readManifest(dirs.homeDir), plugins: { 'fmt@team-tools': { ...plugin, root: moved } } });
    uninstallPlugin(dirs.homeDir, 'fmt@team-tools');
    expect(existsSync(moved)).toBe(false);
  });

  it('links out of the plugin are not copied (with a warning); links inside it are', async () => {
    writePlugin(path.join(market, 'plugins', 'fmt'), 'fmt');
    writeFiles(dirs.homeDir, { 'secret.txt': 'the user\'s own' });
    symlinkSync(path.join(dirs.homeDir, 'secret.txt'), path.join(market, 'plugins', 'fmt', 'commands', 'leak.md'));
    symlinkSync('hello.md', path.join(market, 'plugins', 'fmt', 'commands', 'alias.md'));
    writeCatalogue(market, 'team-tools', [{ name: 'fmt', source: './plugins/fmt' }]);
    await addMarketplace(dirs.homeDir, market, dirs.cwd);
    const { plugin, warnings } = await installPlugin(dirs.homeDir, 'fmt@team-tools');
    expect(warnings).toEqual([expect.stringMatching(/commands\/leak\.md is a link out of the plugin \(to .*secret\.txt\); not copied/)]);
    expect(existsSync(path.join(plugin.root, 'commands', 'leak.md'))).toBe(false);
    expect(readFileSync(path.join(plugin.root, 'commands', 'alias.md'), 'utf8')).toContain('Say hello from fmt');
    expect(readlinkSync(path.join(plugin.root, 'commands', 'alias.md'))).toBe('hello.md'); // the copy's own file
  });

  it('a git-subdir path that is a link out of the repository is refused; nothing is copied or written through it', async () => {
    const victim = path.join(path.dirname(dirs.cwd), 'victim');
    writeFiles(victim, { 'notes.md': 'the user\'s own' });
    const repo = path.join(path.dirname(dirs.cwd), 'linked-repo');
    gitInit(repo);
    writeFiles(repo, { 'README.md': '# repo' });
    symlinkSync(victim, path.join(repo, 'sub'));
    gitCommitAll(repo, 'a link as the plugin folder');
    writeCatalogue(market, 'team-tools', [{ name: 'evil', source: { source: 'git-subdir', url: fileUrl(repo), path: 'sub' }, strict: false, commands: ['./notes.md'] }]);
    await addMarketplace(dirs.homeDir, market, dirs.cwd);
    await expect(installPlugin(dirs.homeDir, 'evil@team-tools')).rejects.toThrow(/plugin "evil": its path sub lies outside the repository/);
    expect(readdirSync(victim)).toEqual(['notes.md']);
    expect(existsSync(path.join(dirs.homeDir, '.mewcode', 'plugins', 'cache', 'team-tools', 'evil'))).toBe(false);
  });

  it('a corrupt manifest is an error naming the file, and it is left exactly as it was', async () => {
    folderMarketplace();
    const file = manifestPath(dirs.homeDir);
    writeFiles(path.dirname(file), { 'installed.json': '{"version": 1, "plugins": ' });
    await expect(addMarketplace(dirs.homeDir, market, dirs.cwd)).rejects.toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON`));
    await expect(installPlugin(dirs.homeDir, 'fmt@team-tools')).rejects.toThrow(/installed\.json is not valid JSON/);
    expect(() => uninstallPlugin(dirs.homeDir, 'fmt')).toThrow(/installed\.json is not valid JSON/);
    const result = enabledPlugins(dirs.cwd, dirs.homeDir, undefined);
    expect(result.roots).toEqual([]);
    expect(result.warnings).toEqual([expect.stringMatching(/installed\.json is not valid JSON.*no installed plugin is used/)]);
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "plugins": ');
    writeFileSync(file, JSON.stringify({ version: 1, marketplaces: {}, plugins: { x: { name: 'y' } } }));
    // A hand-edited record never makes uninstall delete anything outside ~/.mewcode/plugins.
    writeFileSync(file, JSON.stringify({ version: 1, marketplaces: {}, plugins: { 'x@m': { name: 'x', marketplace: 'm', root: market, from: '', installedAt: '', enabled: true } } }));
    expect(uninstallPlugin(dirs.homeDir, 'x@m').name).toBe('x');
    expect(existsSync(path.join(market, '.claude-plugin', 'marketplace.json'))).toBe(true);
    writeFileSync(file, JSON.stringify({ version: 1, marketplaces: {}, plugins: { x: { name: 'y' } } }));
    expect(() => readManifest(dirs.homeDir)).toThrow(/installed\.json is not a MewCode plugin manifest: plugins\["x"\] is not an installed-plugin record/);
  });
});

describe('enabledPlugins and extraKnownMarketplaces in Claude-shaped settings', () => {
  const projectSettings = (value: unknown) => writeFiles(dirs.cwd, { '.claude/settings.json': JSON.stringify(value) });
  const trustOf = (flag: boolean) => createWorkspaceTrust({ projectRoot: dirs.cwd, homeDir: dirs.homeDir, flag });

  beforeEach(async () => {
    await addMarketplace(dirs.homeDir, folderMarketplace(), dirs.cwd);
    await installPlugin(dirs.homeDir, 'fmt@team-tools');
    await installPlugin(dirs.homeDir, 'lint@team-tools');
    setPluginEnabled(dirs.homeDir, 'lint', false);
  });

  it("a project's settings apply only once it is trusted, and the trust notice lists them", async () => {
    projectSettings({ enabledPlugins: { 'lint@team-tools': true, 'fmt@team-tools': false }, extraKnownMarketplaces: { extra: { source: { source: 'github', repo: 'org/extra' } } }, permissions: { allow: ['Bash'] } });
    const untrusted = await trustOf(false);
    const before = enabledPlugins(dirs.cwd, dirs.homeDir, untrusted);
    expect(before.roots.map((r) => r.id)).toEqual(['fmt@team-tools']);
    expect(before.notices).toEqual([]);
    const notice = untrusted.notice()!;
    expect(notice).toContain('.claude/settings.json: enabledPlugins: lint@team-tools, fmt@team-tools (off)');
    expect(notice).toContain('.claude/settings.json: extraKnownMarketplaces: extra (github org/extra)');
    // Its allow rules are read too (by the permission rules), so they wait for trust as well.
    expect(notice).toContain('.claude/settings.json: permissions.allow: Bash');

    const trusted = await trustOf(true);
    const after = enabledPlugins(dirs.cwd, dirs.homeDir, trusted);
    expect(after.roots).toEqual([{ id: 'lint@team-tools', root: expect.stringContaining(path.join('cache', 'team-tools', 'lint')), origin: 'settings' }]);
    expect(after.notices).toEqual([expect.stringMatching(/settings\.json names the plugin marketplace extra, which is not added; to add it: mewcode plugin marketplace add org\/extra/)]);
  });

  it('the local file beats the project file; the user file applies without trust; a plugin enabled but not installed is a notice with the command', async () => {
    writeFiles(dirs.homeDir, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'fmt@team-tools': false, 'ghost@team-tools': true, 'far@elsewhere': true }, extraKnownMarketplaces: { elsewhere: { source: { source: 'git', url: 'https://git.example.com/elsewhere.git' } } } }) });
    projectSettings({ enabledPlugins: { 'lint@team-tools': true } });
    writeFiles(dirs.cwd, { '.claude/settings.local.json': JSON.stringify({ enabledPlugins: { 'lint@team-tools': false } }) });
    const untrusted = enabledPlugins(dirs.cwd, dirs.homeDir, await trustOf(false));
    expect(untrusted.roots).toEqual([]);
    expect(untrusted.notices).toEqual([
      expect.stringMatching(/\.claude\/settings\.json enables the plugin ghost@team-tools, which is not installed; to use it: mewcode plugin install ghost@team-tools$/),
      expect.stringMatching(/enables the plugin far@elsewhere, which is not installed, from the marketplace elsewhere .*to use it: mewcode plugin marketplace add https:\/\/git\.example\.com\/elsewhere\.git && mewcode plugin install far@elsewhere$/),
    ]);
    const trusted = enabledPlugins(dirs.cwd, dirs.homeDir, await trustOf(true));
    expect(trusted.roots).toEqual([]);
    expect(trusted.states.find((s) => s.id === 'lint@team-tools')!.decidedBy!.file).toBe(path.join(dirs.cwd, '.claude', 'settings.local.json'));
  });

  it('a malformed settings file or a bad entry is a warning naming the file; the rest applies', async () => {
    writeFiles(dirs.homeDir, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { lint: true, 'lint@team-tools': 'yes', 'fmt@team-tools': true } }) });
    writeFiles(dirs.cwd, { '.claude/settings.local.json': '{ nope' });
    const result = enabledPlugins(dirs.cwd, dirs.homeDir, await trustOf(true));
    expect(result.warnings).toEqual([
      expect.stringMatching(/home\/\.claude\/settings\.json: enabledPlugins\["lint"\]: a plugin is named "<plugin>@<marketplace>"; skipped/),
      expect.stringMatching(/home\/\.claude\/settings\.json: enabledPlugins\["lint@team-tools"\] must be true or false; skipped/),
      expect.stringMatching(/project\/\.claude\/settings\.local\.json is not valid JSON/),
    ]);
    expect(result.roots.map((r) => r.id)).toEqual(['fmt@team-tools']);
  });
});
