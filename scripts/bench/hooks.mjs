// User hooks (issue 13): what a PreToolUse hook costs per call, in one process through the
// kernel's own preToolUse hook, against references measured in the same invocation:
//   - no rule at all (the plugin taps nothing);
//   - 20 rules whose matchers do not match the call (no process is started);
//   - one empty command hook (`true`) that matches, vs spawning `/bin/sh -c true` directly with
//     child_process and writing the same payload to its stdin (the floor for "run a command").
// The harness is bundled from the sources with esbuild (no `npm run build` needed).
//
//   node scripts/bench/hooks.mjs [runs]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, runSourceHarness } from './harness.mjs';


const HARNESS = `
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { Kernel } from ${JSON.stringify(path.join(ROOT, 'kernel/kernel.ts'))};
import { rawHooksOf } from ${JSON.stringify(path.join(ROOT, 'kernel/raw-hooks.ts'))};
import { MemoryReporter } from ${JSON.stringify(path.join(ROOT, 'kernel/reporter.ts'))};
import { memoryEnv, memoryModel } from ${JSON.stringify(path.join(ROOT, 'test/support/memory-provider.ts'))};
import { createHooksPlugin } from ${JSON.stringify(path.join(ROOT, 'plugins/hooks/index.ts'))};

const config = JSON.parse(process.env.MEWCODE_HOOK_BENCH);
const tool = { name: 'bash', description: 'bash', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: 'ok' }) };

async function perCall(home) {
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({ plugins: [memoryModel([]).plugin, createHooksPlugin({ env: { PATH: process.env.PATH } })], projectRoot: config.root, homeDir: home, env: memoryEnv, reporter });
  if (reporter.warnings.length > 0) throw new Error(reporter.warnings.join(' | '));
  const hooks = rawHooksOf(kernel);
  const context = { ...kernel.session.context(), mode: 'default', call: { id: 'call_1', name: 'bash', input: '{"command":"ls"}' }, tool, input: { command: 'ls' }, iteration: 1 };
  const samples = [];
  for (let i = -config.warmup; i < config.runs; i++) {
    const started = performance.now();
    await hooks.preToolUse.promise({ input: { command: 'ls' }, additionalContext: [] }, context);
    if (i >= 0) samples.push(performance.now() - started);
  }
  await kernel.shutdown();
  return samples;
}

function spawnFloor() {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.stdin.on('error', () => undefined); // true does not read it
    child.stdin.end(JSON.stringify({ session_id: 'x', tool_name: 'Bash', tool_input: { command: 'ls' } }) + '\\n');
    child.once('close', () => resolve(performance.now() - started));
  });
}

const result = { none: await perCall(config.homes.none), nonMatching: await perCall(config.homes.nonMatching), empty: await perCall(config.homes.empty), floor: [] };
for (let i = -config.warmup; i < config.runs; i++) {
  const ms = await spawnFloor();
  if (i >= 0) result.floor.push(ms);
}
process.stdout.write(JSON.stringify(result));
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.9) - 1)];

export async function benchHooks({ runs = 200, warmup = 20 } = {}) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-hook-bench-'));
  try {
    const root = path.join(work, 'project');
    mkdirSync(root);
    const home = (name, hooks) => {
      const dir = path.join(work, name);
      mkdirSync(path.join(dir, '.mewcode'), { recursive: true });
      if (hooks) writeFileSync(path.join(dir, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
      return dir;
    };
    const nonMatching = Array.from({ length: 20 }, (_, i) => ({ matcher: i % 2 ? `Write|Edit` : `mcp__server${i}__.*`, hooks: [{ type: 'command', command: 'true' }] }));
    const homes = {
      none: home('none'),
      nonMatching: home('non-matching', { PreToolUse: nonMatching }),
      empty: home('empty', { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] }),
    };
    const r = await runSourceHarness(work, HARNESS, 'MEWCODE_HOOK_BENCH', { root, homes, runs, warmup }, 'hook bench');
    const ms = (v) => (v < 0.1 ? `${(v * 1000).toFixed(1)} µs` : `${v.toFixed(2)} ms`);
    const rows = [
      '| PreToolUse, per call | Median | p90 | Reference (median, same run) | Ratio |',
      '| --- | --- | --- | --- | --- |',
      `| no rule | ${ms(median(r.none))} | ${ms(p90(r.none))} | — | — |`,
      `| 20 rules, none matching | ${ms(median(r.nonMatching))} | ${ms(p90(r.nonMatching))} | no rule: ${ms(median(r.none))} | +${ms(median(r.nonMatching) - median(r.none))} |`,
      `| one empty command hook (\`true\`) | ${ms(median(r.empty))} | ${ms(p90(r.empty))} | \`spawn('/bin/sh', ['-c', 'true'])\` + the payload on stdin: ${ms(median(r.floor))} | ${(median(r.empty) / median(r.floor)).toFixed(2)}× |`,
    ];
    return { markdown: `${rows.join('\n')}\n\n${runs} calls of each after ${warmup} warm-up calls, through the kernel's preToolUse hook with the hooks plugin booted on a settings file of that shape (user scope: no sandbox). The empty hook's cost over the floor is the payload, the hook log line and the result's interpretation.` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await benchHooks({ runs: Number(process.argv[2] ?? 200) });
  process.stdout.write(`${markdown}\n`);
}
