// g. Memory over a long session with compaction (issue 10): 2,000 tool calls (100 prompts of 20)
// with 6 KB results in one session whose provider has a 100,000-token window, so layer 1 and the
// summary run again and again. The scripted server answers a summary request (recognised by its
// system prompt) with a summary and every other request with the next call; the usage it reports
// is the request's size / 4, so the estimate's anchor is realistic. Reported: peak RSS, the RSS
// after warm-up (first 10 % of the calls) and at the end, and the growth between them (target:
// ≤ 300 MiB, flat after warm-up).
//
//   node scripts/bench.mjs --suite compaction
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, ROOT, childEnv, makeTempDir, removeDir, runChild } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const PROMPTS = 100;
export const CALLS_PER_PROMPT = 20;
export const CONTEXT_WINDOW = 100_000;
const SUMMARY = '<analysis>bench</analysis><summary>\n## 1. Primary request and intent\nCall bench_blob repeatedly.\n## 8. Current work\nCalling bench_blob.\n</summary>';

export async function benchCompaction({ prompts = PROMPTS, progress = () => undefined } = {}) {
  const serverLib = await import(path.join(ROOT, 'dist', 'scripted-server-lib.js'));
  const home = makeTempDir('mewcode-bench-home-');
  const project = makeTempDir('mewcode-bench-project-');
  let server;
  let call = 0;
  let summaries = 0;
  try {
    server = await serverLib.startScriptedServer({
      // Each request gets its answer as it arrives (the queue is empty before each one).
      onRequest: (request) => {
        const usage = { input: Math.ceil(request.rawBody.length / 4), output: 50 };
        if (JSON.stringify(request.body.system ?? '').includes('You summarise a conversation')) {
          summaries++;
          server.push({ text: SUMMARY, usage });
          return;
        }
        const inRun = call % (CALLS_PER_PROMPT + 1);
        call++;
        if (inRun === 0 && call > 1) progress(`g. compaction: ${Math.floor(call / (CALLS_PER_PROMPT + 1))}/${prompts} prompts`);
        server.push(inRun < CALLS_PER_PROMPT ? { text: `Call ${inRun + 1}.`, toolCalls: [{ name: 'bench_blob', input: { n: call } }], usage } : { text: 'Done with this step.', usage });
      },
    });
    const env = { ...childEnv(home, {}), BENCH_BASE_URL: server.url, BENCH_PROTOCOL: 'anthropic' };
    const started = performance.now();
    const r = await runChild(NODE, [path.join(HERE, 'compaction-driver.mjs'), String(prompts), String(CALLS_PER_PROMPT), String(CONTEXT_WINDOW)], { cwd: project, env });
    const seconds = (performance.now() - started) / 1000;
    const result = r.code === 0 ? JSON.parse(r.stdout.trim().split('\n').at(-1)) : undefined;
    if (!result || result.runs.some((reason) => reason !== 'completed') || result.calls !== prompts * CALLS_PER_PROMPT) {
      throw new Error(`the compaction session failed (exit ${r.code}, ${result?.calls ?? '?'} calls): ${r.stderr.slice(-2000) || r.stdout.slice(-2000)}`);
    }
    const warm = result.samples[Math.max(0, Math.floor(result.samples.length / 10) - 1)];
    const after = result.samples.slice(result.samples.indexOf(warm));
    const peakAfter = Math.max(...after.map((s) => s.rssMiB));
    const last = result.samples.at(-1);
    const mib = (v) => `${v.toFixed(1)} MiB`;
    return {
      result,
      markdown: [
        `A session of ${result.calls.toLocaleString('en-US')} tool calls (${prompts} prompts of ${CALLS_PER_PROMPT}, 6 KB results) against a ${CONTEXT_WINDOW.toLocaleString('en-US')}-token window: ${result.compactions} compactions (${summaries} summary requests), ${seconds.toFixed(1)} s, history ${last.messages} messages at the end.`,
        '',
        '| Measurement | Value | Target |',
        '|---|---|---|',
        `| Peak RSS (maxRSS) | ${mib(result.maxRssMiB)} | ≤ 300 MiB |`,
        `| RSS after warm-up (${warm.calls.toLocaleString('en-US')} calls) | ${mib(warm.rssMiB)} | |`,
        `| Highest RSS after warm-up | ${mib(peakAfter)} | flat |`,
        `| RSS at the end (${last.calls.toLocaleString('en-US')} calls) | ${mib(last.rssMiB)} | flat |`,
        `| Growth after warm-up (highest − after warm-up) | ${mib(peakAfter - warm.rssMiB)} | small, not proportional to calls |`,
      ].join('\n'),
    };
  } finally {
    await server?.close();
    removeDir(home);
    removeDir(project);
  }
}
