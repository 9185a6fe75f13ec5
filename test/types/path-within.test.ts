/**
 * The one containment test (types/path-within.ts): only a first component that is exactly `..`
 * leads out, so names that merely begin with two dots are inside; the root itself is within but
 * not strictly within.
 */
import path from 'node:path';
import { isPathStrictlyWithin, isPathWithin } from '../../types/path-within.js';

const cases: [string, string, { within: boolean; strictly: boolean }][] = [
  ['/p', '/p', { within: true, strictly: false }],
  ['/p', '/p/a/b', { within: true, strictly: true }],
  ['/p', '/p/..x', { within: true, strictly: true }],
  ['/p', '/p/..x/y', { within: true, strictly: true }],
  ['/p', '/p/...', { within: true, strictly: true }],
  ['/p', '/p/..bin/git', { within: true, strictly: true }],
  ['/p', '/p/a/../..x', { within: true, strictly: true }],
  ['/p', '/p/a/..', { within: true, strictly: false }],
  ['/p/a', '/p', { within: false, strictly: false }],
  ['/p/a', '/p/b', { within: false, strictly: false }],
  ['/p/a', '/p/ab', { within: false, strictly: false }],
  ['/p/a', '/p/..a', { within: false, strictly: false }],
  ['/p', '/p/../x', { within: false, strictly: false }],
  ['/p', '/q', { within: false, strictly: false }],
  ['/', '/anything', { within: true, strictly: true }],
  ['/', '/', { within: true, strictly: false }],
];

test.each(cases)('%s holds %s: %j', (root, candidate, expected) => {
  expect({ within: isPathWithin(root, candidate), strictly: isPathStrictlyWithin(root, candidate) }).toEqual(expected);
});

test('trailing separators do not matter, on either side', () => {
  expect(isPathWithin('/p/', '/p')).toBe(true);
  expect(isPathWithin('/p', '/p/')).toBe(true);
  expect(isPathStrictlyWithin('/p/', '/p/')).toBe(false);
  expect(isPathStrictlyWithin('/p/', '/p/..x/')).toBe(true);
  expect(isPathWithin('/p/a/', '/p/..a/')).toBe(false);
});

test('relative arguments are taken from the current directory', () => {
  expect(isPathWithin(process.cwd(), '..x/y')).toBe(true);
  expect(isPathWithin(process.cwd(), '../y')).toBe(false);
  expect(isPathStrictlyWithin('.', '.')).toBe(false);
  expect(isPathWithin(path.join(process.cwd(), 'sub'), 'sub/..x')).toBe(true);
});
