/**
 * The marketplace and plugin git calls run wherever MewCode was started, often a repository: a
 * relative PATH entry (`node_modules/.bin`, `bin`, an empty one) must not find a `git` planted
 * there. Only PATH's absolute entries are searched.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git } from '../../config/claude-plugins/git.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  removeTempDirs();
});

test('a git planted in the repository is not found through a relative PATH entry', async () => {
  const project = temp('mewcode-git-path-');
  const marker = path.join(project, 'PLANTED-GIT-RAN');
  for (const dir of ['bin', 'node_modules/.bin']) {
    mkdirSync(path.join(project, dir), { recursive: true });
    writeFileSync(path.join(project, dir, 'git'), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\necho "git version 0.0.planted"\n`);
    chmodSync(path.join(project, dir, 'git'), 0o755);
  }
  process.env.PATH = ['node_modules/.bin', 'bin', '', savedPath].join(path.delimiter);
  const version = await git(['--version'], project);
  expect(version).toMatch(/^git version \d/);
  expect(version).not.toContain('planted');
  expect(existsSync(marker)).toBe(false);
});
