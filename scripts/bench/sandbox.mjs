// Cost of the OS sandbox per bash call (issue 8): the same command through the bash tool, with
// and without the sandbox (bubblewrap on Linux, sandbox-exec on macOS).
//
//   node scripts/bench/sandbox.mjs [--runs N]      prints a Markdown section to stdout
//   import { benchSandbox } from './scripts/bench/sandbox.mjs'; await benchSandbox({ runs: 50 })
//
// The script bundles the tool (plugins/tool-bash/bash-tool.ts) and the sandbox service
// (plugins/sandbox-os/service.ts) with esbuild and runs them in one child Node process (no
// NODE_OPTIONS), in a temporary project with a .git directory (so the protected-path mounts are
// part of the cost). For each command (`true`, `ls`) it makes one warm-up call each way, then
// `runs` calls each way, interleaved (plain, sandboxed, plain, …), timing each whole
// `tool.execute` (spawn, wait, output collection, plus for the sandbox: the mount plan, the
// mount points for missing protected paths and their removal). The probe runs before the timing.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, percentile } from './stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const COMMANDS = ['true', 'ls'];

const entry = () => `
import path from 'node:path';
import { BashTool } from ${JSON.stringify(path.join(ROOT, 'plugins', 'tool-bash', 'bash-tool.ts'))};
import { createOutputLimits } from ${JSON.stringify(path.join(ROOT, 'plugins', 'output-limits', 'index.ts'))};
import { OsCommandSandbox } from ${JSON.stringify(path.join(ROOT, 'plugins', 'sandbox-os', 'service.ts'))};

const [root, home, runsText, commandsJson] = process.argv.slice(2);
const runs = Number(runsText);
const sandbox = new OsCommandSandbox({ homeDir: home, warn: (m) => process.stderr.write(m + '\\n') });
await sandbox.start();
const status = await sandbox.probe();
const limits = createOutputLimits(path.join(root, '.mewcode', 'tool-output'));
const plain = new BashTool(limits);
const boxed = new BashTool(limits, { sandbox: () => sandbox });
let calls = 0;
const context = () => ({ signal: new AbortController().signal, projectRoot: root, homeDir: home, sessionId: 'bench', agentId: 'main', session: undefined, toolCallId: 'bench_' + ++calls });
async function time(tool, command) {
  const started = performance.now();
  const result = await tool.execute({ command }, context());
  const ms = performance.now() - started;
  if (result.isError || !result.content.startsWith('exit_code: 0')) throw new Error('bench call failed: ' + result.content.slice(0, 300));
  return ms;
}
const samples = {};
for (const command of JSON.parse(commandsJson)) {
  samples[command] = { plain: [], sandboxed: [] };
  await time(plain, command);
  if (status.active) await time(boxed, command);
  for (let i = 0; i < runs; i++) {
    samples[command].plain.push(await time(plain, command));
    if (status.active) samples[command].sandboxed.push(await time(boxed, command));
  }
}
await sandbox.dispose();
process.stdout.write(JSON.stringify({ status, samples }));
`;

async function bundle(dir) {
  const outfile = path.join(dir, 'sandbox-bench.mjs');
  await build({
    stdin: { contents: entry(), resolveDir: ROOT, loader: 'ts', sourcefile: 'sandbox-bench-entry.ts' },
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

function runChild(bundleFile, args) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundleFile, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`sandbox bench child exited ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`sandbox bench child printed no result: ${out.slice(0, 200)} ${err.slice(0, 500)}`));
      }
    });
  });
}

const msText = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a');

export async function benchSandbox({ runs = 50, progress = () => undefined } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mc-bench-sandbox-'));
  try {
    const bundleFile = await bundle(dir);
    const root = path.join(dir, 'project');
    const home = path.join(dir, 'home');
    mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
    mkdirSync(path.join(root, '.mewcode'), { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(path.join(root, `file-${i}.txt`), 'x\n');
    mkdirSync(path.join(home, '.ssh'), { recursive: true });
    progress(`sandbox bench: ${runs} runs each of ${COMMANDS.join(', ')}, plain and sandboxed`);
    const { status, samples } = await runChild(bundleFile, [root, home, String(runs), JSON.stringify(COMMANDS)]);
    const rows = COMMANDS.map((command) => {
      const { plain, sandboxed } = samples[command];
      const p = median(plain);
      const s = median(sandboxed);
      return [
        `\`${command}\``,
        `${msText(p)} (p90 ${msText(percentile(plain, 90))})`,
        status.active ? `${msText(s)} (p90 ${msText(percentile(sandboxed, 90))})` : 'n/a',
        status.active ? `+${msText(s - p)}` : '—',
        status.active ? `${(s / p).toFixed(2)}×` : '—',
      ];
    });
    const cpu = os.cpus();
    const markdown = [
      '## OS sandbox: cost per bash call',
      '',
      'Reproduce: `node scripts/bench/sandbox.mjs [--runs N]`.',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)}, ${os.type()} ${os.release()} (${os.arch()}), ${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length}, Node ${process.version}. ` +
        `Sandbox: ${status.active ? status.mechanism : `none (${status.reason})`}. Medians (p90) of ${runs} calls each way through the bash tool, interleaved, after one warm-up call each; ` +
        'each call is the whole `tool.execute` (for the sandbox also the mount plan and the temporary mount points).',
      '',
      '| Command | Plain | Sandboxed | Added per call | Ratio |',
      '| --- | --- | --- | --- | --- |',
      ...rows.map((row) => `| ${row.join(' | ')} |`),
      '',
    ].join('\n');
    return { markdown, samples, status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' } } });
  const runs = Number.parseInt(values.runs, 10);
  if (!(runs >= 1)) {
    process.stderr.write(`bench: --runs must be a whole number ≥ 1 (got "${values.runs}")\n`);
    process.exit(2);
  }
  const { markdown } = await benchSandbox({ runs, progress: (text) => process.stderr.write(`${text}\n`) });
  process.stdout.write(markdown);
}
