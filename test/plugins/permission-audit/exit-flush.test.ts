/**
 * Records survive the process ending without a shutdown (process.exit, a natural end, a failed
 * start): an appended record is already on disk, and the one the plugin holds (the boot's trust
 * record, audit-recorder.ts) is written by the `exit` listener. Proven in real child processes.
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

test('a record appended right before process.exit is kept (written through)', async () => {
  const source = `import { AuditLog } from ${JSON.stringify(path.resolve('plugins/permission-audit/audit-log.ts'))};
const log = new AuditLog(process.argv[2], { maxBytes: 1 << 20, keep: 1 });
log.append({ type: 'decision', allowed: true });
process.exit(0);
`;
  expect(await recordsAfterNaturalExit('plain', source)).toEqual([expect.objectContaining({ type: 'decision', allowed: true })]);
});

test('the held trust record is written at process.exit, and at a natural exit', async () => {
  for (const ending of ['process.exit(3);', '']) {
    const source = `import { AuditLog } from ${JSON.stringify(path.resolve('plugins/permission-audit/audit-log.ts'))};
import { AuditRecorder } from ${JSON.stringify(path.resolve('plugins/permission-audit/audit-recorder.ts'))};
const log = new AuditRecorder(new AuditLog(process.argv[2], { maxBytes: 1 << 20, keep: 1 }));
log.hold({ type: 'trust', trusted: true });
${ending}
`;
    const name = ending ? 'held-exit' : 'held-natural';
    expect(await recordsAfterNaturalExit(name, source).catch((error: { code?: number }) => (error.code === 3 ? readRecords(name) : Promise.reject(error)))).toEqual([
      expect.objectContaining({ type: 'trust', trusted: true }),
    ]);
  }
});

async function readRecords(name: string): Promise<unknown[]> {
  return readFileSync(path.join(dir, name, '.mewcode', 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
}
