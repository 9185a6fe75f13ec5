// Start-up is a feature: `--version`, `-p` and the headless run must not load React, Ink or the
// markdown renderer; only the interactive UI imports their chunk. A module-resolve hook records
// every file the built CLI loads, and each is searched for a marker of those libraries.
import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO_ROOT, prepareCli, removeTempDirs, scenario, tempDir } from './helpers.js';
import { hookImport, loadedFiles } from './load-hook.js';

/** Strings found only in each library's code (checked below to be in the built chunks). */
const MARKERS = { react: 'react.transitional.element', ink: 'ink-text', marked: 'input parameter is undefined or null' };

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** The libraries whose code is in any of the ES modules the hook saw load. */
function librariesIn(log: string): string[] {
  const files = loadedFiles(log);
  expect(files.length).toBeGreaterThan(0); // the hook did see modules load
  const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  return Object.entries(MARKERS)
    .filter(([, marker]) => text.includes(marker))
    .map(([name]) => name);
}

test('the markers are in the built chunks (so finding none below means something)', () => {
  const dir = join(REPO_ROOT, 'dist', 'chunks');
  const all = readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
  for (const marker of Object.values(MARKERS)) expect(all).toContain(marker);
});

test('the check notices the terminal UI chunk when it is loaded', () => {
  const chunk = readdirSync(join(REPO_ROOT, 'dist', 'chunks')).find((f) => f.startsWith('start-') && f.endsWith('.js'));
  expect(chunk).toBeDefined();
  const hook = hookImport();
  const loaded = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'chunks', chunk!)).href)});`], {
    env: { PATH: process.env.PATH, NODE_OPTIONS: hook.nodeOptions },
    encoding: 'utf8',
  });
  expect(loaded.status).toBe(0);
  expect(librariesIn(hook.log)).toEqual(['react', 'ink', 'marked']);
});

test('--version, -p (text and stream-json) and a piped headless prompt load none of React, Ink, marked', async () => {
  await scenario([{ text: 'one' }, { text: 'two' }, { text: 'three' }], async (s) => {
    const runs: [string[], string | undefined][] = [
      [['--version'], undefined],
      [['-p', 'hello'], undefined],
      [['-p', 'hello', '--output-format', 'stream-json'], undefined],
      [[], 'piped prompt'],
    ];
    for (const [args, input] of runs) {
      const hook = hookImport();
      const result = await s.run(args, { env: { NODE_OPTIONS: hook.nodeOptions }, ...(input !== undefined ? { input } : {}) });
      expect([args.join(' '), result.code, result.stderr]).toEqual([args.join(' '), 0, '']);
      expect([args.join(' '), librariesIn(hook.log)]).toEqual([args.join(' '), []]);
    }
  });
});

test("the program loads without Node's HTTP, TLS, zlib and crypto modules: a fetch loads HTTP at its first request, TLS only for https:", () => {
  const mainChunk = readdirSync(join(REPO_ROOT, 'dist', 'chunks')).find((f) => f.startsWith('main-') && f.endsWith('.js'));
  expect(mainChunk).toBeDefined();
  // The fetch is internal (not exported by mewcode/sdk): bundled here from its source as the build does.
  // Split as the build splits, so what the fetch imports on demand (the proxy agents) stays on demand.
  const fetchDir = tempDir('mewcode-node-fetch-');
  buildSync({ entryPoints: [join(REPO_ROOT, 'sdk', 'http', 'node-fetch.ts')], bundle: true, splitting: true, platform: 'node', format: 'esm', outdir: fetchDir, outExtension: { '.js': '.mjs' }, logLevel: 'silent' });
  const fetchModule = join(fetchDir, 'node-fetch.mjs');
  const script = [
    "const loaded = () => process.moduleLoadList.filter((m) => /^NativeModule (http|https|zlib|crypto)$/.test(m)).map((m) => m.slice(13)).sort();",
    `await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'chunks', mainChunk!)).href)});`,
    'const atLoad = loaded();',
    `const { sharedNodeFetch } = await import(${JSON.stringify(pathToFileURL(fetchModule).href)});`,
    'const fetch = sharedNodeFetch();',
    'const created = loaded();',
    // Port 1 refuses the connection: the request is made, and fails, without a server.
    "await fetch('http://127.0.0.1:1/').catch(() => undefined);",
    'const afterHttp = loaded();',
    "await fetch('https://127.0.0.1:1/').catch(() => undefined);",
    'process.stdout.write(JSON.stringify({ atLoad, created, afterHttp, afterHttps: loaded() }));',
  ].join('\n');
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual({ atLoad: [], created: [], afterHttp: ['http'], afterHttps: ['crypto', 'http', 'https'] }); // TLS brings crypto
});
