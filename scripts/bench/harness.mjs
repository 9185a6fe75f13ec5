// Child-process and scripted-server plumbing shared by the measurements.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(ROOT, 'bin', 'mewcode.js');
export const NODE = process.execPath;

/** High-resolution wall clock on the Date.now() epoch (ms, sub-ms precision). */
export const hiresNow = () => performance.timeOrigin + performance.now();

// ---- response-end timestamps -------------------------------------------------------------
// The scripted server logs `receivedAt` for requests but not when it finished writing a response.
// It runs in this process and builds its listener with `http.createServer`, so wrapping that
// function records, per request: headers in, body fully read, and response 'finish' (last byte
// handed to the socket). Nothing in the server changes; if the wrap ever stops applying the
// bench falls back to receivedAt differences and says so.
let currentSink = null;
const originalCreateServer = http.createServer;
http.createServer = function createServerWithTimings(...args) {
  const sink = currentSink;
  const index = args.findIndex((a) => typeof a === 'function');
  if (sink && index >= 0) {
    const handler = args[index];
    args[index] = function timedHandler(req, res) {
      const entry = { url: req.url, startedAt: hiresNow(), bodyEndAt: NaN, finishedAt: NaN };
      sink.push(entry);
      req.once('end', () => (entry.bodyEndAt = hiresNow()));
      res.once('finish', () => (entry.finishedAt = hiresNow()));
      return handler.call(this, req, res);
    };
  }
  return originalCreateServer.apply(this, args);
};

let serverLib;
export async function startTimedServer(turns) {
  serverLib ??= await import(path.join(ROOT, 'dist', 'scripted-server-lib.js'));
  const timings = [];
  currentSink = timings;
  try {
    const server = await serverLib.startScriptedServer({ turns });
    return { server, timings };
  } finally {
    currentSink = null;
  }
}

// ---- environment ------------------------------------------------------------------------
export function makeTempDir(prefix) {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir) {
  // A child still exiting (the terminal UI under script(1) and what it started) may write a last
  // file meanwhile: retried with a growing delay, about 5 s in all. A temporary directory left
  // behind is said, not a failed measurement.
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (error) {
    process.stderr.write(`bench: could not remove ${dir} (${error.code ?? error.message}); left behind\n`);
  }
}

/** Source files in a bench project: a small real repository, as a session starts in. */
export const PROJECT_FILES = 120;

/**
 * Makes `dir` what a session really starts in: a git repository (the environment block runs git
 * twice at start-up) with PROJECT_FILES committed source files, a .gitignore, one file changed
 * since the commit and one untracked. Files already in `dir` are committed too.
 */
export function makeGitProject(dir) {
  for (let i = 0; i < PROJECT_FILES; i++) {
    const sub = path.join(dir, 'src', `module${i % 12}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `file${i}.ts`), `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`);
  }
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ndist/\n*.log\n');
  const git = (...args) => {
    const r = spawnSync('git', ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bench project: git ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'bench project');
  writeFileSync(path.join(dir, 'src', 'module0', 'file0.ts'), 'export function f0(x: number): number {\n  return x;\n}\n');
  writeFileSync(path.join(dir, 'NOTES.md'), '# notes\n');
  return dir;
}

/**
 * Variables that change how every Node process starts, whatever it runs. NODE_EXTRA_CA_CERTS makes
 * Node 20 read a CA bundle at start-up (tens of ms); NODE_OPTIONS can add anything. They are the
 * machine's, not MewCode's, so children run without them unless --keep-node-env is given.
 */
export const NODE_START_VARS = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];
let keepNodeEnv = false;
export function setKeepNodeEnv(value) {
  keepNodeEnv = value;
}
export function strippedNodeVars() {
  return keepNodeEnv ? [] : NODE_START_VARS.filter((name) => process.env[name] !== undefined);
}

/** The parent's environment without anything that would pick a provider or config for the child. */
export function childEnv(home, extra = {}, { withNodeStartVars = keepNodeEnv } = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(ANTHROPIC_|OPENAI_|MEWCODE_)/.test(key)) continue;
    if (!withNodeStartVars && NODE_START_VARS.includes(key)) continue;
    env[key] = value;
  }
  return { ...env, HOME: home, USERPROFILE: home, ...extra };
}

/** A bare Node process that POSTs to the scripted server with fetch (as both SDKs do) and reads the answer. */
export const FETCH_SCRIPT =
  "fetch(process.argv[1] + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.text(), () => {})";

/** The same POST with `node:http`, as MewCode's own client (sdk/http/node-fetch.ts) sends it: today's floor. */
export const HTTP_SCRIPT =
  "const r = require('node:http').request(process.argv[1] + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => res.resume()); r.on('error', () => {}); r.end('{}')";

export function providerEnv(protocol, url) {
  return protocol === 'openai'
    ? { OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: `${url}/v1`, MEWCODE_PROVIDER: 'openai', MEWCODE_MODEL: 'bench-model' }
    : { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'bench-model' };
}

// ---- peak RSS via GNU time -----------------------------------------------------------------
let gnuTime;
/** '/usr/bin/time' when it is GNU time (supports -f %M -o FILE), else undefined. */
export function gnuTimePath() {
  if (gnuTime !== undefined) return gnuTime || undefined;
  gnuTime = '';
  const candidate = '/usr/bin/time';
  if (existsSync(candidate)) {
    const dir = makeTempDir('mewcode-bench-time-');
    const out = path.join(dir, 'rss');
    const probe = spawnSync(candidate, ['-f', '%M', '-o', out, NODE, '-e', ''], { stdio: 'ignore' });
    try {
      if (probe.status === 0 && /^\d+\s*$/.test(readFileSync(out, 'utf8'))) gnuTime = candidate;
    } catch {
      /* not GNU time */
    }
    removeDir(dir);
  }
  return gnuTime || undefined;
}

// ---- running a child -------------------------------------------------------------------
/**
 * Spawns `command args`, resolving when it exits (stdio drained). `spawnedAt` is Date.now() taken
 * immediately before spawn(): the same clock as the in-process server's `receivedAt`.
 * With `rssFile`, the child runs under GNU time, which writes its peak RSS (KiB) there.
 */
export function runChild(command, args, { cwd, env, rssFile, stdin = 'ignore' } = {}) {
  let file = command;
  let argv = args;
  if (rssFile) {
    file = gnuTimePath();
    argv = ['-f', '%M', '-o', rssFile, command, ...args];
  }
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now();
    const start = performance.now();
    const child = spawn(file, argv, { cwd, env, stdio: [stdin, 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let exitMs = NaN;
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.once('exit', () => (exitMs = performance.now() - start));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, spawnedAt, wallMs: exitMs, stdout, stderr }));
  });
}

export function readNumber(file) {
  try {
    const value = Number(readFileSync(file, 'utf8').trim());
    return Number.isFinite(value) ? value : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Bundle a harness written against the TypeScript sources (esbuild, no `npm run build`) into
 * `work` and run it once with `config` as JSON in the environment variable `envName`; resolves to
 * its stdout parsed as JSON.
 */
export async function runSourceHarness(work, source, envName, config, label) {
  const { build } = await import('esbuild');
  const entry = path.join(work, 'harness.ts');
  writeFileSync(entry, source);
  const outfile = path.join(work, 'harness.mjs');
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' }, nodePaths: [path.join(ROOT, 'node_modules')], banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" } });
  const child = spawnSync(process.execPath, [outfile], { cwd: work, env: { ...process.env, NODE_OPTIONS: '', [envName]: JSON.stringify(config) }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`${label} harness failed (exit ${child.status}):\n${child.stderr}`);
  return JSON.parse(child.stdout);
}
