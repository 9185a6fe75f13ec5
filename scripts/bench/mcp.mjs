// MCP (issue 11): launch → first model request of the built CLI with MCP servers configured, against
// references measured in the same invocation, interleaved:
//   - the same CLI with no MCP server (the no-MCP figure);
//   - each server's own start-up: spawn → initialize → tools/list answered, timed inside a bare
//     Node process that drives it with the SDK's client (scripts/bench/mcp-init-driver.mjs);
// plus the request bytes with 50 MCP tools, every schema sent vs the search tool.
//
//   node scripts/bench/mcp.mjs [runs]     (needs `npm run build`)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, NODE, ROOT, childEnv, makeTempDir, providerEnv, removeDir, runChild, startTimedServer } from './harness.mjs';
import { median, percentile } from './stats.mjs';

const FAKE = path.join(ROOT, 'test', 'plugins', 'mcp', 'fixtures', 'fake-server.mjs');
const DRIVER = path.join(ROOT, 'scripts', 'bench', 'mcp-init-driver.mjs');
const STARTUP_WAIT_MS = 1500;

const fast = (name, extraEnv = {}) => ({ type: 'stdio', command: NODE, args: [FAKE], env: { FAKE_NO_CHILD: '1', ...extraEnv } });

function writeUserConfig(home, config) {
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(home, '.mewcode', 'config.yaml'), JSON.stringify(config)); // JSON is YAML
}

/** When the first server was spawned, from its log's "started pid" line (ms on the Date.now() clock). */
function firstSpawnAt(home) {
  const root = path.join(home, '.mewcode', 'logs', 'mcp');
  let first = Infinity;
  if (!existsSync(root)) return NaN;
  for (const project of readdirSync(root)) {
    for (const file of readdirSync(path.join(root, project))) {
      for (const line of readFileSync(path.join(root, project, file), 'utf8').split('\n')) {
        if (line.includes(' mewcode: started pid ')) first = Math.min(first, Date.parse(line.slice(0, 24)));
      }
    }
  }
  return first;
}

/** Launch → first request (ms) and the first request's body size, for one configuration. */
async function firstRequest(config) {
  const home = makeTempDir('mewcode-bench-mcp-home-');
  const project = makeTempDir('mewcode-bench-mcp-project-');
  const { server } = await startTimedServer([{ text: 'ok' }]);
  try {
    writeUserConfig(home, config);
    const r = await runChild(NODE, [CLI, '-p', 'hi', '--output-format', 'json'], { cwd: project, env: childEnv(home, providerEnv('anthropic', server.url)) });
    if (r.code !== 0 || server.requests.length !== 1) throw new Error(`mewcode with MCP failed (exit ${r.code}): ${r.stderr || r.stdout}`);
    return { ms: server.requests[0].receivedAt - r.spawnedAt, spawnMs: firstSpawnAt(home) - r.spawnedAt, bytes: Buffer.byteLength(server.requests[0].rawBody), tools: server.requests[0].body.tools?.length ?? 0 };
  } finally {
    await server.close();
    removeDir(home);
    removeDir(project);
  }
}

async function serverInit(count) {
  const r = await runChild(NODE, [DRIVER, String(count), NODE, FAKE], { env: { PATH: process.env.PATH, FAKE_NO_CHILD: '1' } });
  if (r.code !== 0) throw new Error(`mcp-init-driver failed: ${r.stderr}`);
  return JSON.parse(r.stdout).slowestMs;
}

export async function benchMcp({ runs = 10, warmup = 1, progress = () => undefined } = {}) {
  const none = [];
  const three = [];
  const spawnAt = [];
  const ownInit = [];
  const hung = [];
  for (let i = -warmup; i < runs; i++) {
    progress(`mcp: first request ${Math.max(0, i + 1)}/${runs}`);
    const samples = [
      await firstRequest({}),
      await firstRequest({ mcp_servers: { a: fast('a'), b: fast('b'), c: fast('c') } }),
      await serverInit(3),
      await firstRequest({ mcp: { startup_wait_ms: STARTUP_WAIT_MS }, mcp_servers: { fast: fast('fast'), hung: fast('hung', { FAKE_MODE: 'hang' }) } }),
    ];
    if (i < 0) continue; // a warm-up round
    none.push(samples[0].ms);
    three.push(samples[1].ms);
    spawnAt.push(samples[1].spawnMs);
    ownInit.push(samples[2]);
    hung.push(samples[3].ms);
  }
  const many = { type: 'stdio', command: NODE, args: [FAKE], env: { FAKE_NO_CHILD: '1', FAKE_TOOL_COUNT: '45' } }; // + its 5 own tools = 50
  const all = await firstRequest({ mcp: { tool_search: 'never' }, mcp_servers: { tracker: many } });
  const searched = await firstRequest({ mcp: { tool_search: 'always' }, mcp_servers: { tracker: many } });
  const baseline = await firstRequest({});

  const m = median;
  const p90 = (xs) => percentile(xs, 90);
  const ms = (v) => `${v.toFixed(0)} ms`;
  const threeTarget = m(ownInit) + 50;
  // What MCP adds beyond starting the servers and waiting for them: first request − spawn − own start-up.
  const overhead = three.map((v, i) => v - spawnAt[i] - ownInit[i]);
  const hungTarget = m(none) + STARTUP_WAIT_MS;
  const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
  const rows = [
    `| Measurement | Median | p90 | Reference (median, same run) | Ratio | Target | Status |`,
    `| --- | --- | --- | --- | --- | --- | --- |`,
    `| launch → first request, no MCP server | ${ms(m(none))} | ${ms(p90(none))} | — | — | — | — |`,
    `| launch → first request, 3 fast stdio servers | ${ms(m(three))} | ${ms(p90(three))} | the slowest of the 3 servers' own spawn → tools listed: ${ms(m(ownInit))} | ${(m(three) / m(ownInit)).toFixed(2)}× | ≤ ${ms(threeTarget)} (own + 50 ms) | ${m(three) <= threeTarget ? 'met' : '**not met**'} |`,
    `| … of which launch → the first server spawned (config read, kernel booted) | ${ms(m(spawnAt))} | ${ms(p90(spawnAt))} | no MCP server, launch → first request: ${ms(m(none))} | — | — | — |`,
    `| … what MCP adds: first request − spawn − the servers' own start-up | ${ms(m(overhead))} | ${ms(p90(overhead))} | — | — | ≤ 50 ms | ${m(overhead) <= 50 ? 'met' : '**not met**'} |`,
    `| launch → first request, one server that never answers (startup_wait_ms ${STARTUP_WAIT_MS}) | ${ms(m(hung))} | ${ms(p90(hung))} | no MCP server: ${ms(m(none))} | — | ≤ ${ms(hungTarget)} (no-MCP + wait) | ${m(hung) <= hungTarget ? 'met' : '**not met**'} |`,
    `| first request body, 50 MCP tools, every schema sent | ${kib(all.bytes)} (${all.tools} tools) | — | no MCP server: ${kib(baseline.bytes)} | — | — | — |`,
    `| first request body, 50 MCP tools behind mcp_tool_search | ${kib(searched.bytes)} (${searched.tools} tools) | — | every schema: ${kib(all.bytes)} | ${(searched.bytes / all.bytes).toFixed(2)}× | — | — |`,
  ];
  const markdown = `${rows.join('\n')}\n\n${runs} runs of each, interleaved, after one warm-up; every run is a fresh \`mewcode -p hi\` with a temporary HOME whose config.yaml names the servers. The fast server is test/plugins/mcp/fixtures/fake-server.mjs (the SDK's McpServer over stdio, one Node process); "own start-up" is the same three servers spawned and initialised concurrently by a bare Node process with the SDK's client, timed from just before the spawn to the last tools/list answer, so it leaves out that process's own start. The 50-tool rows use one server with 50 tools of four-property schemas.`;
  return { markdown, three: m(three), ownInit: m(ownInit), hung: m(hung), none: m(none) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 10);
  const result = await benchMcp({ runs, progress: (t) => process.stderr.write(`${t}\n`) });
  process.stdout.write(`${result.markdown}\n`);
}
