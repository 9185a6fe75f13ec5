// The one terminal-safe filter: what it removes, what it keeps, and the JSON form that keeps values exact.
import { expect, test } from '@jest/globals';
import { terminalSafe, terminalSafeJson, terminalWriter } from '../../config/terminal-safe.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

test.each([
  ['OSC 52 (BEL)', 'a\u001b]52;c;ZWNobyBwd25lZA==\u0007b', 'ab'],
  ['OSC 0 (ESC \\)', 'a\u001b]0;title\u001b\\b', 'ab'],
  ['CSI erase line, cursor up, SGR', 'a\u001b[2K\u001b[1A\u001b[31mb\u001b[0m', 'ab'],
  ['CSI with private parameters', 'a\u001b[?1049hb', 'ab'],
  ['8-bit CSI', 'a\u009b2Jb', 'ab'],
  ['8-bit OSC ended by 8-bit ST', 'a\u009d52;c;x\u009cb', 'ab'],
  ['DCS', 'a\u001bP$qm\u001b\\b', 'ab'],
  ['APC and PM', 'a\u001b_x\u001b\\\u001b^y\u0007b', 'ab'],
  ['two-character ESC sequences (RIS, DECSC, charset)', 'a\u001bc\u001b7\u001b(0b', 'ab'],
  ['unterminated OSC: its introducer goes, its text stays', 'a\u001b]8;;https://x.test', 'a8;;https://x.test'],
  ['a lone ESC at the end', 'a\u001b', 'a?'],
  ['bell, backspace, delete', 'a\u0007\u0008\u007fb', 'a???b'],
  ['bidi override and isolate, zero-width', 'a\u202eb\u2066c\u200bd', 'a?b?c?d'],
])('keeping lines: %s', (_name, input, expected) => {
  expect(terminalSafe(input, true)).toBe(expected);
});

test('keeping lines: newlines and tabs stay, \\r\\n and a lone \\r become newlines', () => {
  expect(terminalSafe('one\n\ttwo\r\nthree\rfour', true)).toBe('one\n\ttwo\nthree\nfour');
  expect(terminalSafe('plain ✓ text, émoji 🐱, 中文\n', true)).toBe('plain ✓ text, émoji 🐱, 中文\n');
});

test('one line: every unsafe character is a `?`, as ls shows it, newlines included', () => {
  expect(terminalSafe('name\u001b[2K\nnext\u009b')).toBe('name?[2K?next?');
});

test('a long run of unterminated introducers is filtered in linear time', () => {
  for (const unit of ['\u009d', '\u001b]', '\u001bP', '\u009b1;']) {
    const text = unit.repeat(200_000);
    const started = performance.now();
    const safe = terminalSafe(text, true);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(safe).not.toMatch(CONTROL);
  }
});

test('JSON: C1, bidi and separators are escaped, the parsed value is unchanged', () => {
  const value = { text: 'a\u001b]52;c;x\u0007\u009b2J\u202e\u2028b', n: 1 };
  const json = terminalSafeJson(value);
  expect(json).not.toMatch(CONTROL);
  expect(json).toContain('\\u009b');
  expect(JSON.parse(json)).toEqual(value);
  expect(terminalSafeJson('plain')).toBe(JSON.stringify('plain'));
});

test('a terminal writer filters what it writes', () => {
  const written: string[] = [];
  const write = terminalWriter({ write: (text: string) => written.push(text) });
  write('error: \u001b]0;owned\u0007bad key\n');
  expect(written).toEqual(['error: bad key\n']);
});
