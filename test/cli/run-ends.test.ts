/**
 * A finished run ends the process, whatever a plugin left open: a start() that never settles while
 * holding an interval, or a start() that left a refresh timer behind after a successful run. The
 * CLI exits with its code once its output is flushed (stdout through a pipe in full, even 1 MiB),
 * for `-p` and for `mewcode doctor`. And a start() is given an AbortSignal that fires at its time
 * limit, so a plugin can stop what it started.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/**
 * Generous next to the 600 ms start bound below (a loaded machine runs these in parallel). A
 * process that never exits is killed at RUN_MS and the test fails with its output; a plugin's
 * interval repeats, so before the fix no run here ever ended by itself.
 */
const BOUND_MS = 20_000;
const RUN_MS = 45_000;
const TEST_MS = 90_000;

/** The organisation's required plugin; `start` is its start() source. */
function managedPlugin(s: Scenario, start: string, extra = ''): string {
  const dir = tempDir('mewcode-run-ends-');
  writeFileSync(path.join(dir, 'org-policy.mjs'), `export default { name: 'org-policy', required: true, startTimeoutMs: 600, apply() {}, start: ${start}${extra} };\n`);
  const managed = path.join(dir, 'managed-settings.yaml');
  writeFileSync(managed, 'plugins: [./org-policy.mjs]\n');
  void s;
  return managed;
}

const HANGS_WITH_INTERVAL = `async () => { setInterval(() => {}, 1000); await new Promise(() => {}); }`;
const LEAVES_INTERVAL = `async () => { setInterval(() => {}, 30000); }`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const value = await work();
  return [value, Date.now() - started];
}

describe('the process ends when the run is done', () => {
  test.concurrent('-p: a required plugin whose start() never settles and holds an interval → exit 2, promptly', async () => {
    await scenario([{ text: 'never sent' }], async (s) => {
      const managed = managedPlugin(s, HANGS_WITH_INTERVAL);
      const [r, ms] = await timed(() => s.run(['-p', 'go'], { env: { MEWCODE_MANAGED_SETTINGS: managed }, timeoutMs: RUN_MS }));
      expect(r.stderr).toContain('plugin org-policy did not finish start within 600 ms');
      expect(r.code).toBe(2);
      expect(ms).toBeLessThan(BOUND_MS);
      expect(s.requests).toHaveLength(0);
    });
  }, TEST_MS);

  test.concurrent('doctor: the same plugin → the fail line and exit 1, promptly', async () => {
    await scenario([], async (s) => {
      const managed = managedPlugin(s, HANGS_WITH_INTERVAL);
      const [r, ms] = await timed(() => s.run(['doctor'], { env: { MEWCODE_MANAGED_SETTINGS: managed }, timeoutMs: RUN_MS }));
      expect(r.stdout).toContain('did not finish start within 600 ms');
      expect(r.code).toBe(1);
      expect(ms).toBeLessThan(BOUND_MS);
    });
  }, TEST_MS);

  test.concurrent('-p succeeds with a plugin that left an interval: exit 0 and 1 MiB of result through the pipe in full', async () => {
    const big = 'abcdefghijklmnop'.repeat(65536); // 1 MiB
    await scenario([{ text: big }], async (s) => {
      const managed = managedPlugin(s, LEAVES_INTERVAL);
      const [r, ms] = await timed(() => s.run(['-p', 'go'], { env: { MEWCODE_MANAGED_SETTINGS: managed }, timeoutMs: RUN_MS }));
      expect(r.code).toBe(0);
      expect(r.stdout.length).toBeGreaterThanOrEqual(big.length);
      expect(r.stdout).toContain(big);
      expect(ms).toBeLessThan(RUN_MS);
    });
  }, TEST_MS);

  test.concurrent('doctor succeeds with a plugin that left an interval: its report in full, exit with its code', async () => {
    await scenario([], async (s) => {
      const managed = managedPlugin(s, LEAVES_INTERVAL);
      const [r, ms] = await timed(() => s.run(['doctor'], { env: { MEWCODE_MANAGED_SETTINGS: managed }, timeoutMs: RUN_MS }));
      expect(r.stdout).toContain('plugins');
      expect(r.stdout).not.toContain('did not finish start');
      expect(ms).toBeLessThan(RUN_MS);
      expect(r.signal).toBeNull();
    });
  }, TEST_MS);

  test.concurrent("start()'s signal fires at its time limit (the plugin clears its interval), and dispose() is called", async () => {
    await scenario([{ text: 'never sent' }], async (s) => {
      const marks = path.join(s.home, 'marks.txt');
      const start = `async (kernel) => { const fs = await import('node:fs'); const iv = setInterval(() => {}, 1000);
        kernel.signal.addEventListener('abort', () => { clearInterval(iv); fs.appendFileSync(${JSON.stringify(marks)}, 'aborted ' + kernel.signal.reason?.message + '\\n'); });
        await new Promise(() => {}); }`;
      const dispose = `, dispose() { require; }`.replace('require;', `return import('node:fs').then((fs) => fs.appendFileSync(${JSON.stringify(marks)}, 'disposed\\n'));`);
      const managed = managedPlugin(s, start, dispose);
      const r = await s.run(['-p', 'go'], { env: { MEWCODE_MANAGED_SETTINGS: managed }, timeoutMs: RUN_MS });
      expect(r.code).toBe(2);
      expect(existsSync(marks) ? readFileSync(marks, 'utf8') : '').toMatch(/^aborted [^\n]*600 ms[^\n]*\ndisposed\n$/);
    });
  }, TEST_MS);
});
