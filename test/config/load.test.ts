import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createWorkspaceTrust, loadConfig } from '../../config/index.js';
import { type TempDirs, lines, makeTempDirs } from './helpers.js';

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

// These tests are about discovery and merging, so the project is trusted for the run; what an
// untrusted project loses is tested in trust.test.ts.
const load = async () =>
  loadConfig({ cwd: dirs.cwd, homeDir: dirs.homeDir, trust: await createWorkspaceTrust({ projectRoot: dirs.cwd, homeDir: dirs.homeDir, flag: true }) });

describe('loadConfig: which layers to read (the programmatic API\'s settingSources)', () => {
  it('reads only the layers asked for, and none when the list is empty', async () => {
    const user = await dirs.write(dirs.homeDir, '.mewcode/config.yaml', lines('a: user', 'u: 1'));
    const project = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('a: project', 'p: 1'));
    const local = await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', lines('a: local', 'l: 1'));
    const trust = await createWorkspaceTrust({ projectRoot: dirs.cwd, homeDir: dirs.homeDir, flag: true });
    const read = (layers: ('user' | 'project' | 'local')[]) => loadConfig({ cwd: dirs.cwd, homeDir: dirs.homeDir, trust, layers });
    const none = await read([]);
    expect(none.layers).toEqual([]);
    expect(none.section('a')).toBeUndefined();
    const userOnly = await read(['user']);
    expect(userOnly.layers.map((l) => l.file)).toEqual([user]);
    expect([userOnly.section('a'), userOnly.section('p')]).toEqual(['user', undefined]);
    const projectAndLocal = await read(['project', 'local']);
    expect(projectAndLocal.layers.map((l) => l.file)).toEqual([project, local]);
    expect([projectAndLocal.section('a'), projectAndLocal.section('u')]).toEqual(['local', undefined]);
    expect((await loadConfig({ cwd: dirs.cwd, homeDir: dirs.homeDir, trust })).layers.map((l) => l.file)).toEqual([user, project, local]);
  });
});

describe('loadConfig: discovery', () => {
  it('returns an empty configuration when no file exists', async () => {
    const config = await load();
    expect(config.layers).toEqual([]);
    expect(config.warnings).toEqual([]);
    expect(config.section('agent')).toBeUndefined();
    expect(config.locate(['agent'])).toBeUndefined();
  });

  it('loads the user layer alone', async () => {
    const file = await dirs.write(dirs.homeDir, '.mewcode/config.yaml', lines('agent:', '  model: user-model'));
    const config = await load();
    expect(config.layers).toEqual([{ layer: 'user', file, loaded: true }]);
    expect(config.section('agent')).toEqual({ model: 'user-model' });
    expect(config.warnings).toEqual([]);
  });

  it('loads the user layer from config.yml and config.json', async () => {
    const yml = await dirs.write(dirs.homeDir, '.mewcode/config.yml', 'a: 1\n');
    expect((await load()).layers).toEqual([{ layer: 'user', file: yml, loaded: true }]);
    await dirs.cleanup();
    dirs = await makeTempDirs();
    const json = await dirs.write(dirs.homeDir, '.mewcode/config.json', '{"a": 2}');
    const config = await load();
    expect(config.layers).toEqual([{ layer: 'user', file: json, loaded: true }]);
    expect(config.section('a')).toBe(2);
  });

  it('loads the project layer alone', async () => {
    const file = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('agent:', '  model: project-model'));
    const config = await load();
    expect(config.layers).toEqual([{ layer: 'project', file, loaded: true }]);
    expect(config.section('agent')).toEqual({ model: 'project-model' });
  });

  it('finds the project file in .mewcode/config.yaml', async () => {
    const file = await dirs.write(dirs.cwd, '.mewcode/config.yaml', 'x: in-folder\n');
    const config = await load();
    expect(config.layers).toEqual([{ layer: 'project', file, loaded: true }]);
    expect(config.section('x')).toBe('in-folder');
  });

  it('takes the first project file found, in search order', async () => {
    await dirs.write(dirs.cwd, '.mewcode/config.yaml', 'x: folder\n');
    await dirs.write(dirs.cwd, '.mewcode.json', '{"x": "json"}');
    const yml = await dirs.write(dirs.cwd, '.mewcode.yml', 'x: yml\n');
    const config = await load();
    expect(config.layers).toEqual([{ layer: 'project', file: yml, loaded: true }]);
    expect(config.section('x')).toBe('yml');
  });

  it('treats an empty file as an empty configuration that still wins the search', async () => {
    const empty = await dirs.write(dirs.cwd, '.mewcode.yaml', '');
    await dirs.write(dirs.cwd, '.mewcode.json', '{"x": "json"}');
    const config = await load();
    expect(config.layers).toEqual([{ layer: 'project', file: empty, loaded: true }]);
    expect(config.section('x')).toBeUndefined();
    expect(config.warnings).toEqual([]);
  });

  it('treats a file of comments only as an empty configuration', async () => {
    const file = await dirs.write(dirs.cwd, '.mewcode.yaml', '# nothing yet\n');
    const config = await load();
    expect(config.layers).toEqual([{ layer: 'project', file, loaded: true }]);
    expect(config.warnings).toEqual([]);
  });

  it('loads the local layer alone', async () => {
    const file = await dirs.write(dirs.cwd, '.mewcode/config.local.yml', 'agent:\n  model: local-model\n');
    const config = await load();
    // A local file is the project's for trust (whatever git says of it): listed as a project layer.
    expect(config.layers).toEqual([{ layer: 'project', file, loaded: true }]);
    expect(config.section('agent')).toEqual({ model: 'local-model' });
  });

  it('does not look in parent directories', async () => {
    await dirs.write(dirs.cwd, '../.mewcode.yaml', 'x: parent\n');
    const config = await load();
    expect(config.layers).toEqual([]);
  });

  it('reads ~/.mewcode/config.yaml once when the working directory is the home directory', async () => {
    const file = await dirs.write(dirs.homeDir, '.mewcode/config.yaml', 'plugins: [a]\n');
    const config = await loadConfig({ cwd: dirs.homeDir, homeDir: dirs.homeDir });
    expect(config.layers).toEqual([{ layer: 'user', file, loaded: true }]);
    expect(config.section('plugins')).toEqual(['a']);
  });

  it('lists the layers lowest first, and reads fresh content on each load', async () => {
    const user = await dirs.write(dirs.homeDir, '.mewcode/config.yaml', 'x: 1\n');
    const project = await dirs.write(dirs.cwd, '.mewcode.json', '{"x": 2}');
    const local = await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', 'x: 3\n');
    const config = await load();
    expect(config.layers).toEqual([
      { layer: 'user', file: user, loaded: true },
      { layer: 'project', file: project, loaded: true },
      { layer: 'project', file: local, loaded: true },
    ]);
    expect(config.section('x')).toBe(3);
    await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', 'x: 4\n');
    expect((await load()).section('x')).toBe(4);
  });
});

describe('loadConfig: merging', () => {
  it('applies precedence user < project < local, deep-merging mappings and replacing arrays', async () => {
    await dirs.write(
      dirs.homeDir,
      '.mewcode/config.yaml',
      lines('agent:', '  model: user-model', '  max_turns: 10', '  tags: [u1, u2]', '  nested: {a: 1, b: 1}', 'theme: dark'),
    );
    await dirs.write(
      dirs.cwd,
      '.mewcode.yaml',
      lines('agent:', '  model: project-model', '  tags: [p1]', '  nested: {b: 2}', 'theme: light'),
    );
    await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', lines('agent:', '  model: local-model', '  nested: {c: 3}'));
    const config = await load();
    expect(config.section('agent')).toEqual({
      model: 'local-model',
      max_turns: 10,
      tags: ['p1'],
      nested: { a: 1, b: 2, c: 3 },
    });
    expect(config.section('theme')).toBe('light');
    expect(config.warnings).toEqual([]);
  });

  it('lets an explicit null or a value of another kind replace the lower value', async () => {
    await dirs.write(dirs.homeDir, '.mewcode/config.yaml', lines('a: {x: 1}', 'b: [1]', 'c: 5'));
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('a: [1]', 'b: {x: 1}', 'c:'));
    const config = await load();
    expect(config.section('a')).toEqual([1]);
    expect(config.section('b')).toEqual({ x: 1 });
    expect(config.section('c')).toBeNull();
  });

  it('merges providers by name and appends new names in layer order', async () => {
    await dirs.write(
      dirs.homeDir,
      '.mewcode/config.yaml',
      lines('providers:', '  - name: anthropic', '    model: claude-user', '  - name: ollama', '    base_url: http://localhost:11434'),
    );
    await dirs.write(
      dirs.cwd,
      '.mewcode.yaml',
      lines(
        'providers:',
        '  - name: openai',
        '    model: gpt-project',
        '    headers: {X-A: a}',
        '  - name: anthropic',
        '    model: claude-project',
      ),
    );
    await dirs.write(
      dirs.cwd,
      '.mewcode/config.local.yaml',
      lines('providers:', '  - name: openai', '    api_key: ${OPENAI_KEY}', '    headers: {X-B: b}', '  - name: local-only'),
    );
    const config = await load();
    expect(config.section('providers')).toEqual([
      { name: 'anthropic', model: 'claude-project' },
      { name: 'ollama', base_url: 'http://localhost:11434' },
      { name: 'openai', model: 'gpt-project', headers: { 'X-A': 'a', 'X-B': 'b' }, api_key: '${OPENAI_KEY}' },
      { name: 'local-only' },
    ]);
    expect(config.warnings).toEqual([]);
  });

  it('merges two same-named providers of one file with a warning', async () => {
    const file = await dirs.write(
      dirs.cwd,
      '.mewcode.yaml',
      lines('providers:', '  - name: a', '    model: m1', '  - name: a', '    api_key: k'),
    );
    const config = await load();
    expect(config.section('providers')).toEqual([{ name: 'a', model: 'm1', api_key: 'k' }]);
    expect(config.warnings).toEqual([
      `config: ${file}:4:5: providers[1]: "a" is declared twice in this file; the entries are merged`,
    ]);
  });

  it('keeps providers entries without a name as they are', async () => {
    await dirs.write(dirs.homeDir, '.mewcode/config.yaml', lines('providers:', '  - model: x'));
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('providers:', '  - model: x', '  - 42'));
    const config = await load();
    expect(config.section('providers')).toEqual([{ model: 'x' }, { model: 'x' }, 42]);
  });

  it('unites plugins and disable in layer order without duplicates', async () => {
    await dirs.write(dirs.homeDir, '.mewcode/config.yaml', lines('plugins: [a, b]', 'disable: [x]'));
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('plugins: [b, c, c]', 'disable: [y, x]'));
    await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', lines('plugins: [d, a]', 'disable: [z]'));
    const config = await load();
    expect(config.section('plugins')).toEqual(['a', 'b', 'c', 'd']);
    expect(config.section('disable')).toEqual(['x', 'y', 'z']);
  });

  it('replaces an MCP server of the same name whole and keeps the others', async () => {
    await dirs.write(
      dirs.homeDir,
      '.mewcode/config.yaml',
      lines(
        'mcp_servers:',
        '  files:',
        '    type: stdio',
        '    command: user-files',
        '    env: {A: "1"}',
        '  docs:',
        '    type: http',
        '    url: http://docs',
      ),
    );
    await dirs.write(
      dirs.cwd,
      '.mewcode.yaml',
      lines('mcp_servers:', '  files:', '    type: http', '    url: http://project-files', '  extra:', '    type: stdio', '    command: e'),
    );
    const config = await load();
    expect(config.section('mcp_servers')).toEqual({
      files: { type: 'http', url: 'http://project-files' },
      docs: { type: 'http', url: 'http://docs' },
      extra: { type: 'stdio', command: 'e' },
    });
  });

  it('returns a fresh copy from section() on each call', async () => {
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('agent:', '  tags: [a]'));
    const config = await load();
    const first = config.section('agent') as { tags: string[] };
    first.tags.push('mutated');
    expect(config.section('agent')).toEqual({ tags: ['a'] });
  });

  it('keeps a key named __proto__ as plain data', async () => {
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('agent:', '  __proto__: {polluted: true}'));
    const config = await load();
    const agent = config.section('agent') as Record<string, unknown>;
    expect(Object.keys(agent)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('loadConfig: broken files', () => {
  it('reports a YAML syntax error with file:line:col and still loads user and local', async () => {
    await dirs.write(dirs.homeDir, '.mewcode/config.yaml', 'plugins: [from-user]\n');
    const project = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('agent:', '  model: x', '  tags: [a, b', 'other: 1'));
    await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', 'plugins: [from-local]\n');
    const config = await load();
    const error = `config: ${project}:4:1: Flow sequence in block collection must be sufficiently indented and end with a ]`;
    expect(config.warnings).toEqual([error]);
    expect(config.layers.map(({ layer, loaded }) => [layer, loaded])).toEqual([
      ['user', true],
      ['project', false],
      ['project', true],
    ]);
    expect(config.layers[1]).toEqual({ layer: 'project', file: project, loaded: false, error });
    expect(config.section('plugins')).toEqual(['from-user', 'from-local']);
    expect(config.section('agent')).toBeUndefined();
  });

  it('reports a bad indentation error at its line', async () => {
    const project = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('a:', '  b: 1', ' c: 2'));
    const config = await load();
    expect(config.warnings).toEqual([`config: ${project}:3:1: All mapping items must start at the same column`]);
  });

  it('reports a duplicate key', async () => {
    const project = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('a: 1', 'a: 2'));
    const config = await load();
    expect(config.warnings).toEqual([`config: ${project}:2:1: Map keys must be unique`]);
  });

  it('rejects a file whose top level is not a mapping', async () => {
    await dirs.write(dirs.homeDir, '.mewcode/config.yaml', 'x: user\n');
    const project = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('# a list', '- a', '- b'));
    const local = await dirs.write(dirs.cwd, '.mewcode/config.local.json', '"just a string"');
    const config = await load();
    expect(config.warnings).toEqual([
      `config: ${project}:2:1: the top level must be a mapping of section names to values, found a list`,
      `config: ${local}:1:1: the top level must be a mapping of section names to values, found a single value`,
    ]);
    expect(config.layers.map((layer) => layer.loaded)).toEqual([true, false, false]);
    expect(config.section('x')).toBe('user');
  });

  it('reports a JSON syntax error in JSON terms, with its position', async () => {
    await dirs.write(dirs.homeDir, '.mewcode/config.yaml', 'x: user\n');
    const project = await dirs.write(dirs.cwd, '.mewcode.json', '{\n  "x": 1,\n}\n');
    const config = await load();
    expect(config.warnings).toEqual([`config: ${project}:3:1: invalid JSON: Expected double-quoted property name`]);
    expect(config.section('x')).toBe('user');
  });

  it('locates JSON errors for which V8 gives no position', async () => {
    const project = await dirs.write(dirs.cwd, '.mewcode.json', '{\n  "a": [1, 2],\n  "b": tru\n}\n');
    const config = await load();
    expect(config.warnings).toEqual([`config: ${project}:3:11: invalid JSON: Unexpected token '\\n'`]);
  });

  it('refuses YAML-only syntax in a .json file', async () => {
    const project = await dirs.write(dirs.cwd, '.mewcode.json', "{'a': 1}");
    const config = await load();
    expect(config.warnings).toEqual([`config: ${project}:1:2: invalid JSON: Expected property name or '}'`]);
  });
});

describe('loadConfig: JSON files', () => {
  it('loads a JSON project file with positions', async () => {
    const file = await dirs.write(
      dirs.cwd,
      '.mewcode.json',
      '{\n  "providers": [\n    {"name": "openai", "max_tokens": 1000}\n  ],\n  "plugins": ["p"]\n}\n',
    );
    const config = await load();
    expect(config.section('providers')).toEqual([{ name: 'openai', max_tokens: 1000 }]);
    expect(config.section('plugins')).toEqual(['p']);
    expect(config.locate(['providers', 0, 'max_tokens'])).toBe(`${file}:3:38`);
    expect(config.locate(['providers', 0])).toBe(`${file}:3:5`);
    expect(config.locate(['plugins', 0])).toBe(`${file}:5:15`);
  });
});

describe('ResolvedConfig.locate', () => {
  it('locates nested keys and list items (1-based)', async () => {
    const file = await dirs.write(
      dirs.cwd,
      '.mewcode.yaml',
      lines(
        '# comment',
        'agent:',
        '  model: some-model',
        '  limits:',
        '    max_turns: 12',
        'plugins:',
        '  - first',
        '  - "second"',
        'empty:',
      ),
    );
    const config = await load();
    expect(config.locate(['agent'])).toBe(`${file}:3:3`);
    expect(config.locate(['agent', 'model'])).toBe(`${file}:3:10`);
    expect(config.locate(['agent', 'limits', 'max_turns'])).toBe(`${file}:5:16`);
    expect(config.locate(['plugins'])).toBe(`${file}:7:3`);
    expect(config.locate(['plugins', 1])).toBe(`${file}:8:5`);
    expect(config.locate(['plugins', '1'])).toBe(`${file}:8:5`);
    // a key without a value is located at the key
    expect(config.locate(['empty'])).toBe(`${file}:9:1`);
  });

  it('falls back to the nearest existing ancestor, and finds nothing for an absent section', async () => {
    const file = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('agent:', '  limits: {a: 1}', 'plugins: [x]'));
    const config = await load();
    expect(config.locate(['agent', 'limits', 'missing'])).toBe(`${file}:2:11`);
    expect(config.locate(['agent', 'nope', 'deeper'])).toBe(`${file}:2:3`);
    expect(config.locate(['plugins', 5])).toBe(`${file}:3:10`);
    expect(config.locate(['plugins', 0, 'x'])).toBe(`${file}:3:11`);
    expect(config.locate(['absent', 'x'])).toBeUndefined();
    expect(config.locate([])).toBeUndefined();
  });

  it('locates the value that won the merge in its own file', async () => {
    const user = await dirs.write(dirs.homeDir, '.mewcode/config.yaml', lines('agent:', '  model: u', '  max_turns: 5'));
    const local = await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', lines('', 'agent:', '    model: l'));
    const config = await load();
    expect(config.locate(['agent', 'model'])).toBe(`${local}:3:12`);
    expect(config.locate(['agent', 'max_turns'])).toBe(`${user}:3:14`);
    expect(config.locate(['agent'])).toBe(`${local}:3:5`);
  });

  it('maps merged providers back to their layer and index', async () => {
    const user = await dirs.write(
      dirs.homeDir,
      '.mewcode/config.yaml',
      lines('providers:', '  - name: a', '    model: from-user', '  - name: b', '    model: b-user'),
    );
    const project = await dirs.write(
      dirs.cwd,
      '.mewcode.yaml',
      lines('providers:', '  - name: c', '    model: c-project', '  - name: a', '    max_tokens: 7'),
    );
    const local = await dirs.write(dirs.cwd, '.mewcode/config.local.yaml', lines('providers:', '  - name: a', '    api_key: k'));
    const config = await load();
    expect(config.section('providers')).toEqual([
      { name: 'a', model: 'from-user', max_tokens: 7, api_key: 'k' },
      { name: 'b', model: 'b-user' },
      { name: 'c', model: 'c-project' },
    ]);
    expect(config.locate(['providers', 0, 'model'])).toBe(`${user}:3:12`);
    expect(config.locate(['providers', 0, 'max_tokens'])).toBe(`${project}:5:17`);
    expect(config.locate(['providers', 0, 'api_key'])).toBe(`${local}:3:14`);
    expect(config.locate(['providers', 0])).toBe(`${local}:2:5`);
    expect(config.locate(['providers', 1, 'model'])).toBe(`${user}:5:12`);
    expect(config.locate(['providers', 2])).toBe(`${project}:2:5`);
    expect(config.locate(['providers', 2, 'missing'])).toBe(`${project}:2:5`);
    expect(config.locate(['providers'])).toBe(`${local}:2:3`);
  });

  it('locates a value reached through a YAML alias at the alias', async () => {
    const file = await dirs.write(dirs.cwd, '.mewcode.yaml', lines('base: &b {model: m}', 'agent: *b'));
    const config = await load();
    expect(config.section('agent')).toEqual({ model: 'm' });
    expect(config.locate(['agent'])).toBe(`${file}:2:8`);
    expect(config.locate(['agent', 'model'])).toBe(`${file}:1:18`);
  });
});
