/**
 * LinearRegExp answers what V8's RegExp answers, without backtracking: thousands of random
 * patterns (every construct the engine reads, every flag it takes) against random short inputs,
 * where V8 is quick, must agree; then the patterns that keep V8 busy for minutes — many stars in
 * a row against a long name that almost matches — are answered at once (the tests would time out
 * on V8). picomatch's globs go through the same check (sdk/linear-regex/picomatch.ts).
 */
import picomatch from 'picomatch';
import { LinearRegExp, UnsupportedRegExp } from '../../sdk/linear-regex/index.js';
import { globMatcher, globRegexTest, picomatchBacktrackSafe } from '../../sdk/linear-regex/picomatch.js';
import { seededRandom } from '../support/seeded-random.js';

const random = seededRandom;

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

const ATOMS = ['a', 'b', 'A', '/', '\\.', '.', '[ab]', '[^a/]', '[a-c]', '\\d', '\\w', '\\W', '\\s', '[\\s\\S]', '[^]', '[]', '\\n', '😀', '\\u{1F600}', '\\x61', '[\\d-]', '-'];
const QUANTIFIERS = ['', '', '', '*', '+', '?', '*?', '{2}', '{1,2}', '{0,}', '{2,3}?'];

function randomRegex(rand: () => number, depth = 0): string {
  const parts: string[] = [];
  const length = 1 + Math.floor(rand() * 4);
  for (let k = 0; k < length; k++) {
    const roll = rand();
    if (roll < 0.08) parts.push(pick(rand, ['^', '$', '\\b', '\\B']));
    else if (roll < 0.25 && depth < 3) {
      const open = pick(rand, ['(', '(?:', '(?:', '(?=', '(?!', '(?<n' + k + depth + '>']);
      const options = [randomRegex(rand, depth + 1)];
      if (rand() < 0.4) options.push(randomRegex(rand, depth + 1));
      parts.push(`${open}${options.join('|')})${open.startsWith('(?=') || open.startsWith('(?!') ? '' : pick(rand, QUANTIFIERS)}`);
    } else parts.push(pick(rand, ATOMS) + pick(rand, QUANTIFIERS));
  }
  return parts.join('');
}

const INPUT_CHARS = ['a', 'b', 'A', 'c', '/', '.', '1', ' ', '\n', '-', '😀', '\uD83D'];

function randomInput(rand: () => number): string {
  let out = '';
  const length = Math.floor(rand() * 7);
  for (let k = 0; k < length; k++) out += pick(rand, INPUT_CHARS);
  return out;
}

test('random patterns: LinearRegExp.test equals RegExp.test, for every flag set', () => {
  const rand = random(20240611);
  let compared = 0;
  for (let round = 0; round < 3000; round++) {
    const source = randomRegex(rand);
    const flags = pick(rand, ['', 'u', 'i', 'iu', 'm', 's', 'ms']);
    let native: RegExp;
    try {
      native = new RegExp(source, flags);
    } catch {
      continue; // not a pattern in this flag set (e.g. `\u{…}` or `[\d-]` without u)
    }
    const linear = new LinearRegExp(source, flags, { unboundedLookahead: true });
    for (let k = 0; k < 12; k++) {
      const input = randomInput(rand);
      expect([source, flags, input, linear.test(input)]).toEqual([source, flags, input, native.test(input)]);
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(20_000);
});

test('patterns that make V8 backtrack for minutes are answered at once (and rightly)', () => {
  const name = 'a'.repeat(300);
  // what `*a*a*a*a*a*a*a*a*b` becomes as a gitignore rule (V8: minutes on this name)
  expect(new LinearRegExp(`^(?:.*/)?${'[^/]*a'.repeat(8)}[^/]*b$`, 'u').test(name)).toBe(false);
  expect(new LinearRegExp(`^(?:.*/)?${'[^/]*a'.repeat(8)}[^/]*b$`, 'u').test(`${name}b`)).toBe(true);
  expect(new LinearRegExp('^(a|a)*$').test(`${name}!`)).toBe(false);
  expect(new LinearRegExp('^(a+)+$').test(`${'a'.repeat(5000)}!`)).toBe(false);
  expect(new LinearRegExp('(x+x+)+y').test('x'.repeat(5000))).toBe(false);
  // nested `**`: one candidate per `/` for each, multiplied by V8
  const deep = `${'a/'.repeat(1000)}c`;
  expect(new LinearRegExp(`^${'(?:.*/)?a/'.repeat(6)}b$`).test(deep)).toBe(false);
});

test('what cannot be matched without backtracking is refused, and bad syntax is a SyntaxError', () => {
  for (const source of ['(a)\\1', '(?<x>a)\\k<x>', '(?<=a)b', '(?<!a)b', '(?=.*x)y', '(?!a+)']) {
    expect(() => new LinearRegExp(source)).toThrow(UnsupportedRegExp);
  }
  expect(() => new LinearRegExp('\\p{L}', 'u')).toThrow(UnsupportedRegExp);
  expect(() => new LinearRegExp('a', 'g')).toThrow(UnsupportedRegExp);
  expect(() => new LinearRegExp('(?=.*x)y', '', { unboundedLookahead: true })).not.toThrow();
  expect(() => new LinearRegExp('(?=a{1,3})b')).not.toThrow(); // bounded lookahead
  expect(() => new LinearRegExp('a(')).toThrow(SyntaxError);
});

const GLOB_PARTS = ['a', 'b', '.', '*', '*', '**', '?', '/', '/', '[ab]', '[!a]', '{a,b}', '{a,*b}', '+(a|b)', '!(a)', '@(a|b)', '*(a)', '\\*', '[[:alpha:]]', '{1..3}', '.a'];
const PATH_PARTS = ['a', 'b', 'ab', 'ba', '.a', '1', '2', '*', '.', '..', 'aab'];

function randomGlob(rand: () => number): string {
  let out = rand() < 0.1 ? '!' : '';
  const length = 1 + Math.floor(rand() * 6);
  for (let k = 0; k < length; k++) out += pick(rand, GLOB_PARTS);
  return out;
}

function randomPath(rand: () => number): string {
  const segments = 1 + Math.floor(rand() * 4);
  const out: string[] = [];
  for (let k = 0; k < segments; k++) {
    let name = '';
    const parts = 1 + Math.floor(rand() * 2);
    for (let j = 0; j < parts; j++) name += pick(rand, PATH_PARTS);
    out.push(name);
  }
  return out.join('/');
}

test('random picomatch globs: the guarded matcher and the linear engine answer as picomatch does', () => {
  const rand = random(77);
  for (let round = 0; round < 1500; round++) {
    const glob = randomGlob(rand);
    const options = pick(rand, [{ dot: true }, { dot: false }, { dot: true, nocase: true }]);
    const regex = picomatch.makeRe(glob, options);
    const linear = new LinearRegExp(regex.source, regex.flags, { unboundedLookahead: true });
    const guarded = globRegexTest(glob, options);
    const matcher = globMatcher(glob, options);
    const reference = picomatch(glob, options);
    for (let k = 0; k < 10; k++) {
      const candidate = randomPath(rand);
      const expected = regex.test(candidate);
      expect([glob, options, candidate, linear.test(candidate), guarded(candidate), matcher(candidate)]).toEqual([glob, options, candidate, expected, expected, reference(candidate)]);
    }
  }
});

test('picomatch globs V8 could backtrack through are run by the linear engine: a long name does not hang them', () => {
  expect(picomatchBacktrackSafe('**/*.js')).toBe(true);
  expect(picomatchBacktrackSafe('src/*/x*.ts')).toBe(true);
  for (const glob of ['*a*b', '**/a/**', '*.{js,ts}', '+(a|aa)b', '[ab]*', '\\**a*']) expect(picomatchBacktrackSafe(glob)).toBe(false);
  const name = `dir/${'a'.repeat(300)}`;
  const hostile = `**/${'*a'.repeat(8)}*b`;
  expect(globRegexTest(hostile, { dot: true })(name)).toBe(false);
  expect(globRegexTest(hostile, { dot: true })(`${name}b`)).toBe(true);
  expect(globMatcher(`${'**/a/'.repeat(5)}**/b`, { dot: true })(`${'a/'.repeat(1000)}c`)).toBe(false);
  expect(globMatcher('+(a|aa)b', { dot: true })(`${'a'.repeat(3000)}c`)).toBe(false);
});
