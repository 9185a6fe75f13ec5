#!/usr/bin/env node
// Two (or more) MewCode builds side by side in ONE interleaved run: every round measures each
// build (alternating which goes first) and the `node -e ""` reference, so a change's rows are read
// against the build before it on the same noisy machine, at the same moment.
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npm run build)
//   node scripts/bench/compare-builds.mjs /tmp/before bin/.. [--runs 20]
//
// Each argument is a package root (its bin/mewcode.js and dist/). Rows:
//   - `--version`: spawn → exit.
//   - first request: `mewcode -p hi` spawn → the request's arrival at a server answering 400 (so
//     the CLI exits at once), unconfigured (provider from the environment) and configured (from
//     ~/.mewcode/config.yaml and settings.yaml, scripts/user-config-fixture.mjs).
//   - the two-turn session of bench d (the bench plugin's echo, whole response at once): the turn
//     gap, wall time and peak RSS (GNU time); and d″ (the first call a real `bash`, the model
//     paced): the gap minus the tool's own time, wall time and peak RSS.
//   - the tarball: `npm pack --dry-run --ignore-scripts` in each root (packed and unpacked size).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeUserConfig } from '../user-config-fixture.mjs';
import { gnuTimePath, makeGitProject, NODE, providerEnv, readNumber, runChild } from './harness.mjs';
import { MODEL_PACING, runTwoTurns, sessionDirs } from './session.mjs';
import { summarize } from './stats.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '20' } } });
const runs = Number.parseInt(values.runs, 10);
if (positionals.length < 1 || !(runs >= 3)) {
  process.stderr.write('usage: node scripts/bench/compare-builds.mjs ROOT [ROOT…] [--runs N ≥ 3]\n');
  process.exit(2);
}
if (!gnuTimePath()) process.stderr.write('compare-builds: no GNU time: the RSS rows are left empty\n');
const roots = positionals.map((root) => path.resolve(root));
const cliOf = (root) => path.join(root, 'bin', 'mewcode.js');
const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-compare-builds-'));
const home = mkdtempSync(path.join(work, 'home-'));
const configuredHome = mkdtempSync(path.join(work, 'home-configured-'));
const project = makeGitProject(mkdtempSync(path.join(work, 'project-')));
const dirs = sessionDirs();
const rssFile = path.join(work, 'rss');

/** spawn → the first request's arrival; the server answers 400 and the CLI exits. */
function firstRequest(cli, configured) {
  return new Promise((resolve, reject) => {
    let started = 0;
    let child;
    const server = http.createServer((request, response) => {
      const elapsed = performance.now() - started;
      request.resume();
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"type":"error","error":{"type":"invalid_request_error","message":"bench"}}');
      server.close();
      child.once('close', () => resolve(elapsed));
    });
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      const provider = providerEnv('anthropic', url);
      let env = { PATH: process.env.PATH, HOME: home, ...provider };
      if (configured) {
        writeUserConfig(configuredHome, { protocol: 'anthropic', url, model: 'bench-model' });
        env = { PATH: process.env.PATH, HOME: configuredHome, ANTHROPIC_API_KEY: provider.ANTHROPIC_API_KEY };
      }
      started = performance.now();
      child = spawn(NODE, [cli, '-p', 'hi'], { cwd: project, env, stdio: 'ignore' });
      child.on('error', reject);
    });
  });
}

async function wall(args) {
  const r = await runChild(NODE, args, { cwd: project, env: { PATH: process.env.PATH, HOME: home } });
  if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.wallMs;
}

async function session(cli, paced) {
  const run = await runTwoTurns({ cli, protocol: 'anthropic', dirs, pacing: paced ? MODEL_PACING : undefined, tool: paced ? 'bash' : 'bench_echo', rssFile: gnuTimePath() ? rssFile : undefined });
  return { gap: paced ? run.gap - run.toolMs : run.gap, wall: run.wallMs, rss: readNumber(rssFile) / 1024 };
}

const ROWS = ['node -e "" (spawn → exit)', '--version (spawn → exit)', 'first request, unconfigured', 'first request, configured', 'turn gap (d)', 'two-turn session wall (d)', 'peak RSS (d), MiB', 'turn gap, bash first (d″)', 'two-turn session wall (d″)', 'peak RSS (d″), MiB'];
const samples = new Map(roots.map((root) => [root, new Map(ROWS.map((row) => [row, []]))]));
const keep = (root, row, value, i) => i >= 0 && samples.get(root).get(row).push(value);
try {
  for (let i = -2; i < runs; i++) {
    process.stderr.write(`\rcompare-builds: round ${Math.max(0, i + 1)}/${runs}`);
    for (const root of i % 2 === 0 ? roots : [...roots].reverse()) {
      const cli = cliOf(root);
      keep(root, ROWS[0], await wall(['-e', '']), i);
      keep(root, ROWS[1], await wall([cli, '--version']), i);
      keep(root, ROWS[2], await firstRequest(cli, false), i);
      keep(root, ROWS[3], await firstRequest(cli, true), i);
      const d = await session(cli, false);
      keep(root, ROWS[4], d.gap, i);
      keep(root, ROWS[5], d.wall, i);
      keep(root, ROWS[6], d.rss, i);
      const bash = await session(cli, true);
      keep(root, ROWS[7], bash.gap, i);
      keep(root, ROWS[8], bash.wall, i);
      keep(root, ROWS[9], bash.rss, i);
    }
  }
} finally {
  dirs.remove();
  rmSync(work, { recursive: true, force: true });
  process.stderr.write('\n');
}

const label = (root) => path.relative(process.cwd(), root) || '.';
const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
process.stdout.write(`${runs} rounds, builds interleaved (Node ${process.version}, ${os.cpus().length} cores). Medians (p90); ratio against ${label(roots[0])}.\n\n`);
process.stdout.write(`| row | ${roots.map((root) => `${label(root)} median (p90)`).join(' | ')} | ${roots.slice(1).map((root) => `${label(root)} / ${label(roots[0])}`).join(' | ')} |\n`);
process.stdout.write(`| --- | ${roots.map(() => '---').join(' | ')} | ${roots.slice(1).map(() => '---').join(' | ')} |\n`);
for (const row of ROWS) {
  const stats = roots.map((root) => summarize(samples.get(root).get(row)));
  process.stdout.write(`| ${row} | ${stats.map((s) => `${fmt(s.median)} (${fmt(s.p90)})`).join(' | ')} | ${stats.slice(1).map((s) => `${(s.median / stats[0].median).toFixed(2)}×`).join(' | ')} |\n`);
}
const reference = roots.map((root) => summarize(samples.get(root).get(ROWS[0])).median);
const firstReq = roots.map((root) => summarize(samples.get(root).get(ROWS[2])).median);
process.stdout.write(`| first request unconfigured / node -e "" | ${firstReq.map((v, i) => `${(v / reference[i]).toFixed(2)}×`).join(' | ')} | |\n`);
for (const root of roots) {
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  process.stdout.write(`\ntarball of ${label(root)}: ${(pack.size / 1e6).toFixed(2)} MB packed, ${(pack.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${pack.files.length} files`);
}
process.stdout.write('\n');
