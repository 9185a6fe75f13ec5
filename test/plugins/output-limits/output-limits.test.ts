/** T8: one place for every cap, character-safe cuts, and the spill directory's clean-up. */
import { closeSync } from 'node:fs';
import { mkdtemp, readdir, utimes, writeFile, mkdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { LIMITS, LINE_CUT_MARKER } from '../../../plugins/output-limits/limits.js';
import { cutBytes, cutLine, cutUtf16, decodeUtf8Prefix, utf8BoundaryAtOrAfter, utf8BoundaryAtOrBefore } from '../../../sdk/text-cuts.js';
import { removeOldSpillFiles, spillFileName } from '../../../plugins/output-limits/spill-directory.js';

test('the caps are the documented ones', () => {
  expect(LIMITS).toEqual({
    readMaxLines: 2000,
    readMaxBytes: 262_144,
    readLineMaxChars: 2000,
    grepLineMaxChars: 500,
    bashMaxLines: 200,
    bashMaxBytes: 8000,
    bashSpillMaxBytes: 67_108_864,
    editMaxFileBytes: 67_108_864,
    editDiffContextLines: 3,
    editDiffMaxLines: 80,
    editDiffLineMaxChars: 500,
    editHintMaxLines: 20,
    editHintLineMaxChars: 300,
    searchMaxResults: 100,
    auditMaxBytes: 5_242_880,
    auditKeepFiles: 3,
    auditTargetMaxChars: 20_000,
    auditReasonMaxChars: 2000,
    spillMaxAgeMs: 604_800_000,
  });
});

test('cutLine keeps a line of exactly the limit and cuts one character more, counting code points', () => {
  expect(cutLine('a'.repeat(500), 500)).toEqual({ text: 'a'.repeat(500), truncated: false });
  expect(cutLine('a'.repeat(501), 500)).toEqual({ text: `${'a'.repeat(500)}${LINE_CUT_MARKER}`, truncated: true });
  // 500 emoji are 1000 UTF-16 units but 500 characters: not cut; a surrogate pair is never split.
  const emoji = '😀'.repeat(500);
  expect(cutLine(emoji, 500)).toEqual({ text: emoji, truncated: false });
  expect(cutLine(`${emoji}😀`, 500).text).toBe(`${emoji}${LINE_CUT_MARKER}`);
  expect(cutLine(`a${emoji}`, 2).text).toBe(`a😀${LINE_CUT_MARKER}`);
});

test('cutBytes keeps exactly the limit and never splits a UTF-8 character', () => {
  expect(cutBytes('x'.repeat(8000), 8000)).toEqual({ text: 'x'.repeat(8000), truncated: false });
  expect(cutBytes('x'.repeat(8001), 8000)).toEqual({ text: 'x'.repeat(8000), truncated: true });
  // 'é' is 2 bytes; the cap falls in its middle: it is dropped whole.
  const cut = cutBytes(`${'x'.repeat(7999)}é`, 8000);
  expect(cut).toEqual({ text: 'x'.repeat(7999), truncated: true });
  expect(cutBytes('€€€', 7).text).toBe('€€'); // 3-byte characters, cap mid-character
  expect(cutBytes('abc', 0)).toEqual({ text: '', truncated: true });
});

test('the shared UTF-8 boundary helpers step over at most one character, never into garbage', () => {
  const bytes = Buffer.from('aé😀'); // 1 + 2 + 4 bytes
  expect(utf8BoundaryAtOrBefore(bytes, 2)).toBe(1);
  expect(utf8BoundaryAtOrAfter(bytes, 2)).toBe(3);
  expect(utf8BoundaryAtOrBefore(bytes, 6)).toBe(3); // inside the 4-byte emoji
  expect(utf8BoundaryAtOrAfter(bytes, 4)).toBe(7);
  expect(utf8BoundaryAtOrBefore(bytes, 7)).toBe(7);
  // Five continuation bytes in a row are no character: the cut stays where it was asked.
  const garbage = Buffer.from([0x61, 0x80, 0x80, 0x80, 0x80, 0x80]);
  expect(utf8BoundaryAtOrBefore(garbage, 5)).toBe(5);
});

test('decodeUtf8Prefix and cutUtf16 drop a split character whole', () => {
  expect(decodeUtf8Prefix(Buffer.from('ab€'), 4)).toBe('ab');
  expect(decodeUtf8Prefix(Buffer.from('ab€'), 5)).toBe('ab€');
  expect(decodeUtf8Prefix(Buffer.from('ab€').subarray(1), 3)).toBe('b'); // a view, not offset 0
  expect(cutUtf16('a😀b', 2)).toBe('a');
  expect(cutUtf16('a😀b', 3)).toBe('a😀');
  expect(cutUtf16('abc', 5)).toBe('abc');
});

test('spill paths are fresh, safe file names inside the spill directory, which is created on demand', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-spill-'));
  const limits = createOutputLimits(path.join(root, '.mewcode', 'tool-output'));
  const file = await limits.spillPath('toolu_01/../../etc', 'log');
  expect(path.dirname(file)).toBe(path.join(root, '.mewcode', 'tool-output'));
  expect(path.basename(file)).toMatch(/^\d+-toolu_01_______etc\.log$/);
  expect(await readdir(path.join(root, '.mewcode'))).toEqual(['tool-output']);
  expect(spillFileName('', 'a/b')).toMatch(/^\d+-call\.ab$/);
});

test('start-up clean-up removes spill files older than 7 days and keeps newer ones', async () => {
  const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'mc-spill-')), 'tool-output');
  await mkdir(dir);
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  const files = { old: now - 7 * day - 60_000, edge: now - 7 * day + 60_000, fresh: now - day };
  for (const [name, mtime] of Object.entries(files)) {
    await writeFile(path.join(dir, name), name);
    await utimes(path.join(dir, name), mtime / 1000, mtime / 1000);
  }
  await mkdir(path.join(dir, 'a-directory'));
  const root = path.dirname(dir);
  expect(await removeOldSpillFiles({ root, relative: 'tool-output' }, LIMITS.spillMaxAgeMs, now)).toBe(1);
  expect((await readdir(dir)).sort()).toEqual(['a-directory', 'edge', 'fresh']);
  expect(await removeOldSpillFiles({ root, relative: 'tool-output/missing' }, LIMITS.spillMaxAgeMs, now)).toBe(0);
});

test("a session's spill files go in its own folder; without a session id, in the folder itself; an id that is not a plain name is refused", async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-spill-'));
  const spillDir = path.join(root, '.mewcode', 'tool-output');
  const limits = createOutputLimits(spillDir);
  const opened = await limits.openSpillFile('toolu_1', 'log', '20261207-120000-aaaa');
  closeSync(opened.fd);
  expect(path.dirname(opened.path)).toBe(path.join(spillDir, '20261207-120000-aaaa'));
  expect(path.dirname(await limits.spillPath('toolu_2', 'log', 'sub-agent_1'))).toBe(path.join(spillDir, 'sub-agent_1'));
  const legacy = await limits.openSpillFile('toolu_3', 'log');
  closeSync(legacy.fd);
  expect(path.dirname(legacy.path)).toBe(spillDir);
  for (const bad of ['..', '.', '', 'a/b', '../x', 'a\0b', '.hidden', 'x'.repeat(200)]) {
    await expect(limits.openSpillFile('toolu_4', 'log', bad)).rejects.toThrow(/session id/);
    await expect(limits.spillPath('toolu_4', 'log', bad)).rejects.toThrow(/session id/);
  }
  expect((await readdir(spillDir)).sort()).toEqual(['20261207-120000-aaaa', path.basename(legacy.path), 'sub-agent_1'].sort());
});

test("start-up clean-up: old files in the sessions' folders and flat ones, then the folders left empty and old; links never followed", async () => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'mc-spill-'));
  const dir = path.join(base, 'tool-output');
  const outside = path.join(base, 'outside');
  await mkdir(outside);
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  const old = (now - 8 * day) / 1000;
  const put = async (rel: string, age: 'old' | 'fresh'): Promise<void> => {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), rel);
    if (age === 'old') await utimes(path.join(dir, rel), old, old);
  };
  await put('1-flat-old.log', 'old');
  await put('2-flat-fresh.log', 'fresh');
  await put('s-old/1-a.log', 'old');
  await put('s-mixed/1-a.log', 'old');
  await put('s-mixed/2-b.log', 'fresh');
  await mkdir(path.join(dir, 's-new-empty'));
  await writeFile(path.join(outside, 'victim.log'), 'keep');
  await utimes(path.join(outside, 'victim.log'), old, old);
  await mkdir(path.join(outside, 'deep'));
  await writeFile(path.join(outside, 'deep', 'victim.log'), 'keep');
  await utimes(path.join(outside, 'deep', 'victim.log'), old, old);
  await symlink(outside, path.join(dir, 's-link'));
  await symlink(path.join(outside, 'victim.log'), path.join(dir, 's-mixed', 'link.log'));
  // The folders' own times after their files were written: s-old's last change is old.
  await utimes(path.join(dir, 's-old'), old, old);
  expect(await removeOldSpillFiles({ root: base, relative: 'tool-output' }, LIMITS.spillMaxAgeMs, now)).toBe(3);
  expect((await readdir(dir)).sort()).toEqual(['2-flat-fresh.log', 's-link', 's-mixed', 's-new-empty']);
  expect((await readdir(path.join(dir, 's-mixed'))).sort()).toEqual(['2-b.log', 'link.log']);
  expect((await readdir(outside)).sort()).toEqual(['deep', 'victim.log']);
  expect(await readdir(path.join(outside, 'deep'))).toEqual(['victim.log']);
});
