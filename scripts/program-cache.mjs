// Writes `<script>.cache` beside each of the program's scripts (dist/entry.cjs, dist/program.cjs,
// dist/chunks/*.cjs; scripts/program-bundle.mjs): V8's code caches, made after a rehearsed run
// so they hold the functions a real run compiles (V8 compiles a function on its first call, and a
// cache made after running code holds what ran). The build runs this in its own process under
// Node's default flags: a cache is only accepted under the flags it was made with.
//
//   node scripts/program-cache.mjs <main chunk key>
//
// The rehearsal is `mewcode -p …` once per protocol against the scripted model server, in a
// temporary HOME and project, with the program loaded exactly as dist/mewcode.js loads it: the
// model reads a file (the tool path: permission layers, hooks, the tool runner, the session) and
// then answers. The Anthropic run is configured as a user's is, by ~/.mewcode/config.yaml and
// permission rules in ~/.mewcode/settings.yaml (the configuration path: YAML, discovery, schema
// checks, rule parsing); the OpenAI run by the environment alone. A rehearsal that fails only
// makes the caches colder: said loudly, and what ran is cached.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { writeUserConfig } from './user-config-fixture.mjs';

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
  for (const protocol of ['anthropic', 'openai']) {
    // A project per home: a project's audit log is anchored in the home of the user who wrote it.
    const project = path.join(work, `project-${protocol}`);
    mkdirSync(project);
    writeFileSync(path.join(project, 'README.md'), '# rehearsal\n');
    try {
      execFileSync('git', ['init', '-q'], { cwd: project, stdio: 'ignore' });
    } catch {
      // no git: the environment block says so, and the rest of the run is the same
    }
    process.chdir(project);
    const home = path.join(work, `home-${protocol}`);
    mkdirSync(home);
    await rehearse(protocol, home);
  }
} catch (error) {
  process.stderr.write(`program-cache: warning: the rehearsed run failed, so the caches hold less: ${error?.stack ?? error}\n`);
} finally {
  process.chdir(ROOT);
  rmSync(work, { recursive: true, force: true });
}
if (program.scripts().size === 0) program.require(mainKey);
// A script the rehearsal did not run (a tool it did not call, the terminal UI) is loaded now, so
// its cache holds what loading it compiles (its modules' top level; the rest compiles as it is
// called). One that fails to load gets the cache of its compilation alone.
const scriptOf = program.scriptOf();
for (const [key, name] of Object.entries(scriptOf)) {
  if (program.scripts().has(name)) continue;
  try {
    program.require(key);
  } catch (error) {
    process.stderr.write(`program-cache: warning: loading ${key} failed, so its cache holds less: ${error?.message ?? error}\n`);
  }
}
for (const name of new Set(Object.values(scriptOf))) {
  const file = path.join(DIST, name);
  const script = program.scripts().get(name) ?? new vm.Script(readFileSync(file, 'utf8'), { filename: file });
  writeFileSync(`${file}.cache`, script.createCachedData());
}
// The run's idle work (warm-ups, audit flushes) must not keep the build waiting.
process.exit(0);

async function rehearse(protocol, home) {
  const server = await startScriptedServer({ turns: [{ text: 'Reading it.', toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] }, { text: 'Rehearsed.' }] });
  try {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, { PATH, HOME: home }, protocol === 'anthropic' ? configuredAsAUser(home, server.url) : providerEnv(protocol, server.url));
    const { main } = program.require(mainKey);
    const code = await main(['-p', 'Read README.md.']);
    const answered = JSON.stringify(server.requests[1]?.body ?? '').includes('# rehearsal');
    if (code !== 0 || server.requests.length !== 2 || !answered) throw new Error(`the rehearsed run (${protocol}) exited ${code} after ${server.requests.length} requests${answered ? '' : ' without the file read'}`);
  } finally {
    await server.close();
  }
}

/** The Anthropic run's setting: a user's files (scripts/user-config-fixture.mjs), the key from the environment. */
function configuredAsAUser(home, url) {
  writeUserConfig(home, { protocol: 'anthropic', url, model: 'rehearsal' });
  return { ANTHROPIC_API_KEY: 'rehearsal' };
}

function providerEnv(protocol, url) {
  return protocol === 'openai'
    ? { OPENAI_API_KEY: 'rehearsal', OPENAI_BASE_URL: `${url}/v1`, MEWCODE_PROVIDER: 'openai', MEWCODE_MODEL: 'rehearsal' }
    : { ANTHROPIC_API_KEY: 'rehearsal', ANTHROPIC_BASE_URL: url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'rehearsal' };
}
