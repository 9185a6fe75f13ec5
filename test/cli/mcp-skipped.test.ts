/**
 * A `.mcp.json` server MewCode cannot use (a url holding `${VAR}`, which only env and headers
 * expand) is listed by `mewcode mcp list` and `mewcode doctor` with why, not only warned about
 * during a run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING } from '../plugins/mcp/helpers.js';
import { prepareCli, removeTempDirs, runCli, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const env = (home: string) => ({ PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'm', BASE_URL: 'http://127.0.0.1:9' });

function project(): string {
  const cwd = tempDir('mewcode-skip-cwd-');
  writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { api3: { type: 'http', url: '${BASE_URL}/mcp' }, every: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
  return cwd;
}

test.concurrent('`mcp list` lists the skipped server with why', async () => {
  const r = await runCli(['mcp', 'list', '--trust-project'], { cwd: project(), env: env(tempDir('mewcode-skip-home-')) });
  expect(r.stdout).toMatch(/every {2}connected/);
  expect(r.stdout).toMatch(/api3 {2}skipped/);
  expect(r.stdout).toMatch(/is not a URL \(MewCode expands \$\{VAR\} and \$\{VAR:-default\} only in env and headers values\)/);
});

test.concurrent('`doctor` names the skipped server with why', async () => {
  const r = await runCli(['doctor', '--trust-project'], { cwd: project(), env: env(tempDir('mewcode-skip-home-')) });
  expect(r.stdout).toMatch(/warn +mcp +.*api3.*not a URL/);
});
