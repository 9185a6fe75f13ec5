/**
 * The plugin's AuditRecorder over the real AuditLog: every record is on disk when append returns;
 * the one held record (the boot's trust record) is written before anything after it, at the
 * first check, or by release().
 */
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { AuditRecorder } from '../../../plugins/permission-audit/audit-recorder.js';
import { verifyAuditLog } from '../../../plugins/permission-audit/verify.js';
import { auditDirs, openLog, type AuditDirs } from './helpers.js';

let dirs: AuditDirs;
beforeEach(() => (dirs = auditDirs()));
afterEach(() => dirs.cleanup());

const types = (): string[] => readFileSync(dirs.file, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type);

test('append writes through: the record is in the file when append returns, after anything held', async () => {
  const recorder = new AuditRecorder(openLog(dirs.file).log);
  recorder.hold({ type: 'trust' });
  expect(recorder.append({ type: 'decision' })).toBe(true);
  expect(types()).toEqual(['trust', 'decision']);
  expect(recorder.append({ type: 'executed' })).toBe(true);
  expect(types()).toEqual(['trust', 'decision', 'executed']);
  expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true });
});

test('release() and problem() write what is held', () => {
  const recorder = new AuditRecorder(openLog(dirs.file).log);
  recorder.hold({ type: 'trust' });
  recorder.release();
  expect(types()).toEqual(['trust']);
  recorder.hold({ type: 'trust-again' });
  expect(recorder.problem()).toBeUndefined();
  expect(types()).toEqual(['trust', 'trust-again']);
});

test('problem() names a linked .mewcode, and clears once it is gone', () => {
  const recorder = new AuditRecorder(openLog(dirs.file).log);
  symlinkSync(dirs.outside, path.dirname(dirs.file));
  expect(recorder.problem()).toMatch(/\.mewcode is a symbolic link/);
  expect(recorder.append({ type: 'decision' })).toBe(false);
  rmSync(path.dirname(dirs.file));
  recorder.append({ type: 'decision' });
  expect(recorder.problem()).toBeUndefined();
  expect(types()).toEqual(['decision']);
});

test('recorders holding records share one exit listener, gone once they are all released', () => {
  const before = process.listenerCount('exit');
  const recorders = Array.from({ length: 20 }, () => new AuditRecorder(openLog(dirs.file).log));
  for (const recorder of recorders) recorder.hold({ type: 'trust' });
  // Twenty kernels' logs in one process: one listener (no MaxListenersExceededWarning).
  expect(process.listenerCount('exit')).toBe(before + 1);
  for (const recorder of recorders.slice(1)) recorder.release();
  expect(process.listenerCount('exit')).toBe(before + 1);
  recorders[0]!.release();
  expect(process.listenerCount('exit')).toBe(before);
});
