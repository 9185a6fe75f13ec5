#!/usr/bin/env node
// The turn gap (bench d, d′ and d″) for two or more MewCode builds, interleaved in one invocation, so
// a change is measured against the build before it on the same noisy machine.
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
//   node scripts/bench/compare-turn-gap.mjs /tmp/before/bin/mewcode.js bin/mewcode.js [--runs N] [--protocol anthropic|openai|both]
//
// Each run is bench d's two-turn session (scripts/bench/session.mjs, the bench plugin loaded from
// the project), once with the whole response at once and once with the model paced as in d′; the
// builds alternate run by run, after one discarded warm-up round. Three more modes make the first
// call a real `bash` (`echo ping`, sandboxed): the response at once, paced as d′ (d″), and with a
// hosted model's first-token wait. Their gap includes the tool, and is also shown over the command
// alone (the same command started by this process, timed in the same rounds): what MewCode adds.
// Prints medians and p90 of the wire gap, the client's share, and each build's median against the
// first build's.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { commandAlone } from './bash-turns.mjs';
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
const HOSTED_FIRST_TOKEN = { ...MODEL_PACING, delayMs: 1000 };
const modes = [
  { name: 'whole response at once (d)', pacing: undefined },
  { name: `paced (d′: headers after ${MODEL_PACING.delayMs} ms, events ${MODEL_PACING.chunkDelayMs} ms apart)`, pacing: MODEL_PACING },
  // The first call a real `bash` (`echo ping`, sandboxed): the whole gap, the tool included. Its
  // own share is the command alone (`bash -c 'echo ping'` started by this process, timed in the
  // same rounds): the rest is what MewCode adds (checks, sandbox, bookkeeping).
  { name: 'first call `bash`, whole response at once', pacing: undefined, tool: 'bash' },
  { name: `first call \`bash\`, paced as d′ (d″)`, pacing: MODEL_PACING, tool: 'bash' },
  { name: `first call \`bash\`, first token after ${HOSTED_FIRST_TOKEN.delayMs} ms (a hosted model's usual wait)`, pacing: HOSTED_FIRST_TOKEN, tool: 'bash' },
];

const dirs = sessionDirs();
const samples = new Map();
const alone = [];
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
          entry.wire.push(run.gap);
          if (Number.isFinite(run.turn.clientMs)) entry.client.push(run.turn.clientMs);
          samples.set(key(protocol, mode, cli), entry);
        }
        if (mode.tool === 'bash' && i >= 0) alone.push(await commandAlone());
      }
    }
  }
} finally {
  dirs.remove();
  process.stderr.write('\n');
}

const label = (cli) => path.relative(process.cwd(), cli) || cli;
const fmt = (n) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : 'n/a');
const command = summarize(alone).median;
process.stdout.write(`${runs} runs per build and row, interleaved. Gaps are response 1 → request 2 on the wire, the tool included; the bench plugin's own tool is instant. The command alone (\`bash -c 'echo ping'\` from the bench's process, same rounds): ${fmt(command)}.\n\n`);
process.stdout.write(`| protocol | response | build | wire gap median | p90 | over the command alone | client share median | wire vs ${label(clis[0])} |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n`);
for (const protocol of protocols) {
  for (const mode of modes) {
    const base = summarize(samples.get(key(protocol, mode, clis[0])).wire).median;
    for (const cli of clis) {
      const { wire, client } = samples.get(key(protocol, mode, cli));
      const w = summarize(wire);
      const c = summarize(client);
      const over = mode.tool === 'bash' ? fmt(w.median - command) : '—';
      process.stdout.write(`| ${protocol} | ${mode.name} | ${label(cli)} | ${fmt(w.median)} | ${fmt(w.p90)} | ${over} | ${fmt(c.median)} | ${(w.median / base).toFixed(2)}× |\n`);
    }
  }
}
