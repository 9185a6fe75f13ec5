/**
 * Claude Code's `disabledMcpjsonServers` (in ~/.claude/settings.json, .claude/settings.json or
 * .claude/settings.local.json): the named `.mcp.json` server is not started, even in a trusted
 * project (it is listed as disabled). `enabledMcpjsonServers` / `enableAllProjectMcpServers` are
 * Claude Code's approval, which workspace trust is here: none of the three is called "ignored".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { loadServerSources } from '../../../plugins/mcp/server-sources.js';
import { bootRules, tempDirs } from '../permission-rules/helpers.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterEach(removeTempDirs);

function put(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

const MCP_JSON = { mcpServers: { kept: { command: 'node', args: ['a.js'] }, off: { command: 'node', args: ['b.js'] }, alsoOff: { command: 'node', args: ['c.js'] } } };

async function sources(settings: { user?: unknown; project?: unknown; local?: unknown }) {
  const root = tempDir('mewcode-mcp-switch-root-');
  const home = tempDir('mewcode-mcp-switch-home-');
  put(path.join(root, '.mcp.json'), MCP_JSON);
  if (settings.user) put(path.join(home, '.claude', 'settings.json'), settings.user);
  if (settings.project) put(path.join(root, '.claude', 'settings.json'), settings.project);
  if (settings.local) put(path.join(root, '.claude', 'settings.local.json'), settings.local);
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true });
  const warnings: string[] = [];
  const loaded = await loadServerSources({ config: undefined, trust, projectRoot: root, homeDir: home, env: {}, warn: (m) => warnings.push(m) });
  return { ...loaded, warnings, root, home };
}

const enabled = (servers: readonly { name: string; enabled: boolean }[]) => Object.fromEntries(servers.map((s) => [s.name, s.enabled]));

test('a server named in disabledMcpjsonServers (user or local file) is not started, in a trusted project', async () => {
  const { servers, home, root } = await sources({ user: { disabledMcpjsonServers: ['off'] }, local: { disabledMcpjsonServers: ['alsoOff'], enableAllProjectMcpServers: true } });
  expect(enabled(servers)).toEqual({ kept: true, off: false, alsoOff: false });
  expect(servers.find((s) => s.name === 'off')!.where).toContain(path.join(home, '.claude', 'settings.json'));
  expect(servers.find((s) => s.name === 'alsoOff')!.where).toContain(path.join(root, '.claude', 'settings.local.json'));
});

test("the project's own file may disable too (it only takes away); a malformed list is said", async () => {
  const { servers } = await sources({ project: { disabledMcpjsonServers: ['off'] } });
  expect(enabled(servers)).toEqual({ kept: true, off: false, alsoOff: true });
  const bad = await sources({ user: { disabledMcpjsonServers: 'off' } });
  expect(enabled(bad.servers)).toEqual({ kept: true, off: true, alsoOff: true });
  expect(bad.warnings.find((w) => w.includes('disabledMcpjsonServers must be a list'))).toBeDefined();
});

test('the notice of ignored Claude Code keys does not name the MCP switches', async () => {
  const dirs = tempDirs();
  try {
    put(path.join(dirs.home, '.claude', 'settings.json'), { env: { A: '1' }, disabledMcpjsonServers: ['x'], enabledMcpjsonServers: ['y'], enableAllProjectMcpServers: true });
    const { reporter } = await bootRules(dirs);
    const notice = reporter.warnings.find((w) => w.includes('no equivalent'));
    expect(notice).toContain('env');
    expect(notice).not.toMatch(/McpjsonServers|enableAllProjectMcpServers/);
  } finally {
    dirs.cleanup();
  }
});
