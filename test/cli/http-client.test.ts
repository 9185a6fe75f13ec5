// The built CLI talks to both vendors through sdk/http/node-fetch.ts and never initialises
// Node's bundled undici (≈ 35 ms of every launch): a preload traps the globals that would. Nor
// does it load Node's web streams: the SDKs iterate the body (sdk/http/node-body.ts).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const UNDICI_GLOBALS = ['fetch', 'Headers', 'Request', 'Response', 'FormData', 'WebSocket', 'EventSource'];

/**
 * Reports (on stderr) the first read of each global that makes Node load undici, which of the
 * built-ins a run needs only later (crypto, perf_hooks) or not at all for an `http:` endpoint
 * (https, tls) are loaded when the first HTTP request starts, and at exit whether Node's web
 * streams were loaded.
 */
function trapFile(): string {
  const file = join(tempDir('mewcode-undici-trap-'), 'trap.mjs');
  writeFileSync(
    file,
    `for (const name of ${JSON.stringify(UNDICI_GLOBALS)}) {
  const original = Object.getOwnPropertyDescriptor(globalThis, name);
  if (!original) continue;
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      process.stderr.write('undici initialised by globalThis.' + name + '\\n' + new Error().stack + '\\n');
      Object.defineProperty(globalThis, name, original);
      return globalThis[name];
    },
  });
}
process.on('exit', () => {
  if (process.moduleLoadList.includes('NativeModule internal/webstreams/readablestream')) process.stderr.write('web streams loaded\\n');
});
let firstRequest = true;
const { subscribe } = await import('node:diagnostics_channel');
subscribe('http.client.request.start', () => {
  if (!firstRequest) return;
  firstRequest = false;
  const early = process.moduleLoadList.filter((m) => /^NativeModule (crypto|perf_hooks|https|tls)$/.test(m)).map((m) => m.slice(13));
  process.stderr.write('at the first request: [' + early.join(', ') + ']\\n');
});
`,
  );
  return file;
}

test('the trap notices a read of the global Headers and a web stream (so the tests below can fail)', () => {
  const r = spawnSync(process.execPath, ['--import', trapFile(), '-e', 'new Headers()'], { encoding: 'utf8' });
  expect(r.stderr).toContain('undici initialised by globalThis.Headers');
  const streams = spawnSync(process.execPath, ['--import', trapFile(), '-e', 'new ReadableStream()'], { encoding: 'utf8' });
  expect(streams.stderr).toBe('web streams loaded\n');
  const early = spawnSync(process.execPath, ['--import', trapFile(), '-e', "require('node:crypto'); performance.now(); require('node:http').get('http://127.0.0.1:1/').on('error', () => {})"], { encoding: 'utf8' });
  expect(early.stderr).toBe('at the first request: [crypto, perf_hooks]\n');
});

describe.each(['anthropic', 'openai'] as const)('%s: the HTTP client', (protocol) => {
  test.concurrent('a session with a tool call reaches the model twice without loading undici or web streams', async () => {
    const trap = trapFile();
    await scenario(
      [{ text: 'Reading.', toolCalls: [{ id: 'call_1', name: 'read_file', input: { path: 'note.txt' } }] }, { text: 'It says hello.' }],
      async (s) => {
        writeFileSync(join(s.cwd, 'note.txt'), 'hello\n');
        const r = await s.run(['-p', 'read note.txt', '--permission-mode', 'bypassPermissions'], { env: { NODE_OPTIONS: `--import ${trap}` } });
        expect(r.stderr).not.toContain('undici initialised');
              expect(r.code).toBe(0);
        expect(r.stdout).toContain('It says hello.');
        expect(s.requests).toHaveLength(2);
        expect(JSON.stringify(s.requests[1]!.body)).toContain('hello');
      },
      protocol,
    );
  });
});
