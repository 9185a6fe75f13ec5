/** The tools bench suite's smoke run (smoke-run.ts). */
import { SMOKE_TIMEOUT_MS, smokeSuite } from './smoke-run.js';

test('npm run bench -- --smoke --suite tools: builds, runs and prints its tables', async () => {
  const stdout = await smokeSuite('tools');
  for (const heading of [/^## Tools: read_file, bash, grep, glob/m, /^### Several tool calls in one turn/m, /^### bash calls, one per turn \(/m, /^### bash calls, one per turn, in a project of [\d,]+ directories/m, /^### \d+ real tool calls in one run/m]) expect(stdout).toMatch(heading);
  // glob's floor (ripgrep's list, then one lstat per file) is run and compared (tool-search.mjs).
  expect(stdout).toMatch(/^\| glob `\*\*\/\*\.js` \| rg --files, then one lstat per file \(Node\) \| 1 \| \d+ ms \| \d+ ms \|/m);
  expect(stdout).toMatch(/its \d+ lstat calls alone take \d+ ms/);
  expect(stdout).toMatch(/The home: [\d,]+ directories \(`--home-dirs`\)/); // the smoke run's small developer's home
  // The same bash calls with the sandbox off in the home's settings, beside the sandboxed ones.
  expect(stdout).toMatch(/^\| first call of the process, whole response at once \| .*\(`sandbox: false`\) \| 1 \| [\d.]+ ms \|/m);
  // A process's second search is timed too (a session's later greps and globs).
  expect(stdout).toMatch(/^\| grep regex .* \| MewCode grep \(ripgrep engine\), second call \| 1 \| — \| \d+ ms \|/m);
}, SMOKE_TIMEOUT_MS);
