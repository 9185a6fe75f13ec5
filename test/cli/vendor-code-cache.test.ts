// Start-up: the CLI's start-up program (bin/program-loader.js) and the vendor SDKs
// (sdk/vendor-module.ts) load from the build's V8 code caches. V8 takes a cache only under the
// flags it was made with, so nothing may change a V8 flag before they load (the shell parser's
// --liftoff-only waits for the first WebAssembly compile).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

describe.each([
  ['anthropic', 'anthropic-sdk.cjs'],
  ['openai', 'openai-sdk.cjs'],
] as const)('%s', (protocol, file) => {
  test.concurrent('the program and the SDK are loaded with their code caches accepted, also when the first call is bash', async () => {
    await scenario(
      [{ text: 'Listing.', toolCalls: [{ id: 'call_1', name: 'bash', input: { command: 'echo hi' } }] }, { text: 'Done.' }],
      async (s) => {
        const r = await s.run(['-p', 'say hi', '--permission-mode', 'bypassPermissions'], { env: { MEWCODE_DEBUG: 'vendor,program' } });
        expect(r.code).toBe(0);
        // Once each: the files they replaced (imported again by the lazily loaded tools) share them.
        expect(r.stderr.match(/loaded entry\.cjs \(code cache accepted\)/g)).toHaveLength(1);
        expect(r.stderr.match(/loaded program\.cjs \(code cache accepted\)/g)).toHaveLength(1);
        expect(r.stderr).toContain(`loaded ${file} (code cache accepted)`);
        expect(s.requests).toHaveLength(2);
      },
      protocol,
    );
  });
});

test.concurrent('--version and --help load only the entry script, from its cache; a subcommand that boots loads the program', async () => {
  await scenario([], async (s) => {
    for (const flag of ['--version', '--help']) {
      const r = await s.run([flag], { env: { MEWCODE_DEBUG: 'program,vendor' } });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('mewcode: debug: loaded entry.cjs (code cache accepted)\n');
    }
    const run = await s.run(['sessions'], { env: { MEWCODE_DEBUG: 'program' } });
    expect(run.stderr).toContain('loaded entry.cjs (code cache accepted)');
    expect(run.stderr).toContain('loaded program.cjs (code cache accepted)');
  });
});

test.concurrent('a run configured by files loads the configuration path (YAML, discovery, schemas, rules, hooks) as cached scripts', async () => {
  await scenario([{ text: 'Configured.' }], async (s) => {
    mkdirSync(join(s.home, '.mewcode'));
    writeFileSync(join(s.home, '.mewcode', 'config.yaml'), `providers:\n  - name: work\n    protocol: anthropic\n    model: test-model\n    base_url: ${s.server.url}\n`);
    writeFileSync(join(s.home, '.mewcode', 'settings.yaml'), 'permissions:\n  allow: ["Bash(npm run test:*)"]\n  deny: ["Read(./.env)"]\n');
    const r = await s.run(['-p', 'hi'], { env: { MEWCODE_DEBUG: 'program', MEWCODE_PROVIDER: undefined, MEWCODE_MODEL: undefined } });
    expect(r.code).toBe(0);
    expect(s.requests[0]?.body.model).toBe('test-model');
    const loaded = r.stderr.split('\n').filter(Boolean);
    expect(loaded.filter((line) => !/^mewcode: debug: loaded \S+\.cjs \(code cache accepted\)$/.test(line))).toEqual([]);
    // The lazily imported chunks are scripts too: the schemas, the YAML parser's, the discovery's.
    for (const chunk of ['kernel-sections', 'parse-file', 'discover']) expect(loaded.some((line) => line.includes(`loaded chunks/${chunk}-`))).toBe(true);
  });
});
