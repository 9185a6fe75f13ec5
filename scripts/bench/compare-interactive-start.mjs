#!/usr/bin/env node
// The interactive UI's start (bench i: `mewcode` in a pty, spawn → the input prompt drawn) for two
// or more MewCode builds, interleaved in one invocation with `node -e ""` under the same pty.
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
//   node scripts/bench/compare-interactive-start.mjs /tmp/before/bin/mewcode.js bin/mewcode.js [--runs N]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureInteractiveStart, scriptCommand } from './interactive-start.mjs';
import { summarize } from './stats.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '15' } } });
const runs = Number.parseInt(values.runs, 10);
if (positionals.length < 1 || !(runs >= 3)) {
  process.stderr.write('usage: node scripts/bench/compare-interactive-start.mjs CLI [CLI…] [--runs N ≥ 3]\n');
  process.exit(2);
}
if (!scriptCommand()) {
  process.stderr.write('compare-interactive-start: needs util-linux script(1) for a pseudo-terminal\n');
  process.exit(2);
}
const clis = positionals.map((cli) => path.resolve(cli));
const { samples, ref } = await measureInteractiveStart({ clis, runs, warmup: 2, progress: (text) => process.stderr.write(`\r${text}`) });
process.stderr.write('\n');
const first = summarize(samples.get(clis[0])).median;
const refMedian = summarize(ref).median;
process.stdout.write(`${runs} runs per build, interleaved; \`node -e ""\` in the same pty: ${refMedian.toFixed(1)} ms.\n\n| build | median | p90 | vs ${path.relative(process.cwd(), clis[0]) || clis[0]} | vs \`node -e ""\` |\n| --- | --- | --- | --- | --- |\n`);
for (const cli of clis) {
  const { median, p90 } = summarize(samples.get(cli));
  process.stdout.write(`| ${path.relative(process.cwd(), cli) || cli} | ${median.toFixed(1)} ms | ${p90.toFixed(1)} ms | ${(median / first).toFixed(2)}× | ${(median / refMedian).toFixed(2)}× |\n`);
}
