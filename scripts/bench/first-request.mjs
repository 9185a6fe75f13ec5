// b. Launch → first model request: Date.now() just before spawn() to the in-process scripted
// server's `receivedAt` of the CLI's first request (same process, same clock).
// References, interleaved: `node -e ""` (spawn → exit) and a bare `node -e 'fetch(…)'` that POSTs to
// the same server (spawn → request received: the floor for "a Node process sends a request").
import { CLI, FETCH_SCRIPT, HTTP_SCRIPT, NODE, childEnv, makeGitProject, makeTempDir, providerEnv, removeDir, runChild, startTimedServer } from './harness.mjs';

export async function measureFirstRequest({ protocol, runs, warmup, progress }) {
  const home = makeTempDir('mewcode-bench-home-');
  const project = makeGitProject(makeTempDir('mewcode-bench-project-'));
  const cli = [];
  const cliWall = [];
  const refExit = [];
  const refFetch = [];
  const refHttp = [];
  try {
    for (let i = -warmup; i < runs; i++) {
      progress(`b. first request (${protocol}) ${Math.max(0, i + 1)}/${runs}`);
      const steps = [runCli, runRefExit, runRefFetch, runRefHttp];
      const rotation = ((i % steps.length) + steps.length) % steps.length;
      for (const step of [...steps.slice(rotation), ...steps.slice(0, rotation)]) await step(i >= 0);
    }
  } finally {
    removeDir(home);
    removeDir(project);
  }
  return { cli, cliWall, refExit, refFetch, refHttp };

  async function runCli(keep) {
    const { server } = await startTimedServer([{ text: 'Hello from the scripted model.' }]);
    try {
      const env = childEnv(home, providerEnv(protocol, server.url));
      const r = await runChild(NODE, [CLI, '-p', 'hi', '--output-format', 'json'], { cwd: project, env });
      const result = lastJson(r.stdout);
      if (r.code !== 0 || !result || result.is_error || server.requests.length !== 1) {
        throw new Error(`mewcode -p hi (${protocol}) failed (exit ${r.code}, ${server.requests.length} requests): ${r.stderr || r.stdout}`);
      }
      if (keep) {
        cli.push(server.requests[0].receivedAt - r.spawnedAt);
        cliWall.push(r.wallMs);
      }
    } finally {
      await server.close();
    }
  }

  async function runRefExit(keep) {
    const r = await runChild(NODE, ['-e', ''], { cwd: project, env: childEnv(home) });
    if (r.code !== 0) throw new Error('node -e "" failed');
    if (keep) refExit.push(r.wallMs);
  }

  function runRefFetch(keep) {
    return runRequestReference(FETCH_SCRIPT, 'fetch', keep ? refFetch : undefined);
  }

  function runRefHttp(keep) {
    return runRequestReference(HTTP_SCRIPT, 'node:http', keep ? refHttp : undefined);
  }

  async function runRequestReference(script, label, samples) {
    const { server } = await startTimedServer([]);
    try {
      const r = await runChild(NODE, ['-e', script, server.url], { cwd: project, env: childEnv(home) });
      if (r.code !== 0 || server.requests.length !== 1) throw new Error(`the ${label} reference failed (exit ${r.code}): ${r.stderr}`);
      samples?.push(server.requests[0].receivedAt - r.spawnedAt);
    } finally {
      await server.close();
    }
  }
}

export function lastJson(stdout) {
  const lines = stdout.trim().split('\n').filter(Boolean);
  try {
    return JSON.parse(lines.at(-1) ?? '');
  } catch {
    return undefined;
  }
}
