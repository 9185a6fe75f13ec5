#!/usr/bin/env node
// Kernel boot (Kernel.create with the default plugins → startSession) for two or more MewCode
// builds, interleaved in one invocation: each round runs, for every build in turn, a child that
// imports that build's package and boots it `--boots` times in a row (scripts/bench/boot-driver.mjs).
// A build is a checkout with its dist/ built (`npm run build`):
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npm run build)
//   node scripts/bench/compare-boot.mjs /tmp/before . [--rounds N] [--boots N]
//
// The first boot of each child (modules just loaded, nothing compiled yet: what a CLI start pays)
// and the later ones (the same code warm: what the boot's own work costs) are reported apart, as
// wall time and as the child's CPU time (user + system) over the boot; on shared cores the wall
// time mostly measures the wait for a core. The first round is warm-up and discarded.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeGitProject } from './harness.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '12' }, boots: { type: 'string', default: '10' } } });
const rounds = Number.parseInt(values.rounds, 10);
const boots = Number.parseInt(values.boots, 10);
if (positionals.length < 1 || !(rounds >= 2) || !(boots >= 2)) {
  process.stderr.write('usage: node scripts/bench/compare-boot.mjs BUILD_DIR [BUILD_DIR…] [--rounds N ≥ 2] [--boots N ≥ 2]\n');
  process.exit(2);
}
const builds = positionals.map((dir) => path.resolve(dir));
const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'boot-driver.mjs');
const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-compare-boot-'));
const home = mkdtempSync(path.join(work, 'home-'));
const project = makeGitProject(mkdtempSync(path.join(work, 'project-')));
// A provider is configured (boot resolves it) but never called: no session runs a prompt.
const env = { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'bench-model' };

function child(build) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [DRIVER, build, String(boots)], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk) => (stdout += chunk));
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) reject(new Error(`boot driver for ${build} exited ${code}:\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)).boots);
    });
  });
}

const samples = new Map(builds.map((build) => [build, { cold: { wall: [], cpu: [] }, warm: { wall: [], cpu: [] } }]));
try {
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`compare-boot: round ${round + 1}/${rounds}\r`);
    for (const build of builds) {
      const result = await child(build);
      if (round === 0) continue;
      const into = samples.get(build);
      result.forEach((boot, i) => {
        const kind = i === 0 ? into.cold : into.warm;
        kind.wall.push(boot.wallMs);
        kind.cpu.push(boot.cpuMs);
      });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
process.stderr.write('\n');
const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const name = (build) => path.relative(process.cwd(), build) || '.';
const first = samples.get(builds[0]);
const delta = (value, base) => `${value - base >= 0 ? '+' : ''}${(value - base).toFixed(2)} ms`;
process.stdout.write(`| build | boot | n | wall median | CPU median | CPU vs ${name(builds[0])} |\n| --- | --- | --- | --- | --- | --- |\n`);
for (const kind of ['cold', 'warm']) {
  for (const build of builds) {
    const s = samples.get(build)[kind];
    const label = kind === 'cold' ? 'first of its process' : 'later boots, same process';
    process.stdout.write(`| ${name(build)} | ${label} | ${s.cpu.length} | ${median(s.wall).toFixed(2)} ms | ${median(s.cpu).toFixed(2)} ms | ${delta(median(s.cpu), median(first[kind].cpu))} |\n`);
  }
}
