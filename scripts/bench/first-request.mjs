// b. Launch → first model request: Date.now() just before spawn() to the in-process scripted
// server's `receivedAt` of the CLI's first request (same process, same clock).
// References, interleaved: `node -e ""` (spawn → exit) and a bare `node -e 'fetch(…)'` that POSTs to
// the same server (spawn → request received: the floor for "a Node process sends a request").
// Interleaved with them, the same run configured as a user's is: the provider in
// ~/.mewcode/config.yaml and permission rules in ~/.mewcode/settings.yaml (configured); and the
// stack floor (stack-floor.mjs): the required libraries and the provider's client alone, sending
// the same streamed request, so the CLI's time minus the floor's is MewCode's own start-up work.
import { CLI, FETCH_SCRIPT, HTTP_SCRIPT, NODE, childEnv, makeGitProject, makeTempDir, providerEnv, removeDir, runChild, startTimedServer } from './harness.mjs';
import { writeUserConfig } from '../user-config-fixture.mjs';
import { buildStackFloor } from './stack-floor.mjs';
import path from 'node:path';

export async function measureFirstRequest({ protocol, runs, warmup, progress }) {
  const home = makeTempDir('mewcode-bench-home-');
  const configuredHome = makeTempDir('mewcode-bench-home-');
  const project = makeGitProject(makeTempDir('mewcode-bench-project-'));
  const cli = [];
  const configured = [];
  const cliWall = [];
  const refExit = [];
  const refFetch = [];
  const refHttp = [];
  const refFloor = [];
  const floorDir = makeTempDir('mewcode-bench-floor-');
  try {
    const floor = await buildStackFloor(protocol, floorDir);
    for (let i = -warmup; i < runs; i++) {
      progress(`b. first request (${protocol}) ${Math.max(0, i + 1)}/${runs}`);
      const steps = [runCli, runConfigured, runRefExit, runRefFetch, runRefHttp, (keep) => runFloor(floor, keep)];
      const rotation = ((i % steps.length) + steps.length) % steps.length;
      for (const step of [...steps.slice(rotation), ...steps.slice(0, rotation)]) await step(i >= 0);
    }
  } finally {
    removeDir(home);
    removeDir(configuredHome);
    removeDir(project);
    removeDir(floorDir);
  }
  return { cli, configured, cliWall, refExit, refFetch, refHttp, refFloor };

  function runCli(keep) {
    return runFirstRequest((url) => childEnv(home, providerEnv(protocol, url)), keep ? cli : undefined, keep ? cliWall : undefined);
  }

  function runConfigured(keep) {
    const keyVariable = protocol === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
    return runFirstRequest((url) => {
      writeUserConfig(configuredHome, { protocol, url, model: 'bench-model' });
      return childEnv(configuredHome, { [keyVariable]: 'bench-key' });
    }, keep ? configured : undefined);
  }

  async function runFirstRequest(envFor, samples, wallSamples) {
    const { server } = await startTimedServer([{ text: 'Hello from the scripted model.' }]);
    try {
      const r = await runChild(NODE, [CLI, '-p', 'hi', '--output-format', 'json'], { cwd: project, env: envFor(server.url) });
      const result = lastJson(r.stdout);
      if (r.code !== 0 || !result || result.is_error || server.requests.length !== 1) {
        throw new Error(`mewcode -p hi (${protocol}) failed (exit ${r.code}, ${server.requests.length} requests): ${r.stderr || r.stdout}`);
      }
      samples?.push(server.requests[0].receivedAt - r.spawnedAt);
      wallSamples?.push(r.wallMs);
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

  async function runFloor(floor, keep) {
    const { server } = await startTimedServer([{ text: 'Hello from the scripted model.' }]);
    try {
      const r = await runChild(NODE, [floor, server.url], { cwd: project, env: childEnv(home) });
      if (r.code !== 0 || server.requests.length !== 1) throw new Error(`the stack floor (${path.basename(floor)}) failed (exit ${r.code}, ${server.requests.length} requests): ${r.stderr}`);
      if (keep) refFloor.push(server.requests[0].receivedAt - r.spawnedAt);
    } finally {
      await server.close();
    }
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
