// `npm run check-deps` (part of `npm test`, after the build): the bundle in dist/ works with the
// dependency versions package-lock.json records.
//
//  1. Every package the lock file lists is installed at its locked version (an `npm install` that
//     moved one, or a node_modules from another checkout, fails here, naming the package).
//  2. Every build patch of third-party code still fits the installed files (scripts/patches.mjs).
//  3. The built CLI runs: `--version`, then one `-p` run per protocol against the scripted model
//     server in a temporary HOME and git project, in which the model reads a file (the tool path)
//     and answers (Anthropic configured by a user's files, OpenAI by the environment alone).
//  4. Every chunk of the bundle loads: ES module linking fails on an import a bundled package no
//     longer exports, which the runs above may not reach (the terminal UI, the MCP SDK, the tools).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PatchMismatchError, verifyPatches } from './patches.mjs';
import { writeUserConfig } from './user-config-fixture.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const step = (text) => process.stdout.write(`check-deps: ${text}\n`);

// 1. The installed versions are the locked ones.
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
let installed = 0;
for (const [where, entry] of Object.entries(lock.packages ?? {})) {
  if (where === '' || entry.link) continue;
  const manifest = path.join(ROOT, where, 'package.json');
  if (!existsSync(manifest)) {
    // Optional packages for another platform (esbuild's binaries, fsevents…) are not installed here.
    if (!entry.optional && !entry.devOptional) problems.push(`${where}: locked at ${entry.version}, not installed (run \`npm ci\`)`);
    continue;
  }
  const version = JSON.parse(readFileSync(manifest, 'utf8')).version;
  if (version !== entry.version) problems.push(`${where}: ${version} is installed, package-lock.json says ${entry.version} (run \`npm ci\`)`);
  installed++;
}
step(`${installed} installed packages checked against package-lock.json`);

// 2. The patches.
try {
  step(`${verifyPatches(ROOT).files.size} patched files match the code their patches were written for`);
} catch (error) {
  if (!(error instanceof PatchMismatchError)) throw error;
  problems.push(error.message);
}
failIfAny();

// 3. The built CLI runs.
const DIST = path.join(ROOT, 'dist');
if (!existsSync(path.join(DIST, 'mewcode.js'))) {
  problems.push('dist/ is not built: run `npm run build` first');
  failIfAny();
}
const CLI = path.join(ROOT, 'bin', 'mewcode.js');
const version = execFileSync(process.execPath, [CLI, '--version'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
step(`mewcode --version: ${version.trim()}`);
const { startScriptedServer } = await import(pathToFileURL(path.join(DIST, 'scripted-server-lib.js')).href);
const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-check-deps-'));
try {
  for (const protocol of ['anthropic', 'openai']) await runOnce(protocol);
} finally {
  rmSync(work, { recursive: true, force: true });
}
failIfAny();

// 4. Every chunk links and runs its top level, in a process of its own. Ink's devtools chunk
// imports react-devtools-core, which is not installed on purpose (Ink loads it only under DEV=true).
const NOT_INSTALLED_ON_PURPOSE = ['react-devtools-core'];
const chunks = readdirSync(path.join(DIST, 'chunks')).filter((file) => file.endsWith('.js'));
const script = `const failed = [];
for (const file of ${JSON.stringify(chunks.map((file) => pathToFileURL(path.join(DIST, 'chunks', file)).href))}) {
  try { await import(file); } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && ${JSON.stringify(NOT_INSTALLED_ON_PURPOSE)}.some((name) => String(error.message).includes("package '" + name + "'"))) continue;
    failed.push(file + ': ' + (error?.stack ?? error));
  }
}
if (failed.length > 0) { process.stderr.write(failed.join('\\n')); process.exitCode = 1; }
process.exit();`;
const loaded = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: os.tmpdir(), env: { PATH: process.env.PATH } });
if (loaded.code !== 0) problems.push(`loading the bundle's chunks failed:\n${loaded.stderr}`);
else step(`${chunks.length} chunks load`);
failIfAny();
step('the bundle runs with the locked dependency versions');

async function runOnce(protocol) {
  const project = path.join(work, `project-${protocol}`);
  const home = path.join(work, `home-${protocol}`);
  mkdirSync(project);
  mkdirSync(home);
  writeFileSync(path.join(project, 'README.md'), '# checked\n');
  execFileSync('git', ['init', '-q'], { cwd: project, stdio: 'ignore' });
  const server = await startScriptedServer({ turns: [{ text: 'Reading it.', toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] }, { text: 'Checked.' }] });
  try {
    const env = { PATH: process.env.PATH, HOME: home };
    if (protocol === 'anthropic') {
      writeUserConfig(home, { protocol, url: server.url, model: 'checked' });
      env.ANTHROPIC_API_KEY = 'check-deps';
    } else {
      Object.assign(env, { OPENAI_API_KEY: 'check-deps', OPENAI_BASE_URL: `${server.url}/v1`, MEWCODE_PROVIDER: 'openai', MEWCODE_MODEL: 'checked' });
    }
    const result = await run(process.execPath, [CLI, '-p', 'Read README.md.'], { cwd: project, env });
    const answered = JSON.stringify(server.requests[1]?.body ?? '').includes('# checked');
    if (result.code !== 0 || server.requests.length !== 2 || !answered || !result.stdout.includes('Checked.')) {
      problems.push(`the ${protocol} run exited ${result.code} after ${server.requests.length} requests${answered ? '' : ' without the file read'}:\n${result.stdout}${result.stderr}`);
    } else {
      step(`the ${protocol} run read a file and answered`);
    }
  } finally {
    await server.close();
  }
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function failIfAny() {
  if (problems.length === 0) return;
  process.stderr.write(`check-deps: the bundle cannot be trusted with these dependencies:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exit(1);
}
