/** isTrackedByGit: the index read, its fail-closed fallbacks, and the ways a file can come with a repository. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isTrackedByGit } from '../../config/git-tracked.js';

let base: string;
let repo: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-tracked-')));
  repo = path.join(base, 'repo');
  mkdirSync(repo);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe' }).toString();

function write(file: string, text = 'x: 1\n'): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const local = () => path.join(repo, '.mewcode', 'settings.local.yaml');

describe('isTrackedByGit', () => {
  it('a file outside any repository counts as tracked (it may have come in an archive), with a warning', async () => {
    expect(await isTrackedByGit(write(local()))).toEqual({ tracked: true, warning: expect.stringContaining('is not in a git repository') });
  });

  it('a repository without an index counts the file as tracked, with a warning (an archive can ship a .git without one)', async () => {
    git(repo, 'init', '-q');
    expect(await isTrackedByGit(write(local()))).toEqual({ tracked: true, warning: expect.stringContaining('has no index') });
    // Once anything is staged, the index answers for the file itself.
    write(path.join(repo, 'README.md'));
    git(repo, 'add', 'README.md');
    expect(await isTrackedByGit(local())).toEqual({ tracked: false });
  });

  it('an added file is tracked; an untracked sibling and a same-named file elsewhere are not', async () => {
    git(repo, 'init', '-q');
    write(local());
    const other = write(path.join(repo, '.mewcode', 'config.local.yaml'));
    write(path.join(repo, 'sub', '.mewcode', 'settings.local.yaml'));
    git(repo, 'add', '.mewcode/settings.local.yaml', 'sub/.mewcode/settings.local.yaml');
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
    expect(await isTrackedByGit(other)).toEqual({ tracked: false });
    rmSync(path.join(repo, 'sub', '.mewcode', 'settings.local.yaml'));
    git(repo, 'rm', '-q', '--cached', 'sub/.mewcode/settings.local.yaml');
    git(repo, 'add', '.mewcode/config.local.yaml');
    expect(await isTrackedByGit(other)).toEqual({ tracked: true });
  });

  it('a committed file in a folder whose name begins with two dots (`..pkg/`) is tracked: that folder is in the repository', async () => {
    git(repo, 'init', '-q');
    const file = write(path.join(repo, '..pkg', '.mewcode', 'sessions', 's1', 'conversation.jsonl'), '{}\n');
    git(repo, 'add', '-A');
    expect(await isTrackedByGit(file)).toEqual({ tracked: true });
  });

  it('look-alike paths around it in the sorted index do not count; the file itself among many does', async () => {
    git(repo, 'init', '-q');
    for (const name of ['.a', '.github/x.yml', '.mewcode/settings.local.yam', '.mewcode/settings.local.yamlx', '.mewcode/settings.local.yaml.bak', '.mewcode!', 'Z', 'src/a.ts']) write(path.join(repo, name));
    for (let i = 0; i < 300; i++) write(path.join(repo, 'lib', `f${i}.ts`));
    write(local());
    git(repo, 'add', '.a', '.github', '.mewcode/settings.local.yam', '.mewcode/settings.local.yamlx', '.mewcode/settings.local.yaml.bak', '.mewcode!', 'Z', 'src', 'lib');
    expect(await isTrackedByGit(local())).toEqual({ tracked: false });
    git(repo, 'add', '.mewcode/settings.local.yaml');
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
  });

  it('a SHA-256 repository is read with its longer hashes', async () => {
    git(repo, 'init', '-q', '--object-format=sha256');
    for (let i = 0; i < 50; i++) write(path.join(repo, 'lib', `f${i}.ts`));
    write(local());
    git(repo, 'add', 'lib');
    expect(await isTrackedByGit(local())).toEqual({ tracked: false });
    git(repo, 'add', '.mewcode/settings.local.yaml');
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
  });

  it('a project in a subdirectory of the repository is looked up by its path in the repository', async () => {
    git(repo, 'init', '-q');
    git(repo, 'read-tree', '--empty'); // an index that tracks nothing yet
    const nested = write(path.join(repo, 'packages', 'app', '.mewcode', 'settings.local.yaml'));
    expect(await isTrackedByGit(nested)).toEqual({ tracked: false });
    git(repo, 'add', '.');
    expect(await isTrackedByGit(nested)).toEqual({ tracked: true });
  });

  it('a file reached through a committed link to a directory counts as tracked', async () => {
    git(repo, 'init', '-q');
    write(path.join(repo, 'conf', 'settings.local.yaml'));
    symlinkSync('conf', path.join(repo, '.mewcode'));
    git(repo, 'add', '.mewcode', 'conf');
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
  });

  it('a committed link named settings.local.yaml counts as tracked', async () => {
    git(repo, 'init', '-q');
    write(path.join(repo, 'evil.yaml'));
    mkdirSync(path.join(repo, '.mewcode'));
    symlinkSync('../evil.yaml', local());
    git(repo, 'add', '.mewcode/settings.local.yaml');
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
  });

  it('index format 4 (compressed paths) is answered by git itself, both ways', async () => {
    git(repo, 'init', '-q');
    write(local());
    write(path.join(repo, 'a.txt'));
    git(repo, 'add', 'a.txt');
    git(repo, 'update-index', '--index-version', '4');
    expect(await isTrackedByGit(local())).toEqual({ tracked: false });
    git(repo, 'add', '.mewcode/settings.local.yaml');
    git(repo, 'update-index', '--index-version', '4');
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
  });

  it('a split index is answered by git itself (the main index alone does not list every file)', async () => {
    git(repo, 'init', '-q');
    write(local());
    git(repo, 'add', '.mewcode/settings.local.yaml');
    git(repo, 'update-index', '--split-index');
    write(path.join(repo, 'b.txt'));
    git(repo, 'add', 'b.txt');
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
  });

  it('a linked worktree (.git is a file) reads its own index', async () => {
    git(repo, 'init', '-q');
    write(path.join(repo, 'a.txt'));
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'a');
    const tree = path.join(base, 'tree');
    git(repo, 'worktree', 'add', '-q', tree);
    const inTree = write(path.join(tree, '.mewcode', 'settings.local.yaml'));
    expect(await isTrackedByGit(inTree)).toEqual({ tracked: false });
    git(tree, 'add', '.mewcode/settings.local.yaml');
    expect(await isTrackedByGit(inTree)).toEqual({ tracked: true });
  });

  it('an unreadable index falls back to git, and a failing git answers "tracked" with the reason', async () => {
    git(repo, 'init', '-q');
    write(local());
    writeFileSync(path.join(repo, '.git', 'index'), 'not an index at all');
    const answer = await isTrackedByGit(local());
    expect(answer.tracked).toBe(true);
    expect(answer.warning).toMatch(/^could not tell whether .*settings\.local\.yaml is tracked by git \(.+\); treating it as part of the project$/);
  });

  it('runs no repository-controlled code: an fsmonitor hook in .git/config is never started', async () => {
    git(repo, 'init', '-q');
    write(local());
    git(repo, 'add', '.mewcode/settings.local.yaml');
    git(repo, 'update-index', '--index-version', '4'); // forces the git fallback
    const canary = path.join(base, 'fsmonitor-ran');
    const hook = write(path.join(base, 'monitor.sh'), `#!/bin/sh\ntouch '${canary}'\n`);
    execFileSync('chmod', ['+x', hook]);
    git(repo, 'config', 'core.fsmonitor', hook);
    expect(await isTrackedByGit(local())).toEqual({ tracked: true });
    expect(() => realpathSync(canary)).toThrow();
  });
});
