// Start-up: the CLI's start-up program (bin/program-loader.js) and the vendor SDKs
// (sdk/vendor-module.ts) load from the build's V8 code caches. V8 takes a cache only under the
// flags it was made with, so nothing may change a V8 flag before they load (the shell parser's
// --liftoff-only waits for the first WebAssembly compile).
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
