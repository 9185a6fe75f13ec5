// f. A long session: 60 model requests in one session (3 prompts of 20 requests: 19 bench_echo
// calls and a final answer each), driven by scripts/bench/long-session-driver.mjs in a child
// process against the scripted server in this process. Per session it records every gap between
// consecutive requests of a run (response i's last byte written → request i+1's body received),
// peak RSS (GNU time %M, cross-checked by the plugin's dispose()), and the last request's body
// size, so growth with history is visible.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, childEnv, gnuTimePath, makeTempDir, providerEnv, readNumber, removeDir, runChild, startTimedServer } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const PROMPTS = 3;
export const REQUESTS_PER_PROMPT = 20;

function turns() {
  const all = [];
  for (let prompt = 0; prompt < PROMPTS; prompt++) {
    for (let call = 1; call < REQUESTS_PER_PROMPT; call++) all.push({ text: `Echo number ${call}.`, toolCalls: [{ name: 'bench_echo', input: { text: `ping ${prompt}.${call}` } }] });
    all.push({ text: `Prompt ${prompt + 1} is done.` });
  }
  return all;
}

export async function measureLongSession({ protocol, runs, progress }) {
  const home = makeTempDir('mewcode-bench-home-');
  const project = makeTempDir('mewcode-bench-project-');
  const plugin = path.join(project, 'bench-tool.mjs');
  copyFileSync(path.join(HERE, 'bench-tool.mjs'), plugin);
  const rssFile = path.join(home, 'rss-time');
  const disposeFile = path.join(home, 'rss-dispose');
  const useTime = gnuTimePath() !== undefined;
  const out = { gaps: [], firstGaps: [], earlyGaps: [], lateGaps: [], rss: [], rssDispose: [], lastBytes: [], requests: PROMPTS * REQUESTS_PER_PROMPT };
  try {
    for (let i = 0; i < runs; i++) {
      progress(`f. 60-request session (${protocol}) ${i + 1}/${runs}`);
      const { server, timings } = await startTimedServer(turns());
      try {
        const env = childEnv(home, { ...providerEnv(protocol, server.url), MEWCODE_BENCH_RSS_FILE: disposeFile });
        const r = await runChild(NODE, [path.join(HERE, 'long-session-driver.mjs'), String(PROMPTS), plugin], { cwd: project, env, rssFile: useTime ? rssFile : undefined });
        const result = r.code === 0 ? JSON.parse(r.stdout.trim().split('\n').at(-1)) : undefined;
        const complete = result?.runs.every((run) => run.reason === 'completed' && run.iterations === REQUESTS_PER_PROMPT);
        if (!complete || server.requests.length !== out.requests) {
          throw new Error(`the long session (${protocol}) failed (exit ${r.code}, ${server.requests.length} requests): ${r.stderr || r.stdout}`);
        }
        // Gaps inside a run only: between runs the driver itself starts the next prompt.
        const sessionGaps = [];
        for (let k = 0; k + 1 < timings.length; k++) {
          if ((k + 1) % REQUESTS_PER_PROMPT === 0) continue;
          sessionGaps.push(timings[k + 1].bodyEndAt - timings[k].finishedAt);
        }
        out.firstGaps.push(sessionGaps[0]);
        out.gaps.push(...sessionGaps.slice(1));
        out.earlyGaps.push(...sessionGaps.slice(1, 11));
        out.lateGaps.push(...sessionGaps.slice(-10));
        if (useTime) out.rss.push(readNumber(rssFile));
        out.rssDispose.push(readNumber(disposeFile));
        out.lastBytes.push(Buffer.byteLength(server.requests.at(-1).rawBody));
      } finally {
        await server.close();
      }
    }
  } finally {
    removeDir(home);
    removeDir(project);
  }
  return out;
}
