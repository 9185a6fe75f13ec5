// Start-up: the vendor SDKs load from the build's V8 code cache (sdk/vendor-module.ts). V8 takes
// a cache only under the flags it was made with, so nothing may change a V8 flag before the SDK
// loads (the shell parser's --liftoff-only waits for the first WebAssembly compile).
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

describe.each([
  ['anthropic', 'anthropic-sdk.cjs'],
  ['openai', 'openai-sdk.cjs'],
] as const)('%s', (protocol, file) => {
  test.concurrent('the SDK is loaded with its code cache accepted, also when the first call is bash', async () => {
    await scenario(
      [{ text: 'Listing.', toolCalls: [{ id: 'call_1', name: 'bash', input: { command: 'echo hi' } }] }, { text: 'Done.' }],
      async (s) => {
        const r = await s.run(['-p', 'say hi', '--permission-mode', 'bypassPermissions'], { env: { MEWCODE_DEBUG: 'vendor' } });
        expect(r.code).toBe(0);
        expect(r.stderr).toContain(`loaded ${file} (code cache accepted)`);
        expect(s.requests).toHaveLength(2);
      },
      protocol,
    );
  });
});
