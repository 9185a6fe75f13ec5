// Several tool calls in one model turn, through the built CLI with its real tools, in a real git
// project (ignore files, 120 source files), against the same build forced sequential
// (`max_tool_concurrency: 1` in the user's config.yaml), interleaved in one invocation:
//   sleeps   4 × bash `sleep 0.3`
//   mixed    10 calls: 4 read_file, 3 grep, 3 read-only bash (git status, ls, wc)
// Each row is the gap the user waits in that turn: response 1's last byte → request 2 fully
// received (stamped in this process). Targets are reported, never asserted.
//
//   node scripts/bench/parallel-tools.mjs [--runs N]      prints a Markdown section to stdout
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CLI, NODE, childEnv, makeGitProject, makeTempDir, providerEnv, removeDir, runChild, startTimedServer } from './harness.mjs';
import { median, ms, ratio } from './stats.mjs';

const bash = (id, command) => ({ id, name: 'bash', input: { command, description: 'bench' } });
const SCENARIOS = {
  sleeps: { label: '4 × bash `sleep 0.3`', calls: [0, 1, 2, 3].map((i) => bash(`s${i}`, 'sleep 0.3')) },
  mixed: {
    label: '10 calls: 4 read_file, 3 grep, 3 bash (git status, ls, wc)',
    calls: [
      ...[0, 1, 2, 3].map((i) => ({ id: `r${i}`, name: 'read_file', input: { path: `src/module${i}/file${i}.ts` } })),
      ...['return', 'export', 'number'].map((pattern, i) => ({ id: `g${i}`, name: 'grep', input: { pattern, path: 'src' } })),
      bash('b0', 'git status --short'),
      bash('b1', 'ls -la src'),
      bash('b2', 'wc -l src/module1/*.ts'),
    ],
  },
};

/** One two-turn `-p` session; returns the tool turn's gap in ms. */
async function toolTurnGap({ home, project, protocol, calls }) {
  const { server, timings } = await startTimedServer([{ text: 'Working.', toolCalls: calls }, { text: 'Done.' }]);
  try {
    const env = childEnv(home, providerEnv(protocol, server.url));
    const r = await runChild(NODE, [CLI, '-p', 'Look around.', '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { cwd: project, env });
    const result = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}');
    if (r.code !== 0 || result.is_error || server.requests.length !== 2) {
      throw new Error(`parallel-tools: the session failed (exit ${r.code}, ${server.requests.length} requests):\n${r.stderr}\n${r.stdout}`);
    }
    const results = server.requests[1].body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [m])).filter((c) => c.type === 'tool_result' || c.role === 'tool');
    if (results.length !== calls.length) throw new Error(`parallel-tools: ${results.length} tool results for ${calls.length} calls`);
    return timings[1]?.bodyEndAt - timings[0]?.finishedAt;
  } finally {
    await server.close();
  }
}

export async function benchParallelTools({ runs = 5, warmup = 1, protocol = 'anthropic', progress = () => {} } = {}) {
  const project = makeGitProject(makeTempDir('mewcode-bench-parallel-'));
  const homes = { parallel: makeTempDir('mewcode-bench-home-'), sequential: makeTempDir('mewcode-bench-home-') };
  mkdirSync(path.join(homes.sequential, '.mewcode'), { recursive: true });
  writeFileSync(path.join(homes.sequential, '.mewcode', 'config.yaml'), 'max_tool_concurrency: 1\n');
  const gaps = {};
  try {
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      gaps[name] = { parallel: [], sequential: [] };
      for (let i = -warmup; i < runs; i++) {
        progress(`parallel tools: ${name} ${Math.max(0, i + 1)}/${runs}`);
        const order = i % 2 === 0 ? ['parallel', 'sequential'] : ['sequential', 'parallel'];
        for (const build of order) {
          const gap = await toolTurnGap({ home: homes[build], project, protocol, calls: scenario.calls });
          if (i >= 0) gaps[name][build].push(gap);
        }
      }
    }
  } finally {
    removeDir(project);
    for (const home of Object.values(homes)) removeDir(home);
  }
  const rows = Object.entries(SCENARIOS).map(([name, scenario]) => {
    const p = median(gaps[name].parallel);
    const s = median(gaps[name].sequential);
    return `| ${scenario.label} | ${ms(p)} | ${ms(s)} | ${ratio(p, s)} |`;
  });
  const markdown = [
    `### Several tool calls in one turn (${protocol}, median of ${runs}, interleaved)`,
    '',
    'The gap the user waits in the tool turn (response 1 → request 2), concurrent by default against the same build with `max_tool_concurrency: 1`.',
    '',
    '| turn | concurrent | sequential | ratio |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
  return { markdown, gaps };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const { markdown } = await benchParallelTools({ runs: Number(values.runs), progress: (t) => process.stderr.write(`${t}\n`) });
  process.stdout.write(`${markdown}\n`);
}
