/**
 * Containment as the sandbox judges it (writable roots, protected paths, its own directories):
 * a name that merely begins with `..` is an ordinary directory inside the project.
 */
import { isWithin } from '../../../plugins/sandbox-os/policy.js';

test('a path is within itself and its descendants, including directories named `..x` and `...`', () => {
  expect(isWithin('/p', '/p')).toBe(true);
  expect(isWithin('/p', '/p/a/b')).toBe(true);
  expect(isWithin('/p', '/p/..x/.git/hooks')).toBe(true);
  expect(isWithin('/p', '/p/.../config')).toBe(true);
});

test('a parent, a sibling and a sibling sharing the prefix are outside', () => {
  expect(isWithin('/p/a', '/p')).toBe(false);
  expect(isWithin('/p/a', '/p/b')).toBe(false);
  expect(isWithin('/p/a', '/p/ab')).toBe(false);
  expect(isWithin('/p/a', '/p/..a')).toBe(false);
  expect(isWithin('/p/a', '/q')).toBe(false);
});
