// a. `node bin/mewcode.js --version` against `node -e ""`: process wall time, interleaved.
import { CLI, NODE, ROOT, childEnv, makeTempDir, removeDir, runChild } from './harness.mjs';

export async function measureVersion({ runs, warmup, progress }) {
  const home = makeTempDir('mewcode-bench-home-');
  const env = childEnv(home);
  const cli = [];
  const ref = [];
  let versionText = '';
  try {
    for (let i = -warmup; i < runs; i++) {
      progress(`a. --version ${Math.max(0, i + 1)}/${runs}`);
      // Alternate the order so neither command always runs right after the other.
      const order = i % 2 === 0 ? ['cli', 'ref'] : ['ref', 'cli'];
      for (const which of order) {
        if (which === 'cli') {
          const r = await runChild(NODE, [CLI, '--version'], { cwd: ROOT, env });
          if (r.code !== 0 || !/MewCode/.test(r.stdout)) throw new Error(`mewcode --version failed (exit ${r.code}): ${r.stderr || r.stdout}`);
          versionText = r.stdout.trim();
          if (i >= 0) cli.push(r.wallMs);
        } else {
          const r = await runChild(NODE, ['-e', ''], { cwd: ROOT, env });
          if (r.code !== 0) throw new Error(`node -e "" failed (exit ${r.code})`);
          if (i >= 0) ref.push(r.wallMs);
        }
      }
    }
  } finally {
    removeDir(home);
  }
  return { cli, ref, versionText };
}
