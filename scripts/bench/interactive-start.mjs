// i. The interactive UI's start: `mewcode` with no arguments in a terminal (a pty from script(1),
// 100×30), from spawn() to the first output that holds the input prompt ("type a prompt"), in a
// project as bench b's (a git repository, no MewCode configuration). Reference, interleaved:
// `node -e ""` under the same script(1), spawn → exit, so script's own start is in both.
import { spawn, spawnSync } from 'node:child_process';
import { CLI, NODE, childEnv, makeGitProject, makeTempDir, providerEnv, removeDir } from './harness.mjs';

/** What the input box shows once the UI is ready for a prompt (its placeholder, plugins/ui-tui/app/app.tsx). */
export const PROMPT_READY = 'type a prompt';
const TIMEOUT_MS = 20_000;

/** util-linux script(1), which gives a child a pseudo-terminal, or undefined when there is none. */
export function scriptCommand() {
  const probe = spawnSync('script', ['-qfec', 'true', '/dev/null'], { stdio: 'ignore' });
  return probe.status === 0 ? 'script' : undefined;
}

const quote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Spawn `node args` in a 100×30 pty; resolves with the ms from spawn to the first output holding
 * `until` (then kills it), or to its exit when `until` is undefined.
 */
export function timeInTerminal(args, { cwd, env, until }) {
  return new Promise((resolve, reject) => {
    const command = `stty cols 100 rows 30; exec ${[NODE, ...args].map(quote).join(' ')}`;
    const started = performance.now();
    // Its own process group, so the kill below reaches MewCode as well as script(1).
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    let output = '';
    let done = false;
    const finish = (error, ms) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      if (error) reject(error);
      else resolve(ms);
    };
    const timer = setTimeout(() => finish(new Error(`${args.join(' ')} did not show "${until}" within ${TIMEOUT_MS} ms; it showed:\n${output.slice(-2000)}`)), TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (until !== undefined && output.includes(until)) finish(undefined, performance.now() - started);
    });
    child.once('error', (error) => finish(error));
    child.once('exit', () => (until === undefined ? finish(undefined, performance.now() - started) : finish(new Error(`${args.join(' ')} exited before showing "${until}":\n${output.slice(-2000)}`))));
  });
}

/** Samples per CLI (ms, spawn → prompt drawn) and of the reference, all interleaved run by run. */
export async function measureInteractiveStart({ clis = [CLI], runs, warmup, progress }) {
  const home = makeTempDir('mewcode-bench-home-');
  const project = makeGitProject(makeTempDir('mewcode-bench-project-'));
  // The model is never asked: the UI waits for a prompt.
  const env = childEnv(home, providerEnv('anthropic', 'http://127.0.0.1:9'));
  const samples = new Map(clis.map((cli) => [cli, []]));
  const ref = [];
  try {
    for (let i = -warmup; i < runs; i++) {
      progress(`i. interactive start ${Math.max(0, i + 1)}/${runs}`);
      const keep = i >= 0;
      const steps = [
        ...clis.map((cli) => async () => {
          const ms = await timeInTerminal([cli], { cwd: project, env, until: PROMPT_READY });
          if (keep) samples.get(cli).push(ms);
        }),
        async () => {
          const ms = await timeInTerminal(['-e', ''], { cwd: project, env });
          if (keep) ref.push(ms);
        },
      ];
      for (const step of i % 2 === 0 ? steps : [...steps].reverse()) await step();
    }
  } finally {
    removeDir(home);
    removeDir(project);
  }
  return { cli: samples.get(clis[0]), samples, ref };
}
