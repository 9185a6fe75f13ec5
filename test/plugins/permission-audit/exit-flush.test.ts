/**
 * A record queued to be written later (the boot's trust record) is still written when the process
 * ends on its own without a shutdown (no UI, a failed start): the log flushes on `beforeExit`.
 * Proven in a real child process, since `beforeExit` never fires inside jest.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mewcode-audit-exit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a delayed record is written before a natural exit, long before its delay', async () => {
  const entry = path.join(dir, 'child.ts');
  mkdirSync(path.join(dir, 'project', '.mewcode'), { recursive: true });
  writeFileSync(
    entry,
    `import { AuditLog } from ${JSON.stringify(path.resolve('plugins/permission-audit/audit-log.ts'))};
const log = new AuditLog(process.argv[2], { maxBytes: 1 << 20, keep: 1 });
log.append({ type: 'trust', trusted: false }, { delayMs: 60_000 });
// No flush, no shutdown: the script simply ends.
`,
  );
  const bundle = path.join(dir, 'child.mjs');
  await build({ entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
  const file = path.join(dir, 'project', '.mewcode', 'audit.jsonl');
  const started = Date.now();
  await run(process.execPath, [bundle, file], { timeout: 20_000 });
  expect(Date.now() - started).toBeLessThan(20_000); // the 60 s timer kept nothing alive
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  expect(lines).toEqual([expect.objectContaining({ type: 'trust', trusted: false })]);
});
