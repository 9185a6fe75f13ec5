#!/usr/bin/env node
// Launch → first model request for two (or more) MewCode builds, interleaved in one invocation,
// so a change's start-up cost is measured against the build before it on the same noisy machine.
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
//   node scripts/bench/compare-first-request.mjs /tmp/before/bin/mewcode.js bin/mewcode.js [--runs N] [--configured] [--cpu]
//
// Each run: a fresh HTTP server on 127.0.0.1 that answers the first request with a 400 (so the
// CLI exits at once), `mewcode -p hi` spawned with a minimal environment (temporary HOME, a
// project that is a small git repository as in bench b, a key and base URL), timed from spawn()
// to the request's arrival. --configured: the provider comes from ~/.mewcode/config.yaml and
// permission rules from settings.yaml instead, as in bench b's configured row. --cpu: each child
// also reports its own CPU time, user + system, from spawn to exit (scripts/bench/cpu-usage-preload.mjs,
// preloaded into both builds alike): on a machine whose cores are shared, wall time mostly
// measures the wait for a core, CPU time what the build does. The builds alternate run by run;
// the first two runs of each are warm-up. Prints medians and p10/p90.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeUserConfig } from '../user-config-fixture.mjs';
import { makeGitProject, providerEnv } from './harness.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '30' }, protocol: { type: 'string', default: 'anthropic' }, configured: { type: 'boolean', default: false }, cpu: { type: 'boolean', default: false } } });
const runs = Number.parseInt(values.runs, 10);
if (positionals.length < 1 || !(runs >= 3) || !['anthropic', 'openai'].includes(values.protocol)) {
  process.stderr.write('usage: node scripts/bench/compare-first-request.mjs CLI [CLI…] [--runs N ≥ 3] [--protocol anthropic|openai] [--configured] [--cpu]\n');
  process.exit(2);
}
const clis = positionals.map((cli) => path.resolve(cli));
const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-compare-'));
const home = mkdtempSync(path.join(work, 'home-'));
const project = makeGitProject(mkdtempSync(path.join(work, 'project-')));
const cpuFile = path.join(work, 'cpu.json');
const CPU_PRELOAD = new URL('./cpu-usage-preload.mjs', import.meta.url).href;

/** `{ ms, cpuMs }`: spawn → first request, and (with --cpu) the child's CPU time once it has exited. */
async function measure(cli) {
  let exited;
  const ms = await once(cli, (child) => (exited = new Promise((resolve) => child.on('exit', resolve))));
  await exited;
  if (!values.cpu) return { ms };
  const { user, system } = JSON.parse(readFileSync(cpuFile, 'utf8'));
  rmSync(cpuFile);
  return { ms, cpuMs: (user + system) / 1000 };
}

function once(cli, spawned) {
  return new Promise((resolve, reject) => {
    let started = 0;
    const server = http.createServer((request, response) => {
      const elapsed = performance.now() - started;
      request.resume();
      response.writeHead(400, { 'content-type': 'application/json' });
      // Both SDKs read a 400 as a request error and the CLI exits at once.
      response.end('{"type":"error","error":{"type":"invalid_request_error","message":"bench"}}');
      server.close();
      resolve(elapsed);
    });
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      const provider = providerEnv(values.protocol, url);
      if (values.configured) {
        writeUserConfig(home, { protocol: values.protocol, url, model: 'bench-model' });
        for (const key of Object.keys(provider)) if (!key.endsWith('_API_KEY')) delete provider[key];
      }
      const env = { PATH: process.env.PATH, HOME: home, ...provider, ...(values.cpu ? { MEWCODE_BENCH_CPU_FILE: cpuFile } : {}) };
      const preload = values.cpu ? ['--import', CPU_PRELOAD] : [];
      started = performance.now();
      const child = spawn(process.execPath, [...preload, cli, '-p', 'hi'], { cwd: project, env, stdio: 'ignore' });
      child.on('error', reject);
      spawned(child);
    });
  });
}

const samples = new Map(clis.map((cli) => [cli, []]));
const cpuSamples = new Map(clis.map((cli) => [cli, []]));
try {
  for (let i = 0; i < runs + 2; i++) {
    for (const cli of clis) {
      const { ms, cpuMs } = await measure(cli);
      if (i >= 2) samples.get(cli).push(ms);
      if (i >= 2 && cpuMs !== undefined) cpuSamples.get(cli).push(cpuMs);
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the machine settle
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const sortedOf = (list) => [...list].sort((a, b) => a - b);
const first = clis[0];
const firstMedian = at(sortedOf(samples.get(first)), 0.5);
const firstCpuMedian = values.cpu ? at(sortedOf(cpuSamples.get(first)), 0.5) : undefined;
const versus = `vs ${path.relative(process.cwd(), first) || first}`;
const cpuHead = values.cpu ? ` CPU median | CPU p10 | CPU p90 | CPU ${versus} |` : '';
process.stdout.write(`| build | median | p10 | p90 | ${versus} |${cpuHead}\n| --- | --- | --- | --- | --- |${values.cpu ? ' --- | --- | --- | --- |' : ''}\n`);
for (const cli of clis) {
  const sorted = sortedOf(samples.get(cli));
  const median = at(sorted, 0.5);
  let cpu = '';
  if (values.cpu) {
    const cpuSorted = sortedOf(cpuSamples.get(cli));
    const cpuMedian = at(cpuSorted, 0.5);
    cpu = ` ${cpuMedian.toFixed(1)} ms | ${at(cpuSorted, 0.1).toFixed(1)} ms | ${at(cpuSorted, 0.9).toFixed(1)} ms | ${(cpuMedian - firstCpuMedian >= 0 ? '+' : '')}${(cpuMedian - firstCpuMedian).toFixed(1)} ms |`;
  }
  process.stdout.write(`| ${path.relative(process.cwd(), cli) || cli} | ${median.toFixed(1)} ms | ${at(sorted, 0.1).toFixed(1)} ms | ${at(sorted, 0.9).toFixed(1)} ms | ${(median / firstMedian).toFixed(2)}× |${cpu}\n`);
}
