// glob and grep against ripgrep on a real large tree (T6, T7).
//
//   node scripts/bench/tool-search.mjs [--runs N] [--tree DIR]
//
// `benchSearch({ runs })` searches the project's own node_modules when it holds ≥ 20,000 files
// (else copies of it in a temporary directory), bundles the two tools with esbuild, and times,
// in child processes, interleaved (the order rotates every round) and with the page cache warm:
//   - grep for a literal and for a regex, in content mode against `rg -n` and in
//     files_with_matches mode against `rg -l` (and `rg -c` beside it, which like MewCode's grep
//     reads each matching file to its end): MewCode's grep on its ripgrep engine, and (content
//     mode) on its re2js fallback;
//   - glob "**/*.js": `rg --files --glob='*.js'` (the target's reference), the same with
//     `--sortr=modified` (glob's newest-first order) and MewCode's glob.
// Ignore files are ON on both sides (the tools' default; node_modules holds packages' own
// .gitignore files), and ripgrep gets the flags that spell the tools' file rules
// (sdk/search-common/ripgrep-selection.ts): RG_FLAGS below. Each MewCode child reports its
// in-process time too: inside the agent the tools run in an already-started process, so that is
// the cost a tool call adds; the child's wall time also contains Node's own start-up. Results are
// checked against ripgrep's (same match and file counts). Returns `{ markdown }`; nothing is
// written to BENCHMARKS.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MIN_FILES = 20_000;
const LITERAL = 'useState';
const REGEX = 'function\\s+\\w+Sync\\(';
// The walker's rules as ripgrep flags (plugins/tool-grep/rg-engine.ts): ignore files on (.gitignore
// without a repository, .ignore, .rgignore; no global or parent files), hidden files searched,
// hidden directories not, symlinks not followed.
const RG_FLAGS = ['--no-config', '--hidden', '--glob=!.*/', '--no-require-git', '--no-ignore-global', '--no-ignore-parent', '--no-ignore-exclude'];

function countFiles(dir) {
  let files = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop();
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) stack.push(path.join(current, entry.name));
      else if (entry.isFile()) files++;
    }
  }
  return files;
}

function ensureRipgrep(log) {
  const found = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (found.status === 0) return { available: true, version: found.stdout.split('\n')[0], note: '' };
  log('bench: rg not found; trying `apt-get install -y ripgrep`\n');
  const install = spawnSync('apt-get', ['install', '-y', 'ripgrep'], { encoding: 'utf8' });
  const again = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (again.status === 0) return { available: true, version: again.stdout.split('\n')[0], note: 'ripgrep was installed for this run with `apt-get install -y ripgrep`.' };
  const why = (install.error?.message ?? install.stderr ?? '').trim().split('\n').pop() || `exit ${install.status}`;
  return { available: false, version: 'not installed', note: `ripgrep is not installed and \`apt-get install -y ripgrep\` failed (${why}): only MewCode's re2js fallback and glob were measured, without ratios.` };
}

async function buildTree(log, minFiles = MIN_FILES, source = path.join(ROOT, 'node_modules')) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mewcode-bench-search-'));
  let files = 0;
  for (let copy = 0; files < minFiles && copy < 8; copy++) {
    log(`bench: copying node_modules into the tree (copy ${copy + 1})\n`);
    const result = spawnSync('cp', ['-r', source, path.join(dir, `copy${copy}`)]);
    if (result.status !== 0) throw new Error(`cp -r failed: ${result.stderr}`);
    files = countFiles(dir);
  }
  if (files < minFiles) throw new Error(`the benchmark tree has only ${files} files (need ${minFiles})`);
  return { dir, files };
}

const ENTRY = `
import { GrepTool } from ${JSON.stringify(path.join(ROOT, 'plugins/tool-grep/grep-tool.ts'))};
import { GlobTool } from ${JSON.stringify(path.join(ROOT, 'plugins/tool-glob/glob-tool.ts'))};
import { LIMITS } from ${JSON.stringify(path.join(ROOT, 'plugins/output-limits/limits.ts'))};
import { cutBytes, cutLine } from ${JSON.stringify(path.join(ROOT, 'sdk/text-cuts.ts'))};
const [tool, engine, root, input, calls = '1'] = process.argv.slice(2);
const limits = { ...LIMITS, spillDir: () => root, spillPath: async () => root, cutLine, cutBytes };
const instance = tool === 'glob' ? new GlobTool(limits) : new GrepTool(limits, { engine });
// calls = 2: the second call of a process is timed (a session's later searches).
let result;
let ms = 0;
for (let call = 1; call <= Number(calls); call++) {
  const started = performance.now();
  result = await instance.execute(JSON.parse(input), { signal: new AbortController().signal, projectRoot: root, homeDir: root, sessionId: 'bench', toolCallId: 'bench' });
  ms = performance.now() - started;
}
process.stdout.write(JSON.stringify({ ms, engine: instance.lastRun?.engine, isError: result.isError ?? false, content: result.content }));
`;

// The least a newest-first list costs in Node: ripgrep's list, then one lstat per listed file (as
// glob makes them), nothing else. Its in-process time against rg's shows what the stats alone take.
const STAT_FLOOR = `
const { spawn } = require('node:child_process');
const { lstatSync } = require('node:fs');
const [args, root] = [JSON.parse(process.argv[1]), process.argv[2]];
const started = performance.now();
const child = spawn('rg', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const chunks = [];
child.stdout.on('data', (d) => chunks.push(d));
child.on('close', () => {
  let files = 0;
  const names = Buffer.concat(chunks).toString('utf8').split('\\0');
  const statStarted = performance.now();
  for (const name of names) {
    if (name !== '' && lstatSync(root + '/' + name.replace(/^\\.\\//, ''), { throwIfNoEntry: false })?.isFile()) files++;
  }
  const now = performance.now();
  process.stdout.write(JSON.stringify({ ms: now - started, statMs: now - statStarted, files }));
});
`;

async function bundleTools(dir) {
  const { build } = await import('esbuild');
  const entry = path.join(dir, 'entry.ts');
  const outfile = path.join(dir, 'search-tools.mjs');
  writeFileSync(entry, ENTRY);
  await build({
    entryPoints: [entry],
    bundle: true,
    // jsonc-parser's "main" is a UMD build whose relative requires esbuild cannot follow.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    // picomatch is CommonJS and requires node built-ins
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}

function childEnv() {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.RIPGREP_CONFIG_PATH;
  return env;
}

function timed(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      resolve({ code, wallMs, stdout: Buffer.concat(out).toString('utf8'), stderr: err });
    });
  });
}

/** The total a result stands for: "showing … of N" in its truncation marker, else its result lines. */
function totalOf(content) {
  const marker = /\(showing (?:the first |the )?\d+ (?:most recently modified )?of (\d+)/.exec(content);
  if (marker) return Number(marker[1]);
  if (content.startsWith('No ')) return 0;
  const results = content.split('\n\n')[0]; // notes follow a blank line
  return results.split('\n').filter((l) => l !== '' && l !== '--').length;
}

function fmt(ms) {
  return Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : 'n/a';
}

function ratio(value, reference) {
  return Number.isFinite(value) && Number.isFinite(reference) && reference > 0 ? `${(value / reference).toFixed(2)}×` : '—';
}

/** `minFiles` / `source`: the smoke run's small tree (copies of one package instead of node_modules). */
export async function benchSearch({ runs = 5, warmup = 1, treeDir, log = (text) => process.stderr.write(text), minFiles = MIN_FILES, source } = {}) {
  const rg = ensureRipgrep(log);
  const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-bench-tools-'));
  const ownModules = source === undefined ? path.join(ROOT, 'node_modules') : undefined;
  const ownFiles = ownModules && !treeDir ? countFiles(ownModules) : 0;
  const tree = treeDir
    ? { dir: treeDir, files: countFiles(treeDir), reused: true, label: 'given' }
    : ownFiles >= minFiles
      ? { dir: realpathSync(ownModules), files: ownFiles, reused: true, label: "the project's node_modules" }
      : { ...(await buildTree(log, minFiles, source)), reused: false, label: 'copies of node_modules' };
  try {
    const bundle = await bundleTools(work);
    const node = process.execPath;
    const ours = (tool, engine, input, calls = 1) => async () => {
      const r = await timed(node, [bundle, tool, engine, tree.dir, JSON.stringify(input), String(calls)], tree.dir);
      if (r.code !== 0) throw new Error(`${tool} (${engine}) child failed: ${r.stderr}`);
      const parsed = JSON.parse(r.stdout);
      if (parsed.isError) throw new Error(`${tool} returned an error: ${parsed.content}`);
      return { wallMs: r.wallMs, inProcessMs: parsed.ms, total: totalOf(parsed.content), engine: parsed.engine };
    };
    const ripgrep = (args, count) => async () => {
      const r = await timed('rg', [...RG_FLAGS, ...args], tree.dir);
      if (r.code !== 0 && r.code !== 1) throw new Error(`rg failed: ${r.stderr}`);
      return { wallMs: r.wallMs, inProcessMs: NaN, total: count(r.stdout) };
    };
    const lineCount = (text) => text.split('\n').filter((l) => l !== '').length;

    const cases = [];
    for (const [label, pattern] of [
      ['literal', LITERAL],
      ['regex', REGEX],
    ]) {
      for (const [mode, flag, count] of [
        ['content', '-n', lineCount],
        ['files_with_matches', '-l', lineCount],
      ]) {
        const group = `grep ${label} \`${pattern}\`, ${mode}`;
        if (rg.available) cases.push({ group, name: `rg ${flag}`, reference: true, run: ripgrep([flag, '-e', pattern, '.'], count) });
        // `rg -l` stops reading a file at its first match; MewCode's grep reads each matching file to
        // its end (a NUL byte after the first match still makes it binary), as `rg -c` does.
        if (rg.available && mode === 'files_with_matches') cases.push({ group, name: 'rg -c', sameWork: true, run: ripgrep(['-c', '-e', pattern, '.'], count) });
        if (rg.available) cases.push({ group, name: 'MewCode grep (ripgrep engine)', target: 1.15, run: ours('grep', 'ripgrep', { pattern, output_mode: mode }) });
        if (rg.available) cases.push({ group, name: 'MewCode grep (ripgrep engine), second call', later: true, run: ours('grep', 'ripgrep', { pattern, output_mode: mode }, 2) });
        if (mode === 'content') cases.push({ group, name: 'MewCode grep (re2js fallback)', run: ours('grep', 're2js', { pattern, output_mode: mode }), slow: true });
      }
    }
    const globGroup = 'glob `**/*.js`';
    if (rg.available) cases.push({ group: globGroup, name: "rg --files --glob='*.js'", reference: true, run: ripgrep(['--files', '--glob=*.js', '.'], lineCount) });
    // the same list in glob's order (newest first): ripgrep then stats every file and sorts on one thread
    if (rg.available) cases.push({ group: globGroup, name: "rg --files --glob='*.js' --sortr=modified", sameOrder: true, run: ripgrep(['--files', '--glob=*.js', '--sortr=modified', '.'], lineCount) });
    if (rg.available) {
      const floorArgs = [...RG_FLAGS, '--files', '--null', '--glob=*.js', '.'];
      const statFloor = async () => {
        const r = await timed(node, ['-e', STAT_FLOOR, JSON.stringify(floorArgs), tree.dir], tree.dir);
        if (r.code !== 0) throw new Error(`the stat floor's child failed: ${r.stderr}`);
        const parsed = JSON.parse(r.stdout);
        return { wallMs: r.wallMs, inProcessMs: parsed.ms, statMs: parsed.statMs, total: parsed.files };
      };
      cases.push({ group: globGroup, name: 'rg --files, then one lstat per file (Node)', floor: true, run: statFloor });
    }
    cases.push({ group: globGroup, name: 'MewCode glob', target: 1.2, run: ours('glob', 'auto', { pattern: '**/*.js' }) });
    cases.push({ group: globGroup, name: 'MewCode glob, second call', later: true, run: ours('glob', 'auto', { pattern: '**/*.js' }, 2) });

    const samples = new Map(cases.map((c) => [c, []]));
    const fallbackRuns = Math.max(1, Math.min(runs, 3));
    for (let i = -warmup; i < runs; i++) {
      log(`bench: search round ${i < 0 ? 'warm-up' : `${i + 1}/${runs}`}\n`);
      // rotate the order so no case always follows the same one
      const order = cases.map((_, k) => cases[(k + Math.max(0, i)) % cases.length]);
      for (const c of order) {
        if (c.slow && i >= fallbackRuns) continue;
        const sample = await c.run();
        if (i >= 0) samples.get(c).push(sample);
        else c.first = sample;
      }
    }

    const rows = [];
    const checks = [];
    const verdicts = [];
    for (const group of [...new Set(cases.map((c) => c.group))]) {
      const members = cases.filter((c) => c.group === group);
      const ref = members.find((c) => c.reference);
      const refWall = ref ? median(samples.get(ref).map((s) => s.wallMs)) : NaN;
      for (const c of members) {
        const list = samples.get(c);
        const wall = median(list.map((s) => s.wallMs));
        const inProcess = median(list.map((s) => s.inProcessMs));
        const total = list[0]?.total;
        const native = c.reference || c.sameOrder || c.sameWork;
        // A second call's child also made the first: its wall time says nothing.
        rows.push(`| ${group} | ${c.name} | ${list.length} | ${c.later ? '—' : fmt(wall)} | ${native ? '—' : fmt(inProcess)} | ${c.reference ? '1.00×' : c.later ? '—' : ratio(wall, refWall)} | ${native ? '—' : ratio(inProcess, refWall)} | ${total} |`);
        if (ref && !c.reference && !c.sameWork) {
          const refTotal = samples.get(ref)[0]?.total;
          if (total !== refTotal) checks.push(`${group}: ${c.name} found ${total}, ripgrep ${refTotal}`);
        }
        if (c.target && ref) {
          const wallRatio = wall / refWall;
          const inRatio = inProcess / refWall;
          verdicts.push(
            `- ${c.name}, ${group}: target ≤ ${c.target}× rg — in-process ${inRatio.toFixed(2)}× (${inRatio <= c.target ? 'met' : 'missed'}), child wall time ${wallRatio.toFixed(2)}× (${wallRatio <= c.target ? 'met' : 'missed'}).`,
          );
        }
        const later = members.find((m) => m.later);
        if (c.target && later && ref) {
          const laterMs = median(samples.get(later).map((s) => s.inProcessMs));
          verdicts.push(`- The same search as a process's second call (a session's later ${group.startsWith('glob') ? 'globs' : 'greps'}): ${fmt(laterMs)}, ${ratio(laterMs, refWall)} rg in-process (${laterMs / refWall <= c.target ? 'met' : 'missed'}).`);
        }
        if (c.slow && ref) verdicts.push(`- re2js fallback, ${group}: ${ratio(inProcess, refWall)} ripgrep in-process (${ratio(wall, refWall)} wall).`);
        const sameWork = members.find((m) => m.sameWork);
        if (c.target && sameWork) {
          const fullWall = median(samples.get(sameWork).map((s) => s.wallMs));
          verdicts.push(`- Against \`rg -c\` (${fmt(fullWall)}), which reads every matching file to its end as MewCode's grep does: in-process ${ratio(inProcess, fullWall)} (${ratio(wall, fullWall)} wall).`);
        }
        const floor = members.find((m) => m.floor);
        if (c.target && floor) {
          const floorMs = median(samples.get(floor).map((s) => s.inProcessMs));
          const statMs = median(samples.get(floor).map((s) => s.statMs));
          verdicts.push(
            `- Newest first needs every match's mtime: ripgrep's list and then one lstat per file, nothing else, takes ${fmt(floorMs)} in a Node process (${ratio(floorMs, refWall)} rg); its ${samples.get(floor)[0]?.total} lstat calls alone take ${fmt(statMs)} (${ratio(statMs, refWall)} of rg's whole time, where the ${c.target}× target leaves ${fmt((c.target - 1) * refWall)}). MewCode glob, which makes them while ripgrep still walks, is ${ratio(inProcess, floorMs)} of that floor in-process.`,
          );
        }
        const sameOrder = members.find((m) => m.sameOrder);
        if (c.target && sameOrder) {
          const sortedWall = median(samples.get(sameOrder).map((s) => s.wallMs));
          verdicts.push(`- For the same newest-first list, \`rg --sortr=modified\` takes ${fmt(sortedWall)}: MewCode glob is ${ratio(inProcess, sortedWall)} of that in-process (${ratio(wall, sortedWall)} wall). MewCode glob lists with \`rg --files\` too; the gap to it is the mtime of every match (one lstat each, made while ripgrep still walks) and the sort.`);
        }
      }
    }

    const markdown = [
      '### glob and grep vs ripgrep',
      '',
      `Tree: ${tree.files.toLocaleString('en-US')} files (${tree.label}), ignore files on for both sides. ripgrep: ${rg.version}. Node ${process.version}, ${os.cpus().length} CPUs. Medians of ${runs} runs (re2js fallback: ${fallbackRuns}) after ${warmup === 1 ? 'one warm-up round' : `${warmup} warm-up rounds`}; page cache warm.`,
      ...(rg.note ? ['', rg.note] : []),
      '',
      '| case | command | runs | wall (child) | in-process | wall ÷ rg | in-process ÷ rg | matches / files |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `ripgrep reference: \`rg ${RG_FLAGS.join(' ')} -n -e PATTERN .\` (content), the same with \`-l\` (files_with_matches; \`-c\` beside it reads every matching file to its end, as MewCode's grep does), and \`rg ${RG_FLAGS.join(' ')} --files --glob='*.js' .\` (hidden files searched, hidden directories not, ignore files on without global or parent files, symlinks not followed — the tools' rules). MewCode children are the esbuild bundle of the two tools with their defaults; "in-process" is the tool call alone (a process's first; "second call" rows time the next one in the same process, as a session's later searches run), "wall" adds Node's start-up. The machine may be shared: compare the ratios, taken in the same run.`,
      '',
      ...verdicts,
      checks.length === 0 ? '- Result check: every MewCode run found the same number of matching lines / files as ripgrep.' : `- Result check FAILED: ${checks.join('; ')}`,
    ].join('\n');
    return { markdown };
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (!tree.reused) rmSync(tree.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf('--runs');
  const treeAt = args.indexOf('--tree');
  const runs = runsAt >= 0 ? Number.parseInt(args[runsAt + 1], 10) : 5;
  const treeDir = treeAt >= 0 ? path.resolve(args[treeAt + 1]) : undefined;
  const { markdown } = await benchSearch({ runs, treeDir });
  process.stdout.write(`${markdown}\n`);
}
