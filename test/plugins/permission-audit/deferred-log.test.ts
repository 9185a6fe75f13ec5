/**
 * The plugin's DeferredAuditLog over the real AuditLog: records wait, without loading the writer,
 * until it is loaded by warm(), flush(), or the hold's end; then every record reaches the file in
 * the order it came, and later records go straight to the writer.
 */
import { readFileSync } from 'node:fs';
import { DeferredAuditLog } from '../../../plugins/permission-audit/deferred-log.js';
import { verifyAuditLog } from '../../../plugins/permission-audit/verify.js';
import { auditDirs, openLog, type AuditDirs } from './helpers.js';

let dirs: AuditDirs;
beforeEach(() => (dirs = auditDirs()));
afterEach(() => dirs.cleanup());

/** A deferred log whose writer is the real AuditLog, counting how often it was created. */
function deferred(holdMs: number): { log: DeferredAuditLog; created: () => number } {
  let created = 0;
  const log = new DeferredAuditLog(
    async () => {
      created += 1;
      return openLog(dirs.file).log;
    },
    (message) => {
      throw new Error(message);
    },
    holdMs,
  );
  return { log, created: () => created };
}

const types = (): string[] => readFileSync(dirs.file, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('records load no writer while held; at the end of the hold they are written in order, and later ones at once', async () => {
  const { log, created } = deferred(60);
  log.append({ type: 'trust' });
  log.append({ type: 'decision' });
  await sleep(20);
  expect(created()).toBe(0);
  await sleep(80);
  expect(created()).toBe(1);
  await log.flush();
  expect(types()).toEqual(['trust', 'decision']);
  log.append({ type: 'executed' });
  await sleep(50); // no flush: a record after the hold is written by itself
  expect(types()).toEqual(['trust', 'decision', 'executed']);
  expect(created()).toBe(1);
  expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true });
});

test('flush() writes what is held at once; warm() loads the writer and writes it too', async () => {
  const flushed = deferred(60_000);
  flushed.log.append({ type: 'trust' });
  flushed.log.append({ type: 'decision' });
  await flushed.log.flush();
  expect(types()).toEqual(['trust', 'decision']);
  const warmed = deferred(60_000);
  warmed.log.append({ type: 'trust-again' });
  await warmed.log.warm();
  expect([types(), warmed.created()]).toEqual([['trust', 'decision', 'trust-again'], 1]);
});

test('flush() with nothing held and no writer loads nothing', async () => {
  const { log, created } = deferred(60_000);
  await log.flush();
  expect(created()).toBe(0);
});

test('logs holding records share one beforeExit listener, gone once they are all released', async () => {
  const before = process.listenerCount('beforeExit');
  const logs = Array.from({ length: 20 }, () => deferred(60_000).log);
  for (const log of logs) log.append({ type: 'trust' });
  // Twenty kernels' logs in one process: one listener (no MaxListenersExceededWarning).
  expect(process.listenerCount('beforeExit')).toBe(before + 1);
  await Promise.all(logs.slice(1).map((log) => log.flush()));
  expect(process.listenerCount('beforeExit')).toBe(before + 1);
  await logs[0]!.flush();
  expect(process.listenerCount('beforeExit')).toBe(before);
});
