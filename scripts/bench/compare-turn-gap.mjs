#!/usr/bin/env node
// The turn gap (bench d, d′ and d″) for two or more MewCode builds, interleaved in one invocation, so
// a change is measured against the build before it on the same noisy machine.
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
//   node scripts/bench/compare-turn-gap.mjs /tmp/before/bin/mewcode.js bin/mewcode.js [--runs N] [--protocol anthropic|openai|both]
//
// Each run is bench d's two-turn session (scripts/bench/session.mjs, the bench plugin loaded from
// the project), once with the whole response at once and once with the model paced as in d′; the
// builds alternate run by run, after one discarded warm-up round. A third mode makes the first
// call a real `bash` (d″), whose own run time is taken out of the gap. Prints medians and p90 of the
// wire gap and of the client's share, and each build's median against the first build's.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MODEL_PACING, runTwoTurns, sessionDirs } from './session.mjs';
import { summarize } from './stats.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '15' }, protocol: { type: 'string', default: 'both' } } });
const runs = Number.parseInt(values.runs, 10);
const protocols = values.protocol === 'both' ? ['anthropic', 'openai'] : [values.protocol];
if (positionals.length < 1 || !(runs >= 3) || !protocols.every((p) => p === 'anthropic' || p === 'openai')) {
  process.stderr.write('usage: node scripts/bench/compare-turn-gap.mjs CLI [CLI…] [--runs N ≥ 3] [--protocol anthropic|openai|both]\n');
  process.exit(2);
}
const clis = positionals.map((cli) => path.resolve(cli));
const modes = [
  { name: 'whole response at once (d)', pacing: undefined },
  { name: `paced (d′: headers after ${MODEL_PACING.delayMs} ms, events ${MODEL_PACING.chunkDelayMs} ms apart)`, pacing: MODEL_PACING },
  { name: 'paced, the first call `bash` (d″; both gaps minus the tool\'s duration_ms)', pacing: MODEL_PACING, tool: 'bash' },
  // The first bash call when the model answers at once: nothing of the process is warm yet.
  { name: 'whole response at once, the first call `bash` (minus the tool\'s duration_ms)', pacing: undefined, tool: 'bash' },
];

const dirs = sessionDirs();
const samples = new Map();
const key = (protocol, mode, cli) => `${protocol}\u0000${mode.name}\u0000${cli}`;
try {
  for (let i = -1; i < runs; i++) {
    process.stderr.write(`\rcompare-turn-gap: round ${Math.max(0, i + 1)}/${runs}`);
    for (const protocol of protocols) {
      for (const mode of modes) {
        for (const cli of i % 2 === 0 ? clis : [...clis].reverse()) {
          const run = await runTwoTurns({ cli, protocol, dirs, pacing: mode.pacing, tool: mode.tool });
          if (i < 0) continue;
          const entry = samples.get(key(protocol, mode, cli)) ?? { wire: [], client: [] };
          // The bench plugin subtracts only its own tool's time: bash's is taken out here.
          const withoutTool = (ms) => (mode.tool === 'bash' ? ms - run.toolMs : ms);
          entry.wire.push(withoutTool(run.gap));
          if (Number.isFinite(run.turn.clientMs)) entry.client.push(withoutTool(run.turn.clientMs));
          samples.set(key(protocol, mode, cli), entry);
        }
      }
    }
  }
} finally {
  dirs.remove();
  process.stderr.write('\n');
}

const label = (cli) => path.relative(process.cwd(), cli) || cli;
const fmt = (n) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : 'n/a');
process.stdout.write(`${runs} runs per build and row, interleaved.\n\n| protocol | response | build | wire gap median | p90 | client share median | p90 | wire vs ${label(clis[0])} |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n`);
for (const protocol of protocols) {
  for (const mode of modes) {
    const base = summarize(samples.get(key(protocol, mode, clis[0])).wire).median;
    for (const cli of clis) {
      const { wire, client } = samples.get(key(protocol, mode, cli));
      const w = summarize(wire);
      const c = summarize(client);
      process.stdout.write(`| ${protocol} | ${mode.name} | ${label(cli)} | ${fmt(w.median)} | ${fmt(w.p90)} | ${fmt(c.median)} | ${fmt(c.p90)} | ${(w.median / base).toFixed(2)}× |\n`);
    }
  }
}
