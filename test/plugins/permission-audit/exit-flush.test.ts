/**
 * Records are still written when the process ends on its own without a shutdown (no UI, a failed
 * start): one the writer has queued, and those the plugin holds before loading the writer (the
 * boot's trust record; deferred-log.ts releases them on `beforeExit`). Proven in a real child
 * process, since `beforeExit` never fires inside jest.
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

/** Runs `source` (TypeScript, bundled) in a child with the log file as its argument; returns the records written. */
async function recordsAfterNaturalExit(name: string, source: string): Promise<unknown[]> {
  const entry = path.join(dir, `${name}.ts`);
  mkdirSync(path.join(dir, name, '.mewcode'), { recursive: true });
  writeFileSync(entry, source);
  const bundle = path.join(dir, `${name}.mjs`);
  await build({ entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
  const file = path.join(dir, name, '.mewcode', 'audit.jsonl');
  const started = Date.now();
  await run(process.execPath, [bundle, file], { timeout: 20_000 });
  expect(Date.now() - started).toBeLessThan(20_000); // a 60 s hold kept nothing alive
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
}

test('a record appended and never flushed is written before a natural exit', async () => {
  const source = `import { AuditLog } from ${JSON.stringify(path.resolve('plugins/permission-audit/audit-log.ts'))};
const log = new AuditLog(process.argv[2], { maxBytes: 1 << 20, keep: 1 });
log.append({ type: 'trust', trusted: false });
// No flush, no shutdown: the script simply ends.
`;
  expect(await recordsAfterNaturalExit('plain', source)).toEqual([expect.objectContaining({ type: 'trust', trusted: false })]);
});

test('records the plugin holds before loading its writer are written before a natural exit too', async () => {
  const source = `import { AuditLog } from ${JSON.stringify(path.resolve('plugins/permission-audit/audit-log.ts'))};
import { DeferredAuditLog } from ${JSON.stringify(path.resolve('plugins/permission-audit/deferred-log.ts'))};
const log = new DeferredAuditLog(async () => new AuditLog(process.argv[2], { maxBytes: 1 << 20, keep: 1 }), (message) => console.error(message), 60_000);
log.append({ type: 'trust', trusted: true });
log.append({ type: 'decision' });
`;
  expect(await recordsAfterNaturalExit('deferred', source)).toEqual([expect.objectContaining({ type: 'trust', trusted: true }), expect.objectContaining({ type: 'decision' })]);
});
