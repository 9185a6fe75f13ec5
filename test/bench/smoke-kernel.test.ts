/** The kernel bench suite's smoke run (smoke-run.ts). */
import { SMOKE_TIMEOUT_MS, smokeSuite } from './smoke-run.js';

test('npm run bench -- --smoke --suite kernel: builds, runs and prints its tables', async () => {
  const stdout = await smokeSuite('kernel');
  expect(stdout).toMatch(/^## Kernel/m);
  // Bench b's stack floor (scripts/bench/stack-floor.mjs) is built, run and reported for each protocol.
  for (const protocol of ['anthropic', 'openai']) expect(stdout).toMatch(new RegExp(`^\\| b \\| the stack floor \\(scripts/bench/stack-floor\\.mjs\\).*\\| ${protocol} \\| \\d`, 'm'));
}, SMOKE_TIMEOUT_MS);
