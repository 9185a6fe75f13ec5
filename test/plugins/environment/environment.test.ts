/** The per-run environment block (U3): cwd, platform, date, git branch and short status. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readGitSummary, readInTwoSteps, MAX_STATUS_LINES } from '../../../plugins/environment/git-status.js';
import { renderEnvironment } from '../../../plugins/environment/index.js';
import { hostGitEnv } from '../../../types/host-path.js';

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

describe('one process (a shell runs the check, then status) and the two-process fallback agree', () => {
  const repository = async (config?: string): Promise<string> => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'mc-git-'));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env: gitEnv });
    await writeFile(path.join(root, 'a.txt'), 'a');
    if (config !== undefined) await writeFile(path.join(root, '.git', 'config'), config);
    return root;
  };

  test('a plain repository: branch and status', async () => {
    const root = await repository();
    const expected = { branch: 'main (no commits yet)', status: ['?? a.txt'], more: 0 };
    expect(await readGitSummary(root)).toEqual(expected);
    expect(await readInTwoSteps(root)).toEqual(expected);
  });

  test('a risky key in the repository config: status is not read, and the key is named', async () => {
    const root = await repository('[core]\n\trepositoryformatversion = 0\n[filter "Lfs2"]\n\tsmudge = "touch x"\n');
    const expected = { branch: 'unknown', status: [], more: 0, skipped: "the repository's local config sets filter.lfs2.smudge, which would run commands" };
    expect(await readGitSummary(root)).toEqual(expected);
    expect(await readInTwoSteps(root)).toEqual(expected);
  });

  test('a risky key in the user’s own (global) config is not the repository’s: status is read', async () => {
    const root = await repository();
    const home = await mkdtemp(path.join(os.tmpdir(), 'mc-git-home-'));
    await writeFile(path.join(home, '.gitconfig'), '[core]\n\tpager = less\n');
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      expect(await readGitSummary(root)).toMatchObject({ status: ['?? a.txt'] });
    } finally {
      process.env.HOME = saved;
    }
  });

  test('a configuration git cannot read: status is not read, and why is said', async () => {
    const root = await repository('[core\n\tbroken');
    const summary = await readGitSummary(root);
    expect(summary?.skipped).toMatch(/^git could not list the repository's configuration \(exit \d+\)$/);
    expect((await readInTwoSteps(root))?.skipped).toMatch(/^git could not list the repository's configuration/);
  });

  test('without git on the PATH: not a repository, as far as the block can tell', async () => {
    const root = await repository();
    const empty = await mkdtemp(path.join(os.tmpdir(), 'mc-no-git-'));
    const saved = process.env.PATH;
    process.env.PATH = empty;
    try {
      expect(await readGitSummary(root)).toBeUndefined();
      expect(await readInTwoSteps(root)).toBeUndefined();
    } finally {
      process.env.PATH = saved;
    }
  });
});

test("a relative PATH entry (bin, or an empty one: the current directory), or an absolute one inside the project, never finds a repository's own git or rg", async () => {
  const { chmodSync, existsSync, mkdirSync } = await import('node:fs');
  const { findRipgrep } = await import('../../../sdk/search-common/find-ripgrep.js');
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-env-path-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  const canary = path.join(root, 'PLANTED-RAN');
  mkdirSync(path.join(root, 'bin'));
  mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  for (const name of ['git', 'rg']) {
    for (const file of [path.join(root, 'bin', name), path.join(root, name), path.join(root, 'node_modules', '.bin', name)]) {
      await writeFile(file, `#!/bin/sh\ntouch ${canary}\n`);
      chmodSync(file, 0o755);
    }
  }
  const saved = { path: process.env.PATH, cwd: process.cwd() };
  // `PATH_add node_modules/.bin` (direnv) or `$PWD/node_modules/.bin` in a shell's rc: absolute, inside the project.
  // …and the same spelled through a link to the project.
  const { symlinkSync } = await import('node:fs');
  symlinkSync(root, `${root}-link`);
  process.env.PATH = `bin::${root}/node_modules/.bin:${root}-link/node_modules/.bin:${saved.path}`;
  process.chdir(root);
  try {
    const summary = await readGitSummary(root);
    expect(summary).toMatchObject({ branch: expect.any(String) }); // the real git answered
    expect(findRipgrep(process.env.PATH)).not.toMatch(new RegExp(`^(bin/|${root})`));
    expect(findRipgrep(process.env.PATH, root)).not.toMatch(new RegExp(`^(bin/|${root})`));
    expect(existsSync(canary)).toBe(false);
  } finally {
    process.chdir(saved.cwd);
    process.env.PATH = saved.path;
  }
});

describe("a partial clone whose promisor remote runs a command: status never fetches", () => {
  /** A repository whose HEAD tree is missing: `git status` would fetch it from `origin`, running its uploadpack. */
  const partialClone = async (): Promise<{ root: string; marker: string }> => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'mc-git-partial-'));
    const marker = path.join(root, '..', `${path.basename(root)}-FETCH-RAN`);
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, env: gitEnv, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    await writeFile(path.join(root, 'README.md'), 'hi\n');
    git('add', 'README.md');
    git('commit', '-qm', 'init');
    const tree = git('rev-parse', 'HEAD^{tree}');
    await rm(path.join(root, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
    git('config', 'core.repositoryformatversion', '1');
    git('config', 'extensions.partialClone', 'origin');
    git('config', 'remote.origin.promisor', 'true');
    git('config', 'remote.origin.url', root);
    // The repository's own config cannot loosen the transport ban (protocol.allow could be).
    git('config', 'protocol.file.allow', 'always');
    git('config', 'remote.origin.uploadpack', `touch '${marker}'; false`);
    return { root, marker };
  };

  test('the check names the partial clone and status is not read', async () => {
    const { root, marker } = await partialClone();
    const expected = { branch: 'unknown', status: [], more: 0, skipped: "the repository's local config sets extensions.partialclone, which would run commands" };
    expect(await readGitSummary(root)).toEqual(expected);
    expect(await readInTwoSteps(root)).toEqual(expected);
    expect(existsSync(marker)).toBe(false);
  });

  test("the host git environment refuses every transport, whatever the repository's config says", async () => {
    const { root, marker } = await partialClone();
    try {
      execFileSync('git', ['status', '--porcelain'], { cwd: root, env: hostGitEnv(root), stdio: 'pipe' });
    } catch {
      // git fails on the missing tree: what matters is that it fetched nothing
    }
    expect(existsSync(marker)).toBe(false);
  });
});
