// Memory and time of the bash tool on a command that prints 100 MB (T5: bounded memory).
//
//   node scripts/bench/tool-bash.mjs [--runs N]      prints a Markdown section to stdout
//   import { benchBash } from './scripts/bench/tool-bash.mjs'; await benchBash({ runs: 5 })
//
// The script bundles the tool (plugins/tool-bash/bash-tool.ts with the real OutputLimits from
// plugins/output-limits/index.ts) with esbuild into a temporary file and runs it in fresh child
// processes, one call each, after one warm-up call of `true`:
//   tool     `yes | head -c 100000000` through the tool (stdout piped into the tool)
//   idle     `true` through the tool: the same process, bundle and set-up without the output
//   devnull  `yes | head -c 100000000 > /dev/null` through the tool: the command's own cost
// The three run interleaved, `runs` times each, after one discarded round. "Additional peak RSS"
// is the tool run's peak (process.resourceUsage().maxRSS at the end) minus the idle run's peak
// in the same round; "growth inside the call" is maxRSS after the call minus before it, in the
// tool run. Children run without NODE_OPTIONS.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, percentile } from './stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT_BYTES = 100_000_000;
const TARGET_KIB = 64 * 1024;

const entry = () => `
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { BashTool } from ${JSON.stringify(path.join(ROOT, 'plugins', 'tool-bash', 'bash-tool.ts'))};
import { createOutputLimits } from ${JSON.stringify(path.join(ROOT, 'plugins', 'output-limits', 'index.ts'))};

const [mode, bytes, root] = process.argv.slice(2);
const commands = {
  tool: 'yes | head -c ' + bytes,
  idle: 'true',
  devnull: 'yes | head -c ' + bytes + ' > /dev/null',
};
const tool = new BashTool(createOutputLimits(path.join(root, '.mewcode', 'tool-output')));
let calls = 0;
const context = () => ({ signal: new AbortController().signal, projectRoot: root, homeDir: root, sessionId: 'bench', toolCallId: 'bench_' + ++calls });
await tool.execute({ command: 'true' }, context());
const before = process.resourceUsage().maxRSS;
const started = performance.now();
const result = await tool.execute({ command: commands[mode], timeout: 600000 }, context());
const wallMs = performance.now() - started;
const after = process.resourceUsage().maxRSS;
const spill = / in (\\/\\S+?\\.log)/.exec(result.content)?.[1];
const spillBytes = spill ? (await stat(spill)).size : 0;
process.stdout.write(JSON.stringify({ before, after, wallMs, isError: result.isError, resultChars: result.content.length, spillBytes, spillCut: result.content.includes('Only its first') }));
`;

async function bundle(dir) {
  const outfile = path.join(dir, 'bash-tool-bench.mjs');
  await build({
    stdin: { contents: entry(), resolveDir: ROOT, loader: 'ts', sourcefile: 'bash-tool-bench-entry.ts' },
    bundle: true,
    // jsonc-parser's "main" is a UMD build whose relative requires esbuild cannot follow.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    platform: 'node',
    target: 'node20',
    format: 'esm',
    outfile,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __mewcodeCreateRequire } from 'node:module'; const require = __mewcodeCreateRequire(import.meta.url);" },
  });
  return outfile;
}

function runChild(bundleFile, mode, root, bytes) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundleFile, mode, String(bytes), root], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench child (${mode}) exited ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`bench child (${mode}) printed no result: ${out.slice(0, 200)} ${err.slice(0, 500)}`));
      }
    });
  });
}

const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
const msText = (ms) => `${ms.toFixed(0)} ms`;

/** `bytes`: output size of the command (the smoke run's is tiny); default 100 MB. */
export async function benchBash({ runs = 5, progress = () => undefined, bytes = OUTPUT_BYTES } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mc-bench-bash-'));
  try {
    const bundleFile = await bundle(dir);
    const samples = { tool: [], idle: [], devnull: [] };
    for (let round = 0; round <= runs; round++) {
      const results = {};
      for (const mode of ['idle', 'tool', 'devnull']) {
        progress(`bash bench: round ${round}/${runs} ${mode}`);
        const root = mkdtempSync(path.join(dir, `${mode}-`));
        results[mode] = await runChild(bundleFile, mode, root, bytes);
        rmSync(root, { recursive: true, force: true });
      }
      if (round === 0) continue; // warm-up round (file cache, page cache of node and the bundle)
      for (const mode of Object.keys(results)) samples[mode].push(results[mode]);
    }

    const additional = samples.tool.map((t, i) => t.after - samples.idle[i].after);
    const growth = samples.tool.map((t) => t.after - t.before);
    const toolWall = samples.tool.map((t) => t.wallMs);
    const devnullWall = samples.devnull.map((t) => t.wallMs);
    const idlePeak = samples.idle.map((t) => t.after);
    const toolPeak = samples.tool.map((t) => t.after);
    const last = samples.tool.at(-1);
    const status = median(additional) <= TARGET_KIB ? (percentile(additional, 90) <= TARGET_KIB ? 'met' : 'met (p90 over)') : '**not met**';

    const cpu = os.cpus();
    const rows = [
      [`Additional peak RSS: ${(bytes / 1e6).toLocaleString('en-US')} MB of output through the tool`, mib(median(additional)), mib(percentile(additional, 90)), `idle run (\`true\` through the tool) peak ${mib(median(idlePeak))}; tool run peak ${mib(median(toolPeak))}`, '≤ 64 MiB', status],
      ['Peak RSS growth inside the call (maxRSS after − before)', mib(median(growth)), mib(percentile(growth, 90)), '—', '—', '—'],
      ['Wall time of the call', msText(median(toolWall)), msText(percentile(toolWall, 90)), `same command \`> /dev/null\` through the tool ${msText(median(devnullWall))}`, '—', '—'],
      ['Result returned to the model', `${last.resultChars} characters`, '—', '—', '≤ 200 lines / 8000 bytes + marker', last.resultChars < 9000 ? 'met' : '**not met**'],
      ['Spill file', `${mib(last.spillBytes / 1024)}${last.spillCut ? ' (cut at the 64 MiB spill cap; the result says so)' : ''}`, '—', '—', '—', '—'],
    ];
    const markdown = [
      `## Tool: bash, ${(bytes / 1e6).toLocaleString('en-US')} MB of output`,
      '',
      'Reproduce: `node scripts/bench/tool-bash.mjs [--runs N]`.',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)}, ${os.type()} ${os.release()} (${os.arch()}), ${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length}, Node ${process.version}. ` +
        `Medians with p90 over ${runs} runs after one discarded round; each run is a fresh Node process loading an esbuild bundle of the tool with the real OutputLimits; ` +
        'the tool, idle and /dev/null runs are interleaved. The command is `yes | head -c 100000000`.',
      '',
      '| Measurement | Median | p90 | Reference (same runs) | Target | Status |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows.map((row) => `| ${row.join(' | ')} |`),
      '',
    ].join('\n');
    return { markdown, samples };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = Number.parseInt(values.runs, 10);
  if (!(runs >= 1)) {
    process.stderr.write(`bench: --runs must be a whole number ≥ 1 (got "${values.runs}")\n`);
    process.exit(2);
  }
  const { markdown } = await benchBash({ runs, progress: (text) => process.stderr.write(`${text}\n`) });
  process.stdout.write(markdown);
}
