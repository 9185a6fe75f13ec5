/**
 * sdk/private-records.ts: the saved tool outputs (`.mewcode/tool-output/`) are private records —
 * another session's, and the legacy flat files every session shared — except, for reading, the
 * current session's own folder in this project. Judged on path names; the permission layer also
 * passes where a link leads, which is the real path given here.
 */
import path from 'node:path';
import { isPrivateRecord, privateRecordReason, privateSearchFilter } from '../../sdk/private-records.js';

const ROOT = '/work/p';
const OWN = '20261207-120000-aaaa';
const OTHER = '20261201-120000-bbbb';
const spill = (...names: string[]): string => path.join(ROOT, '.mewcode', 'tool-output', ...names);
const read = { projectRoots: [ROOT], sessionId: OWN, read: true };

test("this session's spill file and folder are readable; another session's, legacy flat files and the folder itself are not", () => {
  expect(privateRecordReason(spill(OWN, '1765000000000-toolu_1.log'), read)).toBeUndefined();
  expect(privateRecordReason(spill(OWN), read)).toBeUndefined();
  for (const other of [spill(OTHER, '1765000000000-toolu_1.log'), spill(OTHER), spill('1765000000000-toolu_1.log'), spill(), spill('..', 'tool-output', OTHER, 'x.log')]) {
    expect([other, privateRecordReason(other, read)]).toEqual([path.resolve(other), expect.stringContaining('saved tool outputs')]);
  }
});

test('a spelling or where a link leads changes nothing; another project, another session id and a write are refused', () => {
  // What `notes.log -> .mewcode/tool-output/<other>/x.log` leads to is checked as such.
  expect(privateRecordReason(`${ROOT}/./.mewcode//tool-output/${OTHER}/./x.log`, read)).toBeDefined();
  expect(privateRecordReason(`/srv/other/.mewcode/tool-output/${OWN}/x.log`, read)).toBeDefined();
  expect(privateRecordReason(spill(OWN, 'x.log'), { ...read, sessionId: OTHER })).toBeDefined();
  expect(privateRecordReason(spill(OWN, 'x.log'), { ...read, sessionId: undefined })).toBeDefined();
  expect(privateRecordReason(spill(OWN, 'x.log'), { ...read, read: false })).toBeDefined();
  expect(privateRecordReason(spill(OWN), { ...read, read: false })).toBeDefined();
  // Not a spill folder: an ordinary project folder of that name.
  expect(privateRecordReason(path.join(ROOT, 'tool-output', OTHER, 'x.log'), read)).toBeUndefined();
});

test('folder searches leave out every saved output; one started in the own folder searches it', () => {
  expect(isPrivateRecord(spill(OWN, 'x.log'))).toBe(true);
  expect(isPrivateRecord(spill('x.log'))).toBe(true);
  const fromRoot = privateSearchFilter({ ...read, start: ROOT });
  expect(fromRoot(spill(OWN, 'x.log'))).toBe(true);
  expect(fromRoot(path.join(ROOT, 'src', 'a.ts'))).toBe(false);
  for (const start of [spill(OWN), spill(OWN, 'x.log')]) {
    const own = privateSearchFilter({ ...read, start });
    expect(own(spill(OWN, 'x.log'))).toBe(false);
    expect(own(spill(OTHER, 'x.log'))).toBe(true);
  }
  // Another session's folder or the whole tool-output folder as the start: still nothing.
  expect(privateSearchFilter({ ...read, start: spill() })(spill(OWN, 'x.log'))).toBe(true);
  expect(privateSearchFilter({ ...read, sessionId: OTHER, start: spill(OWN) })(spill(OWN, 'x.log'))).toBe(true);
});
