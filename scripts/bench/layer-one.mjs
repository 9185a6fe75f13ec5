// Compaction layer 1 (issue 10): the cost per request of LayerOne.apply on a history of 1,000 and
// of 10,000 messages, one new tool turn at a time. It must not grow with the history: the work
// is for what is new since the last request. The harness is bundled from the repository sources
// with esbuild and run in a child (no `npm run build` needed).
//
//   node scripts/bench/layer-one.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SIZES = [1_000, 10_000];
const TURNS = 300;

const harness = (layerOne, root) => `
import { LayerOne } from ${JSON.stringify(layerOne)};
const out = {};
for (const size of ${JSON.stringify(SIZES)}) {
  const layer = new LayerOne({ projectRoot: ${JSON.stringify(root)}, onSaveFailed: () => {} });
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
  let n = 0;
  const turn = () => {
    n++;
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'step ' + n }], toolCalls: [{ id: 'call_' + n, name: 'read_file', input: '{}' }] });
    // one result in ten is large, so saving and previewing are part of the cost
    messages.push({ role: 'tool', results: [{ toolCallId: 'call_' + n, isError: false, content: n % 10 === 0 ? 'x'.repeat(60000) : 'line\\n'.repeat(40) }] });
  };
  while (messages.length < size) turn();
  layer.apply('s', 'bench-session-' + size, messages); // the history so far, once
  const samples = [];
  for (let i = 0; i < ${TURNS}; i++) {
    turn();
    const t = performance.now();
    layer.apply('s', 'bench-session-' + size, messages);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  out[size] = { p50: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)] };
}
process.stdout.write(JSON.stringify(out));
`;

export async function benchLayerOne() {
  const { build } = await import('esbuild');
  const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-layer-one-bench-'));
  try {
    const entry = path.join(work, 'harness.mjs');
    writeFileSync(entry, harness(path.join(ROOT, 'plugins', 'compaction', 'layer-one.ts'), work));
    const outfile = path.join(work, 'harness.bundle.mjs');
    await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', entryPoints: [entry], outfile, alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' } });
    const r = spawnSync(process.execPath, [outfile], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`layer-one bench failed: ${r.stderr}`);
    const results = JSON.parse(r.stdout);
    const [small, large] = SIZES.map((size) => results[size]);
    const ms = (v) => `${v.toFixed(3)} ms`;
    return {
      markdown: [
        '| Measurement | 1,000 messages | 10,000 messages | Ratio (10,000 ÷ 1,000) | Target |',
        '| --- | --- | --- | --- | --- |',
        `| layer 1 per request, one new tool turn (median) | ${ms(small.p50)} | ${ms(large.p50)} | ${(large.p50 / small.p50).toFixed(2)}× | independent of history length |`,
        `| … p90 | ${ms(small.p90)} | ${ms(large.p90)} | ${(large.p90 / small.p90).toFixed(2)}× | — |`,
        '',
        `${TURNS} requests per size after the history was processed once; one result in ten is 60,000 bytes, so saving its file and building its preview are in the cost (scripts/bench/layer-one.mjs). The deciding and saving does not grow with the history (the p90 rows, which hold the turns that save a file, are flat). The median grows because of the one part that is O(history): the copy of the message list handed to the provider (a copy, so no plugin ever holds an array that later requests change), tens of microseconds at 10,000 messages, where the provider's own conversion of the same request takes milliseconds.`,
      ].join('\n'),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${(await benchLayerOne()).markdown}\n`);
}
