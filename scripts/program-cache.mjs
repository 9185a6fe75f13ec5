// Writes dist/entry.cjs.cache and dist/program.cjs.cache: V8's code caches for the CLI's start-up
// scripts (scripts/program-bundle.mjs), made after a rehearsed run so they hold the functions a
// real run compiles (V8 compiles a function on its first call, and a cache made after running code
// holds what ran). The build runs this in its own process under Node's default flags: a cache is
// only accepted under the flags it was made with.
//
//   node scripts/program-cache.mjs <main chunk key>
//
// The rehearsal is `mewcode -p …` once per protocol against the scripted model server, in a
// temporary HOME and project, with the program loaded exactly as dist/mewcode.js loads it: the
// model reads a file (the tool path: permission layers, hooks, the tool runner, the session) and
// then answers. A rehearsal that fails only makes the caches colder: said loudly, and what ran
// is cached.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const mainKey = process.argv[2];
const PATH = process.env.PATH ?? '/usr/bin:/bin';
if (!mainKey) {
  process.stderr.write('usage: node scripts/program-cache.mjs <main chunk key, e.g. chunks/main-XXXX.js>\n');
  process.exit(2);
}

const { program } = await import(pathToFileURL(path.join(DIST, 'program.js')).href);
const { startScriptedServer } = await import(pathToFileURL(path.join(DIST, 'scripted-server-lib.js')).href);

const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-program-cache-'));
try {
  const home = path.join(work, 'home');
  const project = path.join(work, 'project');
  for (const dir of [home, project]) mkdirSync(dir);
  writeFileSync(path.join(project, 'README.md'), '# rehearsal\n');
  try {
    execFileSync('git', ['init', '-q'], { cwd: project, stdio: 'ignore' });
  } catch {
    // no git: the environment block says so, and the rest of the run is the same
  }
  process.chdir(project);
  for (const protocol of ['anthropic', 'openai']) await rehearse(protocol, home);
} catch (error) {
  process.stderr.write(`program-cache: warning: the rehearsed run failed, so the caches hold less: ${error?.stack ?? error}\n`);
} finally {
  process.chdir(ROOT);
  rmSync(work, { recursive: true, force: true });
}
if (program.scripts().size === 0) program.require(mainKey);
for (const [name, script] of program.scripts()) writeFileSync(path.join(DIST, `${name}.cache`), script.createCachedData());
// The run's idle work (warm-ups, audit flushes) must not keep the build waiting.
process.exit(0);

async function rehearse(protocol, home) {
  const server = await startScriptedServer({ turns: [{ text: 'Reading it.', toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] }, { text: 'Rehearsed.' }] });
  try {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, { PATH, HOME: home }, providerEnv(protocol, server.url));
    const { main } = program.require(mainKey);
    const code = await main(['-p', 'Read README.md.']);
    const answered = JSON.stringify(server.requests[1]?.body ?? '').includes('# rehearsal');
    if (code !== 0 || server.requests.length !== 2 || !answered) throw new Error(`the rehearsed run (${protocol}) exited ${code} after ${server.requests.length} requests${answered ? '' : ' without the file read'}`);
  } finally {
    await server.close();
  }
}

function providerEnv(protocol, url) {
  return protocol === 'openai'
    ? { OPENAI_API_KEY: 'rehearsal', OPENAI_BASE_URL: `${url}/v1`, MEWCODE_PROVIDER: 'openai', MEWCODE_MODEL: 'rehearsal' }
    : { ANTHROPIC_API_KEY: 'rehearsal', ANTHROPIC_BASE_URL: url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'rehearsal' };
}
