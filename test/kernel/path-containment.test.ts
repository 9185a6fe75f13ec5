/** A3: containment after symlink resolution, with the root + separator rule. */
import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { containPath, isWithin, resolveReal } from '../../sdk/path-containment.js';

let base: string;
let root: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-contain-')));
  root = path.join(base, 'repo');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(path.join(base, 'repo2'));
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'outside', 'secret'), 's');
  await symlink(path.join(base, 'outside'), path.join(root, 'link-out'));
  await symlink(path.join(root, 'src'), path.join(root, 'link-in'));
  // A dangling link to a file outside that does not exist yet: writing through it lands outside.
  await symlink(path.join(base, 'outside', 'new.txt'), path.join(root, 'dangling-out'));
  await symlink(path.join(root, 'src', 'later.txt'), path.join(root, 'dangling-in'));
});

test.each([
  ['.', true],
  ['src', true],
  ['src/new/deeper/file.ts', true],
  ['a..b.ts', true],
  ['src/../src/x', true],
  ['link-in/x.ts', true],
  ['..', false],
  ['../repo2/x', false],
  ['../outside/secret', false],
  ['link-out/secret', false],
  ['link-out/not-yet/created.txt', false],
  ['dangling-out', false],
  ['dangling-in', true],
  ['/etc/passwd', false],
  ['~/x', false],
])('%s inside the project: %s', async (input, expected) => {
  const result = await containPath(root, input, base);
  expect(result.inside).toBe(expected);
});

test('the root + separator rule: a sibling with the root as a string prefix is outside', () => {
  expect(isWithin('/work/repo', '/work/repo')).toBe(true);
  expect(isWithin('/work/repo', '/work/repo/a')).toBe(true);
  expect(isWithin('/work/repo', '/work/repo2')).toBe(false);
  expect(isWithin('/', '/anything')).toBe(true);
});

test('a path that does not exist resolves through its nearest existing ancestor', async () => {
  expect(await resolveReal(path.join(root, 'link-out', 'a', 'b'))).toBe(path.join(base, 'outside', 'a', 'b'));
  expect(await resolveReal(path.join(root, 'nope', 'x'))).toBe(path.join(root, 'nope', 'x'));
});
