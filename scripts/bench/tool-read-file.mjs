// read_file on a huge file (T2: the head of a huge file must not cost the whole file).
//
//   node scripts/bench/tool-read-file.mjs [--runs N]        prints the Markdown section
//   import { benchReadFile } from './bench/tool-read-file.mjs'; await benchReadFile({ runs })
//
// Method: a 1 GiB file of real text lines (a 1 MiB block of numbered lines written 1024 times;
// 256 MiB when the temp filesystem has less than 3 GB free) — text all the way, so a reader that
// scanned or loaded the file would pay for real text, not a sparse hole. The tool is bundled from
// its TypeScript sources with esbuild (the built dist/ bundle is not touched and not needed), and
// each measurement runs in a fresh child process:
//   read     — loads the bundle, builds the tool, calls read_file once (first window, cold code:
//              what the model's first read costs) and once more (warm code), prints wall times
//              and process.resourceUsage().maxRSS before and after;
//   baseline — the same process without the two calls.
// Additional RSS = median peak RSS of the read children − median peak RSS of the baseline children
// (interleaved runs). The file is in the page cache (just written); cold-cache disk reads are not
// measured, since dropping caches would disturb whatever else runs on the machine.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { median, percentile } from './stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TARGET_MS = 50;
const TARGET_RSS_BYTES = 50 * 1000 * 1000;
const GIB = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;

const CHILD_SOURCE = `
import { ReadFileTool } from './plugins/tool-read-file/read-file-tool.js';
import { LIMITS } from './plugins/output-limits/limits.js';
import { cutBytes, cutLine } from './sdk/text-cuts.js';
import { FileReadTrackerImpl } from './kernel/file-read-tracker.js';

const [mode, file] = process.argv.slice(2);
const limits = { ...LIMITS, spillDir: () => '', spillPath: async () => '', cutLine, cutBytes };
const tool = new ReadFileTool(limits, new FileReadTrackerImpl());
const context = { signal: new AbortController().signal, projectRoot: process.cwd(), homeDir: process.cwd(), sessionId: 'bench', toolCallId: 'bench' };
const peakBeforeKiB = process.resourceUsage().maxRSS;
const out = { mode, peakBeforeKiB, firstMs: NaN, warmMs: NaN, lines: 0, firstLine: '', lastLine: '' };
if (mode === 'read') {
  let started = performance.now();
  const result = await tool.execute({ path: file }, context);
  out.firstMs = performance.now() - started;
  if (result.isError) throw new Error(result.content);
  started = performance.now();
  await tool.execute({ path: file }, context);
  out.warmMs = performance.now() - started;
  const lines = result.content.split('\\n');
  out.lines = lines.length;
  out.firstLine = lines[0];
  out.lastLine = lines[lines.length - 1];
}
out.peakAfterKiB = process.resourceUsage().maxRSS;
process.stdout.write(JSON.stringify(out));
`;

/** `size`: the file's bytes (the smoke run's tiny file); default 1 GiB, or 256 MiB on a small temp disk. */
export async function benchReadFile({ runs = 10, progress = () => {}, size: sizeOverride } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mewcode-bench-read-'));
  try {
    const free = freeBytes(os.tmpdir());
    const size = sizeOverride ?? (free >= 3e9 ? GIB : 256 * MIB);
    const file = path.join(dir, 'huge.log');
    progress(`read_file: writing a ${size / MIB} MiB text file`);
    const writeMs = writeTextFile(file, size);
    const bundle = path.join(dir, 'read-file-bench.mjs');
    await bundleTool(bundle);

    const read = [];
    const baseline = [];
    for (let i = -1; i < runs; i++) {
      progress(`read_file: run ${Math.max(0, i + 1)}/${runs}`);
      // Alternate which child goes first so neither always follows the other.
      const order = i % 2 === 0 ? ['read', 'baseline'] : ['baseline', 'read'];
      for (const mode of order) {
        const result = await runChild(bundle, mode, file, dir);
        if (i >= 0) (mode === 'read' ? read : baseline).push(result);
      }
    }
    const sample = read[0];
    if (sample.lines !== 2001 || !sample.lastLine.includes('offset=2001')) throw new Error(`unexpected read_file output: ${sample.lines} lines, last: ${sample.lastLine}`);
    return { markdown: report({ size, free, writeMs, read, baseline, runs }), read, baseline };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function freeBytes(dir) {
  const info = statfsSync(dir);
  return Number(info.bavail) * Number(info.bsize);
}

/** A 1 MiB block of numbered text lines, written until the file has `size` bytes. */
function writeTextFile(file, size) {
  const started = performance.now();
  const lines = [];
  let length = 0;
  for (let n = 1; length < MIB; n++) {
    const line = `${String(n).padStart(7, '0')} INFO request handled in ${n % 997} ms path=/api/items/${n} status=200\n`;
    lines.push(line);
    length += line.length;
  }
  const block = Buffer.from(lines.join('')).subarray(0, MIB);
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < size; written += block.length) writeSync(fd, block, 0, Math.min(block.length, size - written));
  } finally {
    closeSync(fd);
  }
  return performance.now() - started;
}

async function bundleTool(outfile) {
  await build({
    stdin: { contents: CHILD_SOURCE, resolveDir: ROOT, sourcefile: 'read-file-bench-entry.ts', loader: 'ts' },
    bundle: true,
    // jsonc-parser's "main" is a UMD build whose relative requires esbuild cannot follow.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
}

function runChild(bundle, mode, file, cwd) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // the child measures the tool, not the caller's Node flags
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, mode, file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`read_file bench child (${mode}) exited ${code}: ${stderr.trim()}`));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`read_file bench child (${mode}) printed no result: ${stdout}${stderr}`));
      }
    });
  });
}

function report({ size, free, writeMs, read, baseline, runs }) {
  const first = read.map((r) => r.firstMs);
  const warm = read.map((r) => r.warmMs);
  const readPeak = median(read.map((r) => r.peakAfterKiB)) * 1024;
  const basePeak = median(baseline.map((r) => r.peakAfterKiB)) * 1024;
  const added = readPeak - basePeak;
  const inChild = median(read.map((r) => (r.peakAfterKiB - r.peakBeforeKiB) * 1024));
  const fmtMs = (v) => `${v.toFixed(2)} ms`;
  const fmtMiB = (v) => `${(v / MIB).toFixed(1)} MiB`;
  const status = (value, limit) => (value <= limit ? 'met' : '**not met**');
  const sizeText = size === GIB ? '1 GiB' : `${size / MIB} MiB (less than 3 GB free in the temp directory: ${(free / 1e9).toFixed(1)} GB)`;
  return [
    `#### read_file on a ${size === GIB ? '1 GiB' : `${size / MIB} MiB`} text file`,
    '',
    '| measurement | median | p90 | reference | target | status |',
    '|---|---|---|---|---|---|',
    `| first window (2000 lines + marker), first call in a fresh process | ${fmtMs(median(first))} | ${fmtMs(percentile(first, 90))} | — | ≤ ${TARGET_MS} ms | ${status(median(first), TARGET_MS)} |`,
    `| same window, second call (warm code) | ${fmtMs(median(warm))} | ${fmtMs(percentile(warm, 90))} | — | — | — |`,
    `| peak RSS added by the two reads | ${fmtMiB(added)} | — | baseline child (bundle loaded, tool built, no read) ${fmtMiB(basePeak)}; read child ${fmtMiB(readPeak)} | ≤ 50 MB | ${status(added, TARGET_RSS_BYTES)} |`,
    `| peak RSS growth inside the read child (maxRSS after − before the calls) | ${fmtMiB(inChild)} | — | — | — | — |`,
    '',
    `Method: ${sizeText} of real text lines (a 1 MiB block of numbered log lines written repeatedly, ${(writeMs / 1000).toFixed(1)} s to write), ` +
      'so a reader that scanned or loaded the file would pay for text, not a sparse hole. The read_file tool is bundled from its TypeScript sources with esbuild into a temporary file; ' +
      `each of ${runs} interleaved runs (after one warm-up) starts a fresh \`node\` child that loads the bundle and builds the tool, then either calls read_file twice on the file (read) or stops there (baseline). ` +
      'Times are measured around `tool.execute` inside the child; RSS is `process.resourceUsage().maxRSS` (peak). The file is in the page cache (just written); cold-cache disk reads are not measured. ' +
      `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(1)} at the end of the run (other work on the machine inflates the times).`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write(`tool-read-file bench: --runs must be a whole number ≥ 1 (got "${values.runs}")\n`);
    process.exit(2);
  }
  const { markdown } = await benchReadFile({ runs, progress: (m) => process.stderr.write(`\r${m}          `) });
  process.stderr.write('\n');
  process.stdout.write(`${markdown}\n`);
}
