/**
 * The hooks' separate copies of a command's stdout and stderr: each kept whole up to its cap, and
 * past it its first quarter and its end with a marker counting what was left out.
 */
import { expect, test } from '@jest/globals';
import { StreamCopies } from '../../../plugins/tool-bash/stream-copies.js';

const chunk = (text: string): Buffer => Buffer.from(text, 'utf8');

test('each stream keeps only its own chunks, in order', () => {
  const copies = new StreamCopies(100);
  copies.write('stdout', chunk('a1\n'));
  copies.write('stderr', chunk('e1\n'));
  copies.write('stdout', chunk('a2\n'));
  expect(copies.finish()).toEqual({ stdout: 'a1\na2\n', stderr: 'e1\n' });
});

test('a stream of exactly the cap is kept whole; one character more keeps the first quarter and the end', () => {
  const whole = new StreamCopies(40);
  const text = Array.from({ length: 40 }, (_, i) => String.fromCharCode(65 + (i % 26))).join('');
  whole.write('stderr', chunk(text.slice(0, 7)));
  whole.write('stderr', chunk(text.slice(7)));
  expect(whole.finish().stderr).toBe(text);

  const over = new StreamCopies(40);
  over.write('stderr', chunk(text));
  over.write('stderr', chunk('!'));
  const kept = over.finish().stderr;
  expect(kept).toBe(`${text.slice(0, 10)}\n[… 1 characters omitted …]\n${text.slice(11)}!`);
});

test('a long stream written in many chunks keeps 10 + 30 characters of a 40 cap and counts the rest', () => {
  const copies = new StreamCopies(40);
  for (let i = 0; i < 1000; i++) copies.write('stdout', chunk(`${i % 10}`));
  const { stdout } = copies.finish();
  expect(stdout.startsWith('0123456789\n[… 960 characters omitted …]\n')).toBe(true);
  expect(stdout.split('\n')[2]).toBe('012345678901234567890123456789');
});
