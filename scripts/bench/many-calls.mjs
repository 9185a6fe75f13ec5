// A long session of real tool calls: 500 calls in one run (read_file, grep, glob and bash in
// turn, in a real git project with ignore files), with compaction off, through the built package
// in a child process against the scripted server. Reported: the child's RSS after 100, 250 and
// 500 calls, the growth per 100 calls between the 100th and the 500th, and the turn gap's trend
// (median of the first 50 gaps against the last 50). Targets are reported, never asserted.
//
//   node scripts/bench/many-calls.mjs [--calls N]      prints a Markdown section to stdout
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { NODE, childEnv, makeGitProject, makeTempDir, providerEnv, removeDir, runChild, startTimedServer } from './harness.mjs';
import { median, ms } from './stats.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Growth the issue allows per 100 calls with compaction off. */
export const TARGET_MIB_PER_100 = 8;

function callFor(i) {
  const module = i % 12;
  switch (i % 4) {
    case 0: return { name: 'read_file', input: { path: `src/module${module}/file${module}.ts` } };
    case 1: return { name: 'grep', input: { pattern: `f${i % 120}\\b`, path: 'src' } };
    case 2: return { name: 'glob', input: { pattern: `src/module${module}/*.ts` } };
    default: return { name: 'bash', input: { command: i % 8 === 3 ? 'git status --short' : `wc -l src/module${module}/*.ts`, description: 'bench' } };
  }
}

function turns(calls) {
  const all = [];
  for (let i = 0; i < calls; i++) all.push({ text: `Looking (${i + 1}).`, toolCalls: [{ id: `call_${i}`, ...callFor(i) }] });
  all.push({ text: 'Survey done.' });
  return all;
}

export async function benchManyCalls({ calls = 500, protocol = 'anthropic', progress = () => {} } = {}) {
  const standard = [100, 250, 500].filter((m) => m <= calls);
  const marks = standard.length > 0 ? standard : [Math.ceil(calls / 2), calls];
  const project = makeGitProject(makeTempDir('mewcode-bench-many-'));
  const home = makeTempDir('mewcode-bench-home-');
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(home, '.mewcode', 'config.yaml'), 'disable: [compaction]\n');
  try {
    progress(`many calls: ${calls} real tool calls in one run (${protocol})`);
    const { server, timings } = await startTimedServer(turns(calls));
    try {
      const env = childEnv(home, providerEnv(protocol, server.url));
      const r = await runChild(NODE, [path.join(HERE, 'many-calls-driver.mjs'), ...marks.map(String)], { cwd: project, env });
      const result = r.code === 0 ? JSON.parse(r.stdout.trim().split('\n').at(-1)) : undefined;
      if (result?.reason !== 'completed' || result.calls !== calls || server.requests.length !== calls + 1) {
        throw new Error(`many-calls: the session failed (exit ${r.code}, ${server.requests.length} requests): ${r.stderr || r.stdout}`);
      }
      const gaps = [];
      for (let k = 0; k + 1 < timings.length; k++) gaps.push(timings[k + 1].bodyEndAt - timings[k].finishedAt);
      const mib = (bytes) => bytes / 1024 / 1024;
      const first = result.rss[marks[0]];
      const last = result.rss[marks.at(-1)];
      const perHundred = marks.length > 1 ? mib(last - first) / ((marks.at(-1) - marks[0]) / 100) : NaN;
      const markdown = [
        `### ${calls} real tool calls in one run (${protocol}, compaction off)`,
        '',
        'read_file, grep, glob and bash in turn in a 120-file git project; RSS of the process after n calls; the gap is response n → request n+1.',
        '',
        `| ${marks.map((m) => `RSS @ ${m}`).join(' | ')} | growth per 100 calls (target ≤ ${TARGET_MIB_PER_100} MiB) | gap, first 50 | gap, last 50 |`,
        `| ${marks.map(() => '---').join(' | ')} | --- | --- | --- |`,
        `| ${marks.map((m) => `${mib(result.rss[m]).toFixed(1)} MiB`).join(' | ')} | ${Number.isFinite(perHundred) ? `${perHundred.toFixed(1)} MiB` : 'n/a'} | ${ms(median(gaps.slice(0, 50)))} | ${ms(median(gaps.slice(-50)))} |`,
      ].join('\n');
      return { markdown, rss: result.rss, perHundred, gaps };
    } finally {
      await server.close();
    }
  } finally {
    removeDir(project);
    removeDir(home);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { calls: { type: 'string', default: '500' } } });
  const { markdown } = await benchManyCalls({ calls: Number(values.calls), progress: (t) => process.stderr.write(`${t}\n`) });
  process.stdout.write(`${markdown}\n`);
}
