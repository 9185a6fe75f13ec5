// Workspace trust check at start-up (issue 8, target ≤ 2 ms): `createWorkspaceTrust` on
// realistic projects, against a bare `fs.readFileSync` of a small file measured in the same
// process. The harness is bundled from the repository sources with esbuild and run in a child,
// so the numbers are those of the code as it is now (no `npm run build` needed).
//
//   import { benchTrust } from './scripts/bench/trust.mjs';
//   const { markdown, results } = await benchTrust({ runs: 300 });
//
// or directly: node scripts/bench/trust.mjs [runs]
//
// Each run changes a comment in every config file, so the YAML parse is paid every time (at
// start-up the trust check is the first reader; loadConfig and the permission settings reader
// reuse its parse). The `yaml` package's one-time load is left out: loadConfig pays it anyway
// whenever a config file exists. The git fallback row is the rare case (index format 4 or a
// split index) and is shown apart from the target.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TARGET_MS = 2;

const fmt = (v) => (Number.isFinite(v) ? `${v < 0.1 ? v.toFixed(3) : v.toFixed(2)} ms` : 'n/a');

function git(cwd, ...args) {
  const r = spawnSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=b', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
}

/** A project with `files` tracked files, the usual MewCode files, and optionally a committed local file. */
function makeProject(dir, { files = 0, config = true, trackedLocal = false, indexVersion } = {}) {
  mkdirSync(path.join(dir, '.mewcode'), { recursive: true });
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, 'src', `m${i % 40}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `file-${i}.ts`), `export const v${i} = ${i};\n`);
  }
  if (config) {
    writeFileSync(path.join(dir, '.mewcode.yaml'), 'agent:\n  model: claude-sonnet\nproviders:\n  - name: corp\n    protocol: openai\n    base_url: https://llm.corp.example/v1\n    api_key: ${CORP_KEY}\n');
    const rules = Array.from({ length: 20 }, (_, i) => `    - "Bash(npm run task-${i}:*)"`).join('\n');
    writeFileSync(path.join(dir, '.mewcode', 'settings.yaml'), `permissions:\n  allow:\n${rules}\n  deny:\n    - "Read(./.env)"\n  default_mode: acceptEdits\n`);
    writeFileSync(path.join(dir, '.mewcode', 'settings.local.yaml'), 'permissions:\n  allow:\n    - "Bash(npm test)"\n    - "Bash(git status)"\n');
  }
  if (files > 0 || trackedLocal) {
    git(dir, 'init', '-q');
    git(dir, 'add', 'src');
    if (trackedLocal) git(dir, 'add', '.mewcode/settings.local.yaml');
    if (indexVersion) git(dir, 'update-index', '--index-version', String(indexVersion));
  }
}

const harnessSource = (trustModule) => `
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from ${JSON.stringify(trustModule)};
const { scenarios, small, runs, warmup } = JSON.parse(process.env.MEWCODE_TRUST_BENCH);
const p50 = (s) => [...s].sort((a, b) => a - b)[Math.max(0, Math.ceil(s.length / 2) - 1)];
const p99 = (s) => [...s].sort((a, b) => a - b)[Math.max(0, Math.ceil(s.length * 0.99) - 1)];
const configFiles = (root) => ['.mewcode.yaml', '.mewcode/settings.yaml', '.mewcode/settings.local.yaml'].map((f) => path.join(root, f));
const texts = new Map();
function touch(root, i) {
  for (const file of configFiles(root)) {
    let text = texts.get(file);
    if (text === undefined) { try { text = readFileSync(file, 'utf8'); } catch { text = null; } texts.set(file, text); }
    if (text !== null) writeFileSync(file, text + '# run ' + i + '\\n');
  }
}
async function measure(fn, n) { const out = []; for (let i = 0; i < n; i++) { const t = performance.now(); await fn(i); out.push(performance.now() - t); } return out; }
// Warm the module graph (yaml, the trust modules) once; left out of the numbers.
for (const s of scenarios) { touch(s.root, -1); await createWorkspaceTrust({ projectRoot: s.root, homeDir: s.home, env: {} }); }
await measure(() => readFileSync(small), warmup);
const results = { readFileSync: {}, scenarios: {} };
const reads = await measure(() => readFileSync(small), runs);
results.readFileSync = { p50: p50(reads), p99: p99(reads) };
for (const s of scenarios) {
  const n = s.runs ?? runs;
  await measure(async (i) => { touch(s.root, 10_000 + i); await createWorkspaceTrust({ projectRoot: s.root, homeDir: s.home, env: {} }); }, Math.min(warmup, n));
  const samples = [];
  let last;
  for (let i = 0; i < n; i++) {
    touch(s.root, i);
    const t = performance.now();
    last = await createWorkspaceTrust({ projectRoot: s.root, homeDir: s.home, env: {} });
    samples.push(performance.now() - t);
  }
  results.scenarios[s.name] = { p50: p50(samples), p99: p99(samples), n, source: last.source, pending: last.pending().settings.length };
}
process.stdout.write(JSON.stringify(results));
`;

export async function benchTrust({ runs = 300, warmup = 30 } = {}) {
  const { build } = await import('esbuild');
  const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-trust-bench-'));
  try {
    const home = path.join(work, 'home');
    mkdirSync(path.join(home, '.mewcode'), { recursive: true });
    const small = path.join(work, 'small.txt');
    writeFileSync(small, 'a small file\n'.repeat(20));
    const dirs = {
      empty: path.join(work, 'empty'),
      typical: path.join(work, 'typical'),
      untrusted: path.join(work, 'untrusted'),
      fallback: path.join(work, 'fallback'),
    };
    mkdirSync(dirs.empty);
    makeProject(dirs.typical, { files: 2000 });
    makeProject(dirs.untrusted, { files: 2000 });
    makeProject(dirs.fallback, { files: 2000, trackedLocal: true, indexVersion: 4 });

    // yaml is CommonJS: the ESM bundle needs a real `require` for its Node built-ins.
    const options = {
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      nodePaths: [path.join(ROOT, 'node_modules')],
      mainFields: ['module', 'main'], // jsonc-parser's ESM build (its UMD build requires files by relative path)
      banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
    };
    const entry = path.join(work, 'harness.mjs');
    writeFileSync(entry, harnessSource(path.join(ROOT, 'config', 'trust.ts')));
    const outfile = path.join(work, 'harness.bundle.mjs');
    await build({ ...options, entryPoints: [entry], outfile });

    // Trust the typical project the way the dialog does, before measuring.
    const grantScript = path.join(work, 'grant.mjs');
    writeFileSync(grantScript, `import { createWorkspaceTrust } from ${JSON.stringify(path.join(ROOT, 'config', 'trust.ts'))};\nawait (await createWorkspaceTrust({ projectRoot: ${JSON.stringify(dirs.typical)}, homeDir: ${JSON.stringify(home)} })).grant();\n`);
    await build({ ...options, entryPoints: [grantScript], outfile: path.join(work, 'grant.bundle.mjs') });
    const granted = spawnSync(process.execPath, [path.join(work, 'grant.bundle.mjs')], { encoding: 'utf8' });
    if (granted.status !== 0) throw new Error(`trust bench: grant failed: ${granted.stderr}`);

    // The comment added each run must not change the trust hash (comments are not hashed): the
    // typical project must still be trusted from storage, which the report checks.
    const scenarios = [
      { name: 'no MewCode files', root: dirs.empty, home },
      { name: 'typical: config + settings + untracked local file, 2000-file git index, trusted (trust.json read)', root: dirs.typical, home },
      { name: 'same project, not trusted yet', root: dirs.untrusted, home },
      { name: 'committed local file, index format 4 (git fallback, rare)', root: dirs.fallback, home, runs: Math.max(10, Math.floor(runs / 10)) },
    ];
    const child = spawnSync(process.execPath, [outfile], {
      cwd: work,
      env: { ...process.env, NODE_OPTIONS: '', MEWCODE_TRUST_BENCH: JSON.stringify({ scenarios, small, runs, warmup }) },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (child.status !== 0) throw new Error(`trust bench harness failed (exit ${child.status}):\n${child.stderr}`);
    const results = JSON.parse(child.stdout);
    const read = results.readFileSync.p50;
    const typical = results.scenarios[scenarios[1].name];
    if (typical.source !== 'stored') throw new Error(`trust bench: the typical project should be trusted from trust.json, got ${typical.source}`);
    const lines = [
      '### Workspace trust check',
      '',
      `\`createWorkspaceTrust\` at start-up, in process, ${runs} runs per project after ${warmup} warm-up runs (each run re-parses the changed config files). ` +
        `Reference: \`fs.readFileSync\` of a 260-byte file, p50 ${fmt(read)}. Target: ≤ ${TARGET_MS} ms.`,
      '',
      '| project | p50 | p99 | p50 / readFileSync |',
      '|---|---|---|---|',
      ...scenarios.map(({ name }) => {
        const r = results.scenarios[name];
        return `| ${name} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${(r.p50 / read).toFixed(1)}× |`;
      }),
      '',
      `The typical project ${typical.p50 <= TARGET_MS ? 'meets' : 'misses'} the target (p50 ${fmt(typical.p50)}).`,
    ];
    return { markdown: `${lines.join('\n')}\n`, results };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = process.argv[2] ? Number.parseInt(process.argv[2], 10) : undefined;
  const { markdown } = await benchTrust(runs ? { runs } : {});
  process.stdout.write(markdown);
}
