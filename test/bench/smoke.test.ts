/**
 * Every benchmark suite, once, at tiny sizes (`npm run bench -- --smoke`): a bench whose imports
 * moved, whose helper was renamed or whose session no longer runs fails here, not the next time
 * someone measures. Nothing is timed or compared: the real runs are `npm run bench`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve('.');
/** Each suite's heading, as bench.mjs prints it. */
const SECTIONS = [
  /^## Kernel/m,
  /^## Tools: read_file, bash, grep, glob/m,
  /^### Several tool calls in one turn/m,
  /^### bash calls, one per turn/m,
  /^### \d+ real tool calls in one run/m,
  /^## Permissions: checkPermission/m,
  /^## Safety: OS sandbox and workspace trust/m,
  /^## Sessions: resume, append, compaction layer 1/m,
  /^## MCP: start-up with servers, request bytes/m,
  /^## Hooks: PreToolUse cost per call/m,
  /^## Skills: a catalog of 200/m,
  /^## Compaction: memory over a/m,
  /^## Terminal UI/m,
];

test('npm run bench -- --smoke: every suite builds, runs and prints its tables', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'bench.mjs'), '--smoke'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
  });
  if (code !== 0) throw new Error(`bench --smoke exited ${code}:\n${stderr.split('\n').slice(-30).join('\n')}`);
  for (const heading of SECTIONS) expect(stdout).toMatch(heading);
  // Every section carries at least one filled table row.
  const sections = stdout.split(/^(?=## )/m).filter((s) => s.startsWith('## '));
  for (const section of sections) expect(section).toMatch(/^\|(?: [^|\n]+ \|)+$/m);
  // glob's floor (ripgrep's list, then one lstat per file) is run and compared (tool-search.mjs).
  expect(stdout).toMatch(/^\| glob `\*\*\/\*\.js` \| rg --files, then one lstat per file \(Node\) \| 1 \| \d+ ms \| \d+ ms \|/m);
  expect(stdout).toMatch(/its \d+ lstat calls alone take \d+ ms/);
  // A process's second search is timed too (a session's later greps and globs).
  expect(stdout).toMatch(/^\| grep regex .* \| MewCode grep \(ripgrep engine\), second call \| 1 \| — \| \d+ ms \|/m);
  // Bench b's stack floor (scripts/bench/stack-floor.mjs) is built, run and reported for each protocol.
  for (const protocol of ['anthropic', 'openai']) expect(stdout).toMatch(new RegExp(`^\\| b \\| the stack floor \\(scripts/bench/stack-floor\\.mjs\\).*\\| ${protocol} \\| \\d`, 'm'));
}, 900_000);
