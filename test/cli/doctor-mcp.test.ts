// `mewcode doctor` (and `mewcode mcp list`) with real MCP servers configured: the report is printed
// whatever the servers do when asked to close. The MCP processes are unref'd (a run must not wait
// for them), so a shutdown waiting on them alone once let Node's event loop empty: the process
// quit with exit 0 and printed nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { EVERYTHING, FAKE_SERVER } from '../plugins/mcp/helpers.js';
import { prepareCli, removeTempDirs, runCli, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const SUMMARY = /\n\d+ ok, \d+ warn, \d+ fail\n$/;

function home(config?: Record<string, unknown>): string {
  const dir = tempDir('mewcode-doctor-mcp-home-');
  if (config) {
    mkdirSync(join(dir, '.mewcode'), { recursive: true });
    writeFileSync(join(dir, '.mewcode', 'config.yaml'), stringify(config));
  }
  return dir;
}

test.concurrent("a Claude Code plugin's .mcp.json given with --plugin-dir: the report is printed", async () => {
  const cwd = tempDir('mewcode-doctor-mcp-cwd-');
  const plugin = tempDir('mewcode-doctor-mcp-plugin-');
  mkdirSync(join(plugin, '.claude-plugin'));
  writeFileSync(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'onlymcp' }));
  writeFileSync(join(plugin, '.mcp.json'), JSON.stringify({ mcpServers: { every: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
  const r = await runCli(['doctor', '--plugin-dir', plugin], { cwd, env: { PATH: process.env.PATH, HOME: home(), ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'm' } });
  expect(r.stdout).toMatch(SUMMARY);
  expect(r.code).toBe(/\n\d+ ok, \d+ warn, 0 fail\n$/.test(r.stdout) ? 0 : 1);
});

test.concurrent("a server in ~/.mewcode/config.yaml that ignores the end of stdin and SIGTERM: the report is printed, the shutdown's deadline bounds the wait", async () => {
  const cwd = tempDir('mewcode-doctor-mcp-cwd-');
  const h = home({ mcp_servers: { stubborn: { type: 'stdio', command: process.execPath, args: [FAKE_SERVER], env: { FAKE_MODE: 'hang', FAKE_NO_CHILD: '1' } } } });
  const started = Date.now();
  const r = await runCli(['doctor'], { cwd, env: { PATH: process.env.PATH, HOME: h, ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'm' } });
  expect(r.stdout).toMatch(SUMMARY);
  expect(r.code).not.toBeNull();
  expect(Date.now() - started).toBeLessThan(30_000);
});

test.concurrent('`mewcode mcp list` with a server that ignores close and one that answers: the list is printed', async () => {
  const cwd = tempDir('mewcode-doctor-mcp-cwd-');
  const stubborn = { type: 'stdio', command: process.execPath, args: [FAKE_SERVER], env: { FAKE_MODE: 'hang', FAKE_NO_CHILD: '1' }, connect_timeout_ms: 1000 };
  const h = home({ mcp_servers: { stubborn, every: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
  const r = await runCli(['mcp', 'list'], { cwd, env: { PATH: process.env.PATH, HOME: h, ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'm' } });
  expect(r.stdout).toContain('stubborn');
  expect(r.stdout).toContain('every');
});
