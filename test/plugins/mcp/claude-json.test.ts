/**
 * `~/.claude.json`, where `claude mcp add` stores the user's servers: its `mcpServers` (user
 * scope) and `projects[<project path>].mcpServers` (local scope) are read as Claude Code reads
 * them — the user's own private file, so no workspace trust — below MewCode's own files of the
 * same scope; another project's entry is not used; a bad file is said, naming it.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../config/load.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { loadServerSources } from '../../../plugins/mcp/server-sources.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterEach(removeTempDirs);

async function load(claudeJson: (root: string) => unknown, user?: string, userFiles = true) {
  const root = realpathSync(tempDir('mewcode-cj-root-'));
  const home = realpathSync(tempDir('mewcode-cj-home-'));
  const body = claudeJson(root);
  writeFileSync(path.join(home, '.claude.json'), typeof body === 'string' ? body : JSON.stringify(body));
  if (user !== undefined) {
    mkdirSync(path.join(home, '.mewcode'));
    writeFileSync(path.join(home, '.mewcode', 'config.yaml'), user);
  }
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: false });
  const config = await loadConfig({ cwd: root, homeDir: home, trust });
  const warnings: string[] = [];
  const sources = await loadServerSources({ config, trust, projectRoot: root, homeDir: home, userFiles, env: { TOKEN: 't' }, warn: (m) => warnings.push(m) });
  return { ...sources, warnings, root, home };
}

const server = (arg: string) => ({ command: 'node', args: [arg] });

test('user-scope and this project\'s local-scope servers are used, untrusted project or not; another project\'s are not', async () => {
  const { servers, untrusted, warnings, home } = await load((root) => ({
    mcpServers: { mine: server('user.js') },
    projects: { [root]: { mcpServers: { here: { ...server('local.js'), env: { K: '${TOKEN}' } } } }, '/elsewhere': { mcpServers: { other: server('other.js') } } },
    history: [],
  }));
  expect(warnings).toEqual([]);
  expect(untrusted).toEqual([]);
  const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
  expect(Object.keys(byName).sort()).toEqual(['here', 'mine']);
  expect(byName.mine).toMatchObject({ type: 'stdio', command: 'node', args: ['user.js'], scope: 'user' });
  expect(byName.here).toMatchObject({ args: ['local.js'], env: { K: 't' }, scope: 'local' });
  expect(byName.mine!.where).toContain(path.join(home, '.claude.json'));
});

test('a server of the same name in ~/.mewcode/config.yaml wins over the user scope of ~/.claude.json; local scope wins over both', async () => {
  const { servers } = await load(
    (root) => ({ mcpServers: { a: server('claude-user.js'), b: server('claude-user.js') }, projects: { [root]: { mcpServers: { b: server('claude-local.js') } } } }),
    'mcp_servers:\n  a:\n    type: stdio\n    command: mine\n  b:\n    type: stdio\n    command: mine\n',
  );
  const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
  expect(byName.a).toMatchObject({ command: 'mine' });
  expect(byName.b).toMatchObject({ args: ['claude-local.js'] });
});

test('a run that does not read the user\'s settings (settingSources without user) leaves the file alone', async () => {
  const { servers } = await load(() => ({ mcpServers: { mine: server('user.js') } }), undefined, false);
  expect(servers).toEqual([]);
});

test('a file that is not JSON, or an mcpServers that is not an object, is said naming the file; a bad entry alone is skipped', async () => {
  const broken = await load(() => '{ not json');
  expect(broken.servers).toEqual([]);
  expect(broken.warnings.join('\n')).toMatch(/\.claude\.json.*MCP servers/);
  const bad = await load(() => ({ mcpServers: { ok: server('x.js'), nocommand: { type: 'stdio' } } }));
  expect(bad.servers.map((s) => s.name)).toEqual(['ok']);
  expect(bad.warnings.join('\n')).toContain('nocommand');
});
