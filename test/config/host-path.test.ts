/**
 * PATH for the programs MewCode starts on the host: only absolute entries outside the project and
 * outside the git work tree around it — a submodule's superproject included (its `.git` is a
 * file), a home directory kept in git not (it would take `~/.local/bin` with it).
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { absolutePathEntries } from '../../types/host-path.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(removeTempDirs);

test("a submodule opened on its own: its superproject's entries are skipped too, entries outside kept", () => {
  const mono = temp('mewcode-mono-');
  mkdirSync(path.join(mono, '.git'));
  const pkg = path.join(mono, 'packages', 'pkg');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, '.git'), 'gitdir: ../../.git/modules/pkg\n');
  const entries = [`${mono}/node_modules/.bin`, `${pkg}/bin`, '/usr/bin', 'relative/bin'].join(path.delimiter);
  expect(absolutePathEntries(entries, [pkg])).toBe('/usr/bin');
});

test('a repository of its own inside another stops the walk: the outer one is not the project', () => {
  const outer = temp('mewcode-outer-');
  mkdirSync(path.join(outer, '.git'));
  const inner = path.join(outer, 'inner');
  mkdirSync(path.join(inner, '.git'), { recursive: true });
  expect(absolutePathEntries([`${outer}/tools/bin`, `${inner}/bin`].join(path.delimiter), [inner])).toBe(`${outer}/tools/bin`);
});

test('a work tree that holds the home directory is not taken as the project', () => {
  const home = os.homedir();
  // The project sits in a temp dir; the test only checks an entry in the home directory survives.
  const project = temp('mewcode-home-case-');
  expect(absolutePathEntries(`${home}/.local/bin`, [project])).toBe(`${home}/.local/bin`);
});

test('an entry in a project directory whose name begins with `..` (`..bin`, `...`) is inside the project and skipped', () => {
  const project = temp('mewcode-dotdot-');
  for (const dir of ['..bin', '...']) mkdirSync(path.join(project, dir));
  expect(absolutePathEntries([`${project}/..bin`, `${project}/...`, '/usr/bin'].join(path.delimiter), [project])).toBe('/usr/bin');
});
