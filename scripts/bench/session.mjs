// c–e. A headless two-turn session (text + tool call → tool result → text) whose tool comes from an
// external plugin named in the project's .mewcode.yaml. Per run it records:
//   c. wall time (spawn → exit) and peak RSS (GNU time %M; cross-checked by the plugin's dispose())
//   d. the gap between turns: response 1's last byte written ('finish') → request 2's body fully
//      received, both stamped in this process; the tool's own duration_ms is reported beside it
//   e. request body bytes of turn 1 and 2, and whether the system prompt and tools serialize
//      byte-identically in both (the prompt-cache prefix).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, FETCH_SCRIPT, NODE, childEnv, gnuTimePath, makeGitProject, makeTempDir, providerEnv, readNumber, removeDir, runChild, startTimedServer } from './harness.mjs';

const PLUGIN_SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench-tool.mjs');

/** The first turn's call: the bench plugin's instant echo, or a real `bash` call (d″). */
const FIRST_CALLS = {
  bench_echo: { call: { name: 'bench_echo', input: { text: 'ping' } }, answered: (content) => content === 'echo: ping' },
  bash: { call: { name: 'bash', input: { command: 'echo ping' } }, answered: (content) => typeof content === 'string' && content.includes('ping') },
};

const TURNS = (pacing = {}, tool = 'bench_echo') => [
  { text: 'I will echo the word first.', toolCalls: [FIRST_CALLS[tool].call], ...pacing },
  { text: 'The tool answered "ping". Done.', ...pacing },
];

/**
 * A model's pace, for the d′ rows: the scripted server sends the response headers after
 * `delayMs` and its events `chunkDelayMs` apart. Kept faster than any hosted model (first tokens
 * take 0.3–2 s, events come tens of ms apart), so the wait the CLI can use is the least a real
 * session gives it. Without pacing (c–e) the whole response arrives at once, right after the
 * request: the CLI then works through every event after the last byte, which a streamed answer
 * spreads over its generation.
 */
export const MODEL_PACING = { delayMs: 200, chunkDelayMs: 5 };

/** A project whose `.mewcode.yaml` loads the bench plugin, and a HOME; `remove()` deletes both. */
export function sessionDirs() {
  const home = makeTempDir('mewcode-bench-home-');
  const project = makeTempDir('mewcode-bench-project-');
  copyFileSync(PLUGIN_SOURCE, path.join(project, 'bench-tool.mjs'));
  writeFileSync(path.join(project, '.mewcode.yaml'), 'plugins: ["./bench-tool.mjs"]\n');
  writeFileSync(path.join(project, 'README.md'), '# bench project\n');
  makeGitProject(project);
  return {
    home,
    project,
    rssFile: path.join(home, 'rss-time'),
    remove() {
      removeDir(home);
      removeDir(project);
    },
  };
}

/**
 * One two-turn session of `cli` against a fresh scripted server: the child's result, the wire gap
 * (response 1 `finish` → request 2 body `end`, or NaN when the stamps are missing), the bench
 * plugin's in-process timings and both requests. Throws when the session did not go as scripted.
 */
export async function runTwoTurns({ cli = CLI, protocol, dirs, pacing, rssFile, tool = 'bench_echo' }) {
  const { server, timings } = await startTimedServer(TURNS(pacing, tool));
  const disposeFile = path.join(dirs.home, 'rss-dispose');
  const turnFile = path.join(dirs.home, 'turn-timings.json');
  try {
    const env = childEnv(dirs.home, { ...providerEnv(protocol, server.url), MEWCODE_BENCH_RSS_FILE: disposeFile, MEWCODE_BENCH_TURN_FILE: turnFile });
    const args = [cli, '-p', 'Echo the word ping with the bench tool.', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions', '--trust-project'];
    const r = await runChild(NODE, args, { cwd: dirs.project, env, rssFile });
    const events = r.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    const result = events.at(-1);
    const toolResult = events.find((e) => e.type === 'tool_result');
    if (r.code !== 0 || result?.type !== 'result' || result.is_error || result.num_turns !== 2 || !FIRST_CALLS[tool].answered(toolResult?.content) || server.requests.length !== 2) {
      throw new Error(`the two-turn session (${protocol}) failed (exit ${r.code}, ${server.requests.length} requests):\n${r.stderr}\n${r.stdout}`);
    }
    const [req1, req2] = server.requests;
    return {
      wallMs: r.wallMs,
      gap: timings[1]?.bodyEndAt - timings[0]?.finishedAt,
      gapReceivedAt: req2.receivedAt - req1.receivedAt,
      toolMs: toolResult.duration_ms,
      turn: JSON.parse(readFileSync(turnFile, 'utf8')),
      disposeRssKiB: readNumber(disposeFile),
      req1,
      req2,
    };
  } finally {
    await server.close();
  }
}

export async function measureSession({ protocol, runs, warmup, progress, pacing, tool = 'bench_echo' }) {
  const dirs = sessionDirs();
  const { home, project, rssFile } = dirs;
  const useTime = gnuTimePath() !== undefined;

  const out = {
    wall: [], rss: [], rssDispose: [], gap: [], gapReceivedAt: [], toolMs: [], kernelGap: [], sdkGap: [], clientGap: [], bytes1: [], bytes2: [],
    refWall: [], refRss: [], fetchWall: [], fetchRss: [], identical: true, compactJson: true, mismatches: [], gapMethod: 'finish',
  };
  try {
    for (let i = -warmup; i < runs; i++) {
      progress(`${tool === 'bash' ? 'd″. bash first,' : ''}${pacing ? "d′. model-paced" : 'c-e.'} two-turn session (${protocol}) ${Math.max(0, i + 1)}/${runs}`);
      if (pacing) {
        await runSession(i >= 0); // the gap rows only: no references
      } else if (i % 2 === 0) {
        await runSession(i >= 0);
        await runRef(i >= 0);
      } else {
        await runRef(i >= 0);
        await runSession(i >= 0);
      }
    }
  } finally {
    dirs.remove();
  }
  return out;

  async function runSession(keep) {
    const run = await runTwoTurns({ protocol, dirs, pacing, tool, rssFile: useTime ? rssFile : undefined });
    checkPrefix(run.req1, run.req2);
    if (!keep) return;
    out.wall.push(run.wallMs);
    if (useTime) out.rss.push(readNumber(rssFile));
    out.rssDispose.push(run.disposeRssKiB);
    if (Number.isFinite(run.gap)) out.gap.push(run.gap);
    else out.gapMethod = 'receivedAt';
    out.gapReceivedAt.push(run.gapReceivedAt);
    out.toolMs.push(run.toolMs);
    if (Number.isFinite(run.turn.kernelMs)) out.kernelGap.push(run.turn.kernelMs);
    if (Number.isFinite(run.turn.sdkMs)) out.sdkGap.push(run.turn.sdkMs);
    if (Number.isFinite(run.turn.clientMs)) out.clientGap.push(run.turn.clientMs);
    out.bytes1.push(Buffer.byteLength(run.req1.rawBody));
    out.bytes2.push(Buffer.byteLength(run.req2.rawBody));
  }

  // References: `node -e ""`, and a bare Node process that does one fetch to the scripted server
  // (undici's start-up and its HTTP parser are part of any Node process that calls a model API).
  async function runRef(keep) {
    const r = await runChild(NODE, ['-e', ''], { cwd: project, env: childEnv(home), rssFile: useTime ? rssFile : undefined });
    if (r.code !== 0) throw new Error('node -e "" failed');
    if (keep) {
      out.refWall.push(r.wallMs);
      if (useTime) out.refRss.push(readNumber(rssFile));
    }
    const { server } = await startTimedServer([]);
    try {
      const f = await runChild(NODE, ['-e', FETCH_SCRIPT, server.url], { cwd: project, env: childEnv(home), rssFile: useTime ? rssFile : undefined });
      if (f.code !== 0 || server.requests.length !== 1) throw new Error(`the fetch reference failed (exit ${f.code}): ${f.stderr}`);
      if (keep) {
        out.fetchWall.push(f.wallMs);
        if (useTime) out.fetchRss.push(readNumber(rssFile));
      }
    } finally {
      await server.close();
    }
  }

  function checkPrefix(req1, req2) {
    // The SDKs send compact JSON.stringify output; when that holds, re-serializing a parsed part
    // gives exactly its bytes in rawBody, so equal strings here mean byte-identical on the wire.
    for (const req of [req1, req2]) if (req.rawBody !== JSON.stringify(req.body)) out.compactJson = false;
    const a = stablePrefix(protocol, req1.body);
    const b = stablePrefix(protocol, req2.body);
    if (!a.system || a.system === '[]' || !a.tools?.includes('"bench_echo"')) {
      out.identical = false;
      out.mismatches.push('request 1 has no system prompt or lacks the bench tool');
    }
    if (a.system !== b.system) {
      out.identical = false;
      out.mismatches.push(`system differs:\n  1: ${a.system}\n  2: ${b.system}`);
    }
    if (a.tools !== b.tools) {
      out.identical = false;
      out.mismatches.push(`tools differ:\n  1: ${a.tools}\n  2: ${b.tools}`);
    }
  }
}

/** The part of a request that must not change between turns: system prompt and tool definitions. */
export function stablePrefix(protocol, body) {
  let system;
  if (protocol === 'anthropic') {
    system = body.system;
  } else {
    system = [];
    for (const message of body.messages ?? []) {
      if (message.role !== 'system' && message.role !== 'developer') break;
      system.push(message);
    }
  }
  return { system: JSON.stringify(system), tools: JSON.stringify(body.tools) };
}
