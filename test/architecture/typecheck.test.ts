/**
 * The whole project type-checks: `npm run typecheck` (tsc --noEmit over the sources, tests and
 * scripts; incremental, its state under node_modules/.cache). It runs as a test file rather than
 * as a step before jest: tsc is one busy thread for ≈ 20 s, and jest's other files use the
 * machine's other core meanwhile (as a step of its own it added all of that to `npm test`).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('npm run typecheck: no type error anywhere in the project', async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile('npm', ['run', '--silent', 'typecheck'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
  // tsc prints each error as `file(line,col): error TSnnnn: …`: the failure shows them.
  expect(output.trim()).toBe('');
  expect(code).toBe(0);
}, 600_000);
