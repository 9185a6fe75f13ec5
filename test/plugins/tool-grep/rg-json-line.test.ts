/**
 * A long `rg --json` line has its line text cut before parsing (rg-json-line.ts): the kept text
 * must be, byte for byte, a prefix of the line of at least the asked length (the engine checks
 * those bytes against the file), and every other field must come through unchanged.
 */
import { cutLineText, parseRipgrepMessage } from '../../../plugins/tool-grep/rg-json-line.js';

interface Message {
  type: string;
  data: { path: { text: string }; lines: { text?: string; bytes?: string }; line_number: number; absolute_offset: number; submatches: unknown[] };
}

/** ripgrep's spelling of a match message (serde: non-ASCII raw, quotes, backslashes and controls escaped). */
function message(line: string | Buffer, path = 'src/a.js'): Buffer {
  const lines = typeof line === 'string' ? { text: line } : { bytes: line.toString('base64') };
  return Buffer.from(JSON.stringify({ type: 'match', data: { path: { text: path }, lines, line_number: 7, absolute_offset: 1234, submatches: [{ match: { text: 'x' }, start: 3, end: 4 }] } }));
}

const parse = (json: Buffer): Message => JSON.parse(json.toString('utf8')) as Message;

function keptBytes(json: Buffer): Buffer {
  const parsed = parse(json);
  return parsed.data.lines.text !== undefined ? Buffer.from(parsed.data.lines.text, 'utf8') : Buffer.from(parsed.data.lines.bytes!, 'base64');
}

function expectFaithfulCut(line: string | Buffer, keep: number, path?: string): void {
  const full = message(line, path);
  const cut = cutLineText(full, keep);
  const whole = typeof line === 'string' ? Buffer.from(line, 'utf8') : line;
  const kept = keptBytes(cut);
  expect(kept.length).toBeGreaterThanOrEqual(Math.min(keep, whole.length));
  expect(whole.subarray(0, kept.length).equals(kept)).toBe(true);
  const { lines: _a, ...rest } = parse(cut).data;
  const { lines: _b, ...expected } = parse(full).data;
  expect(rest).toEqual(expected);
}

// Every kind of character JSON spells differently, each landing on every cut position in turn.
const PIECES = ['a', '"', '\\', '\t', '\u0001', '\u001f', 'é', '€', '😀', '\u2028', '/'];

test('every cut position, over every kind of escape and character: a byte-exact prefix of at least the asked length', () => {
  for (const piece of PIECES) {
    for (let lead = 0; lead < 4; lead++) {
      const line = `${'b'.repeat(lead)}${piece.repeat(40)}${'😀"\\é'.repeat(30)}\n`;
      for (let keep = 1; keep <= 60; keep++) expectFaithfulCut(line, keep);
    }
  }
});

test('escaped surrogate pairs (JSON may spell a non-BMP character as two escapes) are kept whole', () => {
  const line = `ab${'😀'.repeat(50)}\n`;
  const escaped = Buffer.from(message(line).toString('utf8').replaceAll('😀', '\\ud83d\\ude00'));
  for (let keep = 1; keep <= 40; keep++) {
    const kept = keptBytes(cutLineText(escaped, keep));
    expect(kept.length).toBeGreaterThanOrEqual(keep);
    expect(Buffer.from(line).subarray(0, kept.length).equals(kept)).toBe(true);
  }
});

test('a line that is not UTF-8 (base64) is cut at a four-character boundary, still a prefix', () => {
  const line = Buffer.concat([Buffer.from('needle '), Buffer.alloc(5000, 0xff), Buffer.from('\n')]);
  for (let keep = 1; keep <= 40; keep++) expectFaithfulCut(line, keep);
  expect(cutLineText(message(line), 30).length).toBeLessThan(message(line).length / 20);
});

test("the field's own spelling inside the path is not mistaken for the field", () => {
  const path = 'weird/"lines":{"text":"/name.js';
  expectFaithfulCut(`${'z'.repeat(500)}\n`, 10, path);
  expect(parse(cutLineText(message('z'.repeat(500), path), 10)).data.path.text).toBe(path);
});

test('a line shorter than the kept length, a message without line text, and short messages are parsed as they are', () => {
  const short = message('needle\n');
  expect(cutLineText(short, 100)).toBe(short);
  const end = Buffer.from(JSON.stringify({ type: 'end', data: { path: { text: 'a' }, binary_offset: null, stats: { matches: 1 } } }));
  expect(cutLineText(end, 1)).toBe(end);
  expect(parseRipgrepMessage(message('x'.repeat(1000)), 5)).toEqual(parse(message('x'.repeat(1000))));
});

test('a long message is parsed with its text cut: a minified line of 300 KB keeps only what the engine uses', () => {
  const line = `${'var a="b";'.repeat(30_000)}\n`;
  const parsed = parseRipgrepMessage(message(line), 4036) as Message;
  expect(parsed.data.lines.text).toBe(line.slice(0, 4036));
  expect(parsed.data.absolute_offset).toBe(1234);
});

test('the cut starts above 16 KiB of message: at 16,384 bytes the line is parsed whole, one byte more and it is cut', () => {
  const overhead = message('').length;
  const atLimit = 'y'.repeat(16 * 1024 - overhead);
  expect(message(atLimit).length).toBe(16 * 1024);
  expect((parseRipgrepMessage(message(atLimit), 10) as Message).data.lines.text).toBe(atLimit);
  expect((parseRipgrepMessage(message(`${atLimit}y`), 10) as Message).data.lines.text).toBe('y'.repeat(10));
});
