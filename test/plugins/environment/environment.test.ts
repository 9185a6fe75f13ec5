/** The per-run environment block (SPEC U3): cwd, platform, date, git branch and short status. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readGitSummary, MAX_STATUS_LINES } from '../../../plugins/environment/git-status.js';
import { renderEnvironment } from '../../../plugins/environment/index.js';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

test('a fresh repository reports its branch and each untracked file, capped with a count of the rest', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-git-'));
  execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: root, env: gitEnv });
  expect(await readGitSummary(root)).toEqual({ branch: 'trunk (no commits yet)', status: [], more: 0 });
  await writeFile(path.join(root, 'a.txt'), 'a');
  execFileSync('git', ['add', '.'], { cwd: root, env: gitEnv });
  execFileSync('git', ['commit', '-qm', 'init'], { cwd: root, env: gitEnv });
  for (let i = 0; i < MAX_STATUS_LINES + 2; i++) await writeFile(path.join(root, `new-${String(i).padStart(2, '0')}.txt`), 'x');
  const summary = await readGitSummary(root);
  expect(summary).toMatchObject({ branch: 'trunk', more: 2 });
  expect(summary!.status).toHaveLength(MAX_STATUS_LINES);
  expect(summary!.status[0]).toBe('?? new-00.txt');
  const text = renderEnvironment(root, new Date(2026, 10, 29, 23, 30), summary);
  expect(text).toContain(`Working directory: ${root}`);
  expect(text).toContain("Today's date: 2026-11-29");
  expect(text).toContain('Git branch: trunk');
  expect(text).toContain('  ?? new-00.txt');
  expect(text).toContain('… and 2 more changed paths');
});

test('outside a repository the block says so', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-nogit-'));
  expect(await readGitSummary(root)).toBeUndefined();
  expect(renderEnvironment(root, new Date(), undefined)).toContain('Git: not a git repository');
});
