// Reading Claude Code plugin directories: the manifest, the default and custom component paths,
// ${CLAUDE_PLUGIN_ROOT}, and every kind of bad input — each a problem naming its file, the rest loading.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { loadBundles } from '../../../plugins/claude-plugins/bundles.js';
import { loadBundle } from '../../../config/claude-plugins/bundle/load-bundle.js';
import { pluginDataDir } from '../../../config/claude-plugins/paths.js';
import { describeClaudePlugin, expandPluginVariables, missingPluginScript, type ClaudePluginBundle, type ClaudePluginRoot } from '../../../types/claude-plugins.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { write, writeKitPlugin } from './fixture.js';

afterAll(() => removeTempDirs());

const HOME = '/home/someone';
const at = (root: string, origin: ClaudePluginRoot['origin'] = 'plugin-dir', id = path.basename(root)): ClaudePluginRoot => ({ id, root, origin });
const load = (root: string, origin: ClaudePluginRoot['origin'] = 'plugin-dir', id?: string): ClaudePluginBundle => loadBundle(at(root, origin, id), HOME);
const manifest = (dir: string, value: unknown): void => write(path.join(dir, '.claude-plugin', 'plugin.json'), typeof value === 'string' ? value : JSON.stringify(value));
const messages = (bundle: ClaudePluginBundle): string[] => bundle.problems.map((p) => `${p.file}: ${p.message}`);

describe('a complete plugin', () => {
  test('metadata, the default folders and files, counts, and variables', () => {
    const dir = temp('cp-kit-');
    writeKitPlugin(dir, { mcp: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.js'] } });
    const bundle = load(dir);
    expect(bundle).toMatchObject({ id: 'kit', name: 'kit', loaded: true, version: '1.2.0', description: 'A kit of everything', author: 'Kit Author', root: dir, origin: 'plugin-dir' });
    expect(bundle.commands).toEqual([path.join(dir, 'commands')]);
    expect(bundle.agents).toEqual([path.join(dir, 'agents')]);
    expect(bundle.skills).toEqual([path.join(dir, 'skills')]);
    expect(bundle.counts).toEqual({ commands: 1, agents: 1, skills: 1, hooks: 1, mcpServers: 1 });
    expect(bundle.variables).toEqual({ CLAUDE_PLUGIN_ROOT: dir, CLAUDE_PLUGIN_DATA: pluginDataDir(HOME, 'kit') });
    expect(bundle.problems).toEqual([]);
    // Expanded in hook commands and MCP entries; exported to the server's environment.
    expect(bundle.hooks[0]!.value).toEqual({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `"${dir}"/scripts/guard.sh`, timeout: 30 }] }] });
    expect(bundle.hooks[0]!.file).toBe(path.join(dir, 'hooks', 'hooks.json'));
    expect(bundle.mcpServers[0]!.value).toEqual({ everything: { command: 'node', args: [`${dir}/server.js`], env: bundle.variables } });
    expect(bundle.mcpServers[0]!.locate(['everything', 'command'])).toEqual({ line: 1, col: expect.any(Number) });
  });

  test('${CLAUDE_PROJECT_DIR} is expanded in MCP entries and exported to servers when the run names its project; a hook command keeps it for its shell to expand from the environment', () => {
    const dir = temp('cp-project-dir-');
    manifest(dir, { name: 'proj', mcpServers: { db: { command: '${CLAUDE_PLUGIN_ROOT}/db', args: ['--data', '${CLAUDE_PROJECT_DIR}/data'] } }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo ${CLAUDE_PROJECT_DIR}' }] }] } });
    const bundle = loadBundle(at(dir), HOME, '/work/project');
    expect(bundle.mcpServers[0]!.value).toEqual({ db: { command: `${dir}/db`, args: ['--data', '/work/project/data'], env: { CLAUDE_PLUGIN_ROOT: dir, CLAUDE_PLUGIN_DATA: pluginDataDir(HOME, 'proj'), CLAUDE_PROJECT_DIR: '/work/project' } } });
    expect(bundle.hooks[0]!.value).toEqual({ Stop: [{ hooks: [{ type: 'command', command: 'echo ${CLAUDE_PROJECT_DIR}' }] }] });
  });

  test('a project folder whose name a shell would run (x$(touch ~/pwned)) is pasted into no MCP entry: the text stays as written and the path is in the environment', () => {
    const dir = temp('cp-project-evil-');
    manifest(dir, { name: 'proj', mcpServers: { s: { command: 'sh', args: ['-c', 'cd "${CLAUDE_PROJECT_DIR}" && exec ./server'] } } });
    const hostile = '/work/x$(touch ~/pwned)';
    const bundle = loadBundle(at(dir), HOME, hostile);
    expect(bundle.mcpServers[0]!.value).toEqual({ s: { command: 'sh', args: ['-c', 'cd "${CLAUDE_PROJECT_DIR}" && exec ./server'], env: { CLAUDE_PLUGIN_ROOT: dir, CLAUDE_PLUGIN_DATA: pluginDataDir(HOME, 'proj'), CLAUDE_PROJECT_DIR: hostile } } });
  });

  test('an installed plugin keeps its name@marketplace id; its data folder is named after it', () => {
    const dir = temp('cp-inst-');
    writeKitPlugin(dir);
    const bundle = load(dir, 'installed', 'kit@team-tools');
    expect(bundle.id).toBe('kit@team-tools');
    expect(bundle.variables.CLAUDE_PLUGIN_DATA).toBe(path.join(HOME, '.mewcode', 'plugins', 'data', 'kit-team-tools'));
  });

  test('without plugin.json the folder name is the plugin name and the default folders are used', () => {
    const dir = path.join(temp('cp-nomanifest-'), 'tools');
    write(path.join(dir, 'commands', 'a.md'), 'A\n');
    write(path.join(dir, 'commands', 'sub', 'b.md'), 'B\n');
    const bundle = load(dir);
    expect(bundle).toMatchObject({ name: 'tools', loaded: true, counts: { commands: 2, agents: 0, skills: 0, hooks: 0, mcpServers: 0 } });
    expect(bundle.problems).toEqual([]);
  });

  test('custom paths: commands and agents replace their default folder (a file works too), skills add to skills/', () => {
    const dir = temp('cp-paths-');
    manifest(dir, { name: 'p', commands: ['./extra-commands', './one.md'], agents: './my-agents', skills: './more-skills' });
    write(path.join(dir, 'commands', 'default.md'), 'not used\n');
    write(path.join(dir, 'extra-commands', 'x.md'), 'X\n');
    write(path.join(dir, 'one.md'), 'One\n');
    write(path.join(dir, 'my-agents', 'a.md'), '---\ndescription: a\n---\nA\n');
    write(path.join(dir, 'skills', 's1', 'SKILL.md'), '---\nname: s1\ndescription: d\n---\nS1\n');
    write(path.join(dir, 'more-skills', 's2', 'SKILL.md'), '---\nname: s2\ndescription: d\n---\nS2\n');
    const bundle = load(dir);
    expect(bundle.commands).toEqual([path.join(dir, 'extra-commands'), path.join(dir, 'one.md')]);
    expect(bundle.agents).toEqual([path.join(dir, 'my-agents')]);
    expect(bundle.skills).toEqual([path.join(dir, 'skills'), path.join(dir, 'more-skills')]);
    expect(bundle.counts).toMatchObject({ commands: 2, agents: 1, skills: 2 });
  });

  test('inline hooks and mcpServers in plugin.json add to the default files (a server in both: plugin.json\'s comes last, so it wins)', () => {
    const dir = temp('cp-inline-');
    manifest(dir, {
      name: 'inl',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo ${CLAUDE_PLUGIN_ROOT}' }] }] },
      mcpServers: { db: { url: 'https://example.com/${CLAUDE_PLUGIN_DATA}' } },
    });
    write(path.join(dir, 'hooks', 'hooks.json'), JSON.stringify({ PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] }));
    write(path.join(dir, '.mcp.json'), JSON.stringify({ db: { command: 'x' } }));
    const bundle = load(dir);
    expect(bundle.hooks.map((part) => part.file)).toEqual([path.join(dir, 'hooks', 'hooks.json'), path.join(dir, '.claude-plugin', 'plugin.json')]);
    expect(bundle.hooks[1]!.value).toEqual({ Stop: [{ hooks: [{ type: 'command', command: `echo ${dir}` }] }] });
    // The inline object's positions are in plugin.json.
    expect(bundle.hooks[1]!.locate(['Stop', 0])).toEqual({ line: 1, col: expect.any(Number) });
    expect(bundle.mcpServers.map((part) => Object.keys(part.value))).toEqual([['db'], ['db']]);
    expect(bundle.mcpServers[1]!.value).toEqual({ db: { url: `https://example.com/${bundle.variables.CLAUDE_PLUGIN_DATA}` } });
    expect(bundle.counts).toMatchObject({ hooks: 2, mcpServers: 1 });
  });

  test('a skills path may name one skill\'s own folder (as marketplace entries do: "./skills/xlsx"); a folder holding no skill is named', () => {
    const dir = temp('cp-skill-dirs-');
    manifest(dir, { name: 'docs', skills: ['./office/xlsx', './office/docx', './skills/pdf', './empty'] });
    write(path.join(dir, 'office', 'xlsx', 'SKILL.md'), '---\nname: xlsx\ndescription: d\n---\nX\n');
    write(path.join(dir, 'office', 'docx', 'SKILL.md'), '---\nname: docx\ndescription: d\n---\nD\n');
    write(path.join(dir, 'skills', 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: d\n---\nP\n');
    mkdirSync(path.join(dir, 'empty'));
    const bundle = load(dir);
    expect(bundle.skills).toEqual([path.join(dir, 'skills')]);
    // pdf is in the default skills/ folder already: counted once.
    expect(bundle.singleSkills).toEqual([path.join(dir, 'office', 'xlsx'), path.join(dir, 'office', 'docx')]);
    expect(bundle.counts.skills).toBe(3);
    expect(messages(bundle)).toEqual([`${path.join(dir, 'empty')}: named by "skills" in plugin.json, but it holds no SKILL.md and no folder with one; left out`]);
  });

  test('a single-skill plugin: a root SKILL.md without skills/', () => {
    const dir = temp('cp-single-');
    manifest(dir, { name: 'single' });
    write(path.join(dir, 'SKILL.md'), '---\nname: single\ndescription: d\n---\nBody\n');
    expect(load(dir)).toMatchObject({ rootSkill: dir, skills: [], counts: { skills: 1 } });
  });
});

describe('bad input: each problem names the file and what is left out; the rest loads', () => {
  test('malformed plugin.json: not loaded, with line and column', () => {
    const dir = temp('cp-bad-json-');
    manifest(dir, '{\n  "name": "x",\n  oops\n}');
    write(path.join(dir, 'commands', 'a.md'), 'A\n');
    const bundle = load(dir);
    expect(bundle.loaded).toBe(false);
    expect(bundle.commands).toEqual([]);
    expect(messages(bundle)).toEqual([expect.stringMatching(new RegExp(`^${escape(path.join(dir, '.claude-plugin', 'plugin.json'))}: not valid JSON \\(.*plugin\\.json:3:\\d+: .*\\); the plugin is not loaded$`))]);
  });

  test('plugin.json that is not an object, or has a bad name: not loaded', () => {
    const list = temp('cp-list-');
    manifest(list, '[]');
    expect(load(list)).toMatchObject({ loaded: false, problems: [{ message: 'plugin.json must be a JSON object, not a list; the plugin is not loaded' }] });
    const named = temp('cp-name-');
    manifest(named, { name: 'has spaces' });
    expect(load(named).loaded).toBe(false);
    expect(messages(load(named))[0]).toContain('"name" must be a plugin name');
    const empty = temp('cp-empty-');
    manifest(empty, '  ');
    expect(messages(load(empty))[0]).toContain('it is empty');
  });

  test('a component key of the wrong type leaves that component out; metadata of the wrong type is ignored; the rest loads', () => {
    const dir = temp('cp-types-');
    manifest(dir, { name: 'typed', version: 3, commands: 42, agents: { not: 'paths' }, author: ['x'] });
    write(path.join(dir, 'commands', 'a.md'), 'A\n');
    write(path.join(dir, 'skills', 's', 'SKILL.md'), '---\nname: s\ndescription: d\n---\nS\n');
    const bundle = load(dir);
    expect(bundle.loaded).toBe(true);
    expect(bundle.commands).toEqual([]);
    expect(bundle.counts.skills).toBe(1);
    const file = path.join(dir, '.claude-plugin', 'plugin.json');
    expect(messages(bundle)).toEqual([
      `${file}: "version" must be a string, not a number; ignored`,
      `${file}: "author" must be { "name": …, "email"?: …, "url"?: … }; ignored`,
      `${file}: "commands" must be a "./path" or a list of paths, not a number; the plugin's commands are not loaded`,
      `${file}: "agents" must be a "./path" or a list of paths, not an object; the plugin's agents are not loaded`,
    ]);
  });

  test('a path that does not start with ./, leads outside the plugin (also through a link), or does not exist: left out, named', () => {
    const outside = temp('cp-outside-');
    write(path.join(outside, 'x.md'), 'X\n');
    const dir = temp('cp-badpaths-');
    symlinkSync(outside, path.join(dir, 'linked'));
    manifest(dir, { name: 'paths', commands: ['commands', './../x', './linked', './missing', './good'] });
    write(path.join(dir, 'good', 'g.md'), 'G\n');
    const bundle = load(dir);
    expect(bundle.commands).toEqual([path.join(dir, 'good')]);
    const file = path.join(dir, '.claude-plugin', 'plugin.json');
    expect(messages(bundle)).toEqual([
      `${file}: "commands": "commands" must be a relative path starting with "./"; left out`,
      `${file}: "commands": "./../x" leads outside the plugin directory; left out`,
      `${file}: "commands": "./linked" leads outside the plugin directory; left out`,
      `${path.join(dir, 'missing')}: named by "commands" in plugin.json, but it does not exist; left out`,
    ]);
  });

  test('a folder of the plugin whose name begins with two dots (`..commands`, `...`) is inside it, also when reached through a link inside', () => {
    const dir = temp('cp-dotdot-');
    write(path.join(dir, '..commands', 'a.md'), 'A\n');
    write(path.join(dir, '...', 'b.md'), 'B\n');
    symlinkSync(path.join(dir, '..commands'), path.join(dir, 'alias'));
    manifest(dir, { name: 'dots', commands: ['./..commands', './...', './alias'] });
    const bundle = load(dir);
    expect(bundle.commands).toEqual([path.join(dir, '..commands'), path.join(dir, '...'), path.join(dir, 'alias')]);
    expect(messages(bundle)).toEqual([]);
  });

  test('a hook whose script is missing is named and not counted; the plugin\'s other hooks load', () => {
    const dir = temp('cp-hookscript-');
    manifest(dir, { name: 'h' });
    write(path.join(dir, 'scripts', 'ok.sh'), '#!/bin/sh\n');
    write(
      path.join(dir, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/gone.sh --x' }, { type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/ok.sh"' }] }] } }),
    );
    const bundle = load(dir);
    expect(bundle.counts.hooks).toBe(1);
    expect(messages(bundle)).toEqual([`${path.join(dir, 'hooks', 'hooks.json')}: hooks.PreToolUse[0].hooks[0]: its script ${path.join(dir, 'scripts', 'gone.sh')} does not exist; this hook is not loaded`]);
  });

  test('hooks.json and .mcp.json that are malformed or of the wrong shape; a server entry that is not an object', () => {
    const dir = temp('cp-json-parts-');
    manifest(dir, { name: 'j', hooks: './more-hooks.json', mcpServers: { good: { command: 'x' }, bad: 'nope' } });
    write(path.join(dir, 'hooks', 'hooks.json'), '{ "hooks": ');
    write(path.join(dir, 'more-hooks.json'), JSON.stringify({ hooks: ['not', 'an', 'object'] }));
    write(path.join(dir, '.mcp.json'), '"a string"');
    write(path.join(dir, 'agents', 'a.md'), '---\ndescription: a\n---\nA\n');
    const bundle = load(dir);
    expect(bundle.loaded).toBe(true);
    expect(bundle.counts).toMatchObject({ agents: 1, hooks: 0, mcpServers: 1 });
    expect(messages(bundle)).toEqual([
      expect.stringMatching(new RegExp(`^${escape(path.join(dir, 'hooks', 'hooks.json'))}: not valid JSON .*; its hooks are not loaded$`)),
      `${path.join(dir, 'more-hooks.json')}: hooks must be an object of event names (PreToolUse, Stop, …) to matcher groups; not loaded`,
      `${path.join(dir, '.mcp.json')}: mcpServers must be an object of server names to servers; not loaded`,
      `${path.join(dir, '.claude-plugin', 'plugin.json')}: MCP server "bad" must be an object ({ "command": … } or { "url": … }); not loaded`,
    ]);
  });

  test('a missing directory, a file instead of a directory, a folder that is no plugin', () => {
    const base = temp('cp-missing-');
    expect(messages(load(path.join(base, 'nope')))).toEqual([`${path.join(base, 'nope')}: the plugin directory does not exist; not loaded`]);
    write(path.join(base, 'file'), 'x');
    expect(load(path.join(base, 'file')).loaded).toBe(false);
    mkdirSync(path.join(base, 'empty'));
    expect(messages(load(path.join(base, 'empty')))[0]).toContain('not a Claude Code plugin: no .claude-plugin/plugin.json and none of commands, agents, skills, hooks/hooks.json, .mcp.json');
  });
});

describe('every source together', () => {
  test('a name two plugins share: the second is not loaded, naming the first; --plugin-dir comes first; the same folder twice loads once; a failing source is named', () => {
    const first = temp('cp-first-');
    writeKitPlugin(first);
    const second = temp('cp-second-');
    manifest(second, { name: 'kit' });
    write(path.join(second, 'commands', 'x.md'), 'X\n');
    const other = temp('cp-other-');
    manifest(other, { name: 'other' });
    write(path.join(other, 'commands', 'y.md'), 'Y\n');
    const bundles = loadBundles(
      [
        { name: 'installed', roots: () => [at(first, 'installed', 'kit@m'), at(second, 'installed', 'kit@n')] },
        { name: '--plugin-dir', roots: () => [at(first), at(other)] },
        { name: 'broken', roots: () => { throw new Error('cannot read the install records'); } },
      ],
      HOME,
    );
    // --plugin-dir first: its copy of a plugin wins over an installed one (the same folder loads once).
    expect(bundles.map((b) => [b.id, b.loaded])).toEqual([['kit', true], ['other', true], ['kit@n', false], ['broken', false]]);
    expect(messages(bundles[2]!)).toEqual([`${second}: the plugin name "kit" is already used by kit (${first}); this one is not loaded`]);
    expect(messages(bundles[3]!)).toEqual(['broken: the source of plugin directories "broken" failed: cannot read the install records']);
  });
});

test('describeClaudePlugin: counts by kind, and the problems', () => {
  const dir = temp('cp-describe-');
  writeKitPlugin(dir);
  const described = describeClaudePlugin(load(dir));
  expect(described).toEqual({ summary: `kit 1.2.0 (plugin-dir, ${dir}): 1 command, 1 agent, 1 skill, 1 hook`, contributes: '1 command, 1 agent, 1 skill, 1 hook', problems: [] });
  const broken = temp('cp-describe-bad-');
  manifest(broken, '{');
  expect(describeClaudePlugin(load(broken)).summary).toBe(`${path.basename(broken)} (plugin-dir, ${broken}): not loaded`);
});

test('expandPluginVariables and missingPluginScript', () => {
  expect(expandPluginVariables('${CLAUDE_PLUGIN_ROOT}/a ${CLAUDE_PLUGIN_DATA} ${OTHER} $CLAUDE_PLUGIN_ROOT', { CLAUDE_PLUGIN_ROOT: '/p', CLAUDE_PLUGIN_DATA: '/d' })).toBe('/p/a /d ${OTHER} $CLAUDE_PLUGIN_ROOT');
  const exists = (file: string): boolean => file === '/p/ok.sh';
  expect(missingPluginScript('"/p/gone.sh" && /p/ok.sh', '/p', exists)).toBe('/p/gone.sh');
  expect(missingPluginScript('sh /p/ok.sh /elsewhere/x', '/p/', exists)).toBeUndefined();
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a key given twice in a plugin JSON file', () => {
  test('plugin.json and .mcp.json are read as JSON is (the last one wins, positions kept), each duplicate a problem naming file, line and key', () => {
    const dir = temp('cp-dupkey-');
    manifest(dir, '{"name": "first",\n "name": "dupkey"}');
    write(path.join(dir, '.mcp.json'), '{"mcpServers": {\n  "a": {"command": "one"},\n  "a": {"command": "two"}\n}}');
    const bundle = load(dir);
    expect(bundle).toMatchObject({ name: 'dupkey', loaded: true });
    expect(bundle.mcpServers[0]!.value).toMatchObject({ a: { command: 'two' } });
    expect(bundle.mcpServers[0]!.locate(['a', 'command'])).toEqual({ line: 3, col: expect.any(Number) });
    expect(messages(bundle)).toEqual([
      `${path.join(dir, '.claude-plugin', 'plugin.json')}: line 2:2: "name" is given twice in this object (first at line 1); the last one is used, as JSON is read`,
      `${path.join(dir, '.mcp.json')}: line 3:3: "a" is given twice in this object (first at line 2); the last one is used, as JSON is read`,
    ]);
  });
});
