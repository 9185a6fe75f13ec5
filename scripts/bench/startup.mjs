// a. `node bin/mewcode.js --version` against `node -e ""`: process wall time, interleaved.
// When the invoking environment sets Node start-up variables (which children run without, see
// harness.mjs), `node -e ""` is also timed with them so their cost is on record.
import { CLI, NODE, ROOT, childEnv, makeTempDir, removeDir, runChild, strippedNodeVars } from './harness.mjs';

export async function measureVersion({ runs, warmup, progress }) {
  const home = makeTempDir('mewcode-bench-home-');
  const env = childEnv(home);
  const withVars = strippedNodeVars().length > 0;
  const cli = [];
  const ref = [];
  const refWithNodeVars = [];
  let versionText = '';
  const steps = {
    async cli(keep) {
      const r = await runChild(NODE, [CLI, '--version'], { cwd: ROOT, env });
      if (r.code !== 0 || !/MewCode/.test(r.stdout)) throw new Error(`mewcode --version failed (exit ${r.code}): ${r.stderr || r.stdout}`);
      versionText = r.stdout.trim();
      if (keep) cli.push(r.wallMs);
    },
    async ref(keep) {
      const r = await runChild(NODE, ['-e', ''], { cwd: ROOT, env });
      if (r.code !== 0) throw new Error(`node -e "" failed (exit ${r.code})`);
      if (keep) ref.push(r.wallMs);
    },
    async refWithNodeVars(keep) {
      const r = await runChild(NODE, ['-e', ''], { cwd: ROOT, env: childEnv(home, {}, { withNodeStartVars: true }) });
      if (r.code !== 0) throw new Error(`node -e "" failed (exit ${r.code})`);
      if (keep) refWithNodeVars.push(r.wallMs);
    },
  };
  const names = withVars ? ['cli', 'ref', 'refWithNodeVars'] : ['cli', 'ref'];
  try {
    for (let i = -warmup; i < runs; i++) {
      progress(`a. --version ${Math.max(0, i + 1)}/${runs}`);
      // Rotate the order so no command always runs right after the same other one.
      const k = ((i % names.length) + names.length) % names.length;
      for (const name of [...names.slice(k), ...names.slice(0, k)]) await steps[name](i >= 0);
    }
  } finally {
    removeDir(home);
  }
  return { cli, ref, refWithNodeVars, versionText };
}
