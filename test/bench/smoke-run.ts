/**
 * The bench suites' smoke run (`node scripts/bench.mjs --smoke --suite NAME`), shared by the
 * smoke test files. A bench whose imports moved, whose helper was renamed or whose session no
 * longer runs fails the suite here, not the next time someone measures. Nothing is timed or
 * compared: the real runs are `npm run bench`. The suites are split over several test files
 * because they mostly wait (model turns, sleeps, processes starting): jest's workers run those
 * files side by side, where one file running every suite was the suite's longest (≈ 2 minutes).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve('.');

/** The suite's Markdown, after checking it exited 0 and that each of its sections has a filled table row. */
export async function smokeSuite(suite: string): Promise<string> {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'bench.mjs'), '--smoke', '--suite', suite], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
  });
  if (code !== 0) throw new Error(`bench --smoke --suite ${suite} exited ${code}:\n${stderr.split('\n').slice(-30).join('\n')}`);
  const sections = stdout.split(/^(?=## )/m).filter((s) => s.startsWith('## '));
  expect(sections.length).toBeGreaterThan(0);
  for (const section of sections) expect(section).toMatch(/^\|(?: [^|\n]+ \|)+$/m);
  return stdout;
}

export const SMOKE_TIMEOUT_MS = 900_000;
