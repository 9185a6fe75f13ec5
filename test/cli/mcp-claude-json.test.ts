/**
 * Servers `claude mcp add` stored in `~/.claude.json` (user scope: `mcpServers`; local scope:
 * `projects[<path>].mcpServers`) through the built CLI: `mewcode mcp list` lists and starts them
 * without workspace trust; `mewcode mcp add|add-json|remove|get` say where a server goes instead
 * of a bare unknown option.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING } from '../plugins/mcp/helpers.js';
import { prepareCli, removeTempDirs, runCli, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const env = (home: string) => ({ PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'm' });

test.concurrent('`mcp list` lists and connects the user-scope and local-scope servers of ~/.claude.json', async () => {
  const cwd = realpathSync(tempDir('mewcode-cj-cwd-'));
  const home = realpathSync(tempDir('mewcode-cj-home-'));
  const every = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { userglobal: every }, projects: { [cwd]: { mcpServers: { localscope: every } } } }));
  const r = await runCli(['mcp', 'list'], { cwd, env: env(home) });
  expect(r.stdout).toMatch(/userglobal {2}connected/);
  expect(r.stdout).toMatch(/localscope {2}connected/);
  expect(r.stdout).toContain('.claude.json');
  expect(r.code).toBe(0);
});

test.concurrent.each([
  [['mcp', 'add', '--transport', 'http', 'notion', 'https://mcp.notion.com/mcp']],
  [['mcp', 'add-json', 'mem', '{"command":"node"}']],
  [['mcp', 'remove', 'mem']],
  [['mcp', 'get', 'mem']],
])('%j says where a server is configured instead', async (args) => {
  const cwd = tempDir('mewcode-cj-cwd-');
  const r = await runCli(args, { cwd, env: env(tempDir('mewcode-cj-home-')) });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`mcp ${args[1]}`);
  expect(r.stderr).toContain('mcp_servers:');
  expect(r.stderr).toContain('.mcp.json');
  expect(r.stderr).toContain('~/.claude.json');
  expect(r.stderr).not.toContain('Unknown option');
});
