/**
 * The text an edit would leave in a file is judged from the file's current content, read without
 * letting the file hold the check: a FIFO, a link to a device or a huge file gives "cannot be
 * known" (the write then asks) at once, and a plain file gives its text with the edit made.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writtenContent } from '../../../plugins/permission-rules/written-content.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mewcode-written-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const edit = { old_string: 'registry=https://registry.npmjs.org/', new_string: 'registry=http://evil.example/' };

test('an edit of a plain file: its text with the edit made', () => {
  const file = path.join(dir, '.npmrc');
  writeFileSync(file, 'save-exact=true\nregistry=https://registry.npmjs.org/\n');
  expect(writtenContent('edit_file', { file_path: file, ...edit }, file)).toBe('save-exact=true\nregistry=http://evil.example/\n');
});

test('an edit of a FIFO or of a link to /dev/zero cannot be known, and the check is not held', () => {
  const fifo = path.join(dir, 'fifo', '.npmrc');
  execFileSync('mkdir', ['-p', path.dirname(fifo)]);
  execFileSync('mkfifo', [fifo]);
  const zero = path.join(dir, 'zero', '.npmrc');
  execFileSync('mkdir', ['-p', path.dirname(zero)]);
  symlinkSync('/dev/zero', zero);
  const started = Date.now();
  expect(writtenContent('edit_file', { file_path: fifo, ...edit }, fifo)).toBeUndefined();
  expect(writtenContent('edit_file', { file_path: zero, ...edit }, zero)).toBeUndefined();
  expect(Date.now() - started).toBeLessThan(2_000);
});
