/** The smoke runs of the bench suites besides kernel and tools (smoke-run.ts), one after another. */
import { SMOKE_TIMEOUT_MS, smokeSuite } from './smoke-run.js';

const SUITES: [suite: string, heading: RegExp][] = [
  ['permissions', /^## Permissions: checkPermission/m],
  ['safety', /^## Safety: OS sandbox and workspace trust/m],
  ['sessions', /^## Sessions: resume, append, compaction layer 1/m],
  ['mcp', /^## MCP: start-up with servers, request bytes/m],
  ['hooks', /^## Hooks: PreToolUse cost per call/m],
  ['skills', /^## Skills: a catalog of 200/m],
  ['compaction', /^## Compaction: memory over a/m],
  ['tui', /^## Terminal UI/m],
];

test.each(SUITES)('npm run bench -- --smoke --suite %s: builds, runs and prints its tables', async (suite, heading) => {
  expect(await smokeSuite(suite)).toMatch(heading);
}, SMOKE_TIMEOUT_MS);

test('every bench suite has a smoke run', async () => {
  const { execFileSync } = await import('node:child_process');
  const usage = execFileSync(process.execPath, ['scripts/bench.mjs', '--help'], { encoding: 'utf8' });
  const listed = /--suite ([\w|]+)/.exec(usage)?.[1]?.split('|').filter((suite) => suite !== 'all');
  expect(listed?.sort()).toEqual(['kernel', 'tools', ...SUITES.map(([suite]) => suite)].sort());
});
