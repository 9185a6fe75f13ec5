/**
 * The sweep after each sandboxed command (git-sweep.ts) never renames, or judges, what a link the
 * command left leads to outside the writable roots: a `hooks` directory, a hook, a config file, a
 * `commondir`, a `.git` file's `gitdir:` or a `.git` link that leads outside is itself set aside,
 * and what it leads to (here a stand-in for the user's home) stays exactly as it was. On real git
 * repositories with real links.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitBaseline, sweepGitDirs, QUARANTINE_SUFFIX } from '../../../plugins/sandbox-os/git-sweep.js';
import { follow, setAsideEntry } from '../../../plugins/sandbox-os/sweep-paths.js';

let base: string;
let root: string;
let home: string;
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: base, GIT_CONFIG_NOSYSTEM: '1' } }).toString();

/** Every file and link below `dir` with its content (a link: where it points): the outside must not change at all. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const info = lstatSync(full);
      if (info.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = info.isSymbolicLink() ? `-> ${readlinkSync(full)}` : readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-sweep-links-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home'); // stands for the user's home, outside every writable root
  mkdirSync(root);
  git(root, 'init', '-q');
  for (const [file, text] of Object.entries({
    '.ssh/id_ed25519': 'KEY',
    '.ssh/authorized_keys': 'PUB',
    '.bashrc': 'rc',
    '.profile': 'prof',
    '.aws/config': '[default]\nregion = eu-west-1\n',
    '.config/git/config': '[user]\n\tname = Me\n[credential]\n\thelper = store\n',
    'otherrepo/.git/config': '[core]\n\tbare = false\n[alias]\n\tco = checkout\n',
    'otherrepo/.git/hooks/pre-commit': '#!/bin/sh\nexit 0\n',
    'otherrepo/.git/HEAD': 'ref: refs/heads/main\n',
  })) {
    mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    writeFileSync(path.join(home, file), text);
  }
  mkdirSync(path.join(home, 'otherrepo', '.git', 'objects'));
  mkdirSync(path.join(home, 'otherrepo', '.git', 'refs'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The baseline, then `act` (the "command"), then the sweep: what was set aside (relative to the project) and what it could not. */
async function around(act: () => void): Promise<{ moved: string[]; unchecked: string[] }> {
  const baseline = await gitBaseline([root]);
  const since = Date.now() - 20; // file times lag the wall clock by a few ms
  act();
  const { quarantined, unchecked } = await sweepGitDirs([root], since, baseline);
  return { moved: quarantined.map((q) => path.relative(root, q.path)).sort(), unchecked };
}

const isLink = (file: string): boolean => lstatSync(file).isSymbolicLink();

test('a new repository whose hooks directory is a link to a directory outside: the link is set aside, nothing outside is renamed', async () => {
  const before = snapshot(home);
  const { moved } = await around(() => {
    git(root, 'init', '-q', 'a');
    rmSync(path.join(root, 'a', '.git', 'hooks'), { recursive: true });
    symlinkSync(path.join(home, '.ssh'), path.join(root, 'a', '.git', 'hooks'));
    git(root, 'init', '-q', 'b');
    rmSync(path.join(root, 'b', '.git', 'hooks'), { recursive: true });
    symlinkSync(home, path.join(root, 'b', '.git', 'hooks'));
  });
  expect(moved).toEqual(['a/.git/hooks', 'b/.git/hooks']);
  expect(snapshot(home)).toEqual(before);
  expect(isLink(path.join(root, 'a', '.git', `hooks${QUARANTINE_SUFFIX}`))).toBe(true);
});

test('a hooks link to a file outside, and a hook that is a link to a file outside: the links are set aside, the files stay', async () => {
  git(root, 'init', '-q', 'c');
  const before = snapshot(home);
  const { moved } = await around(() => {
    git(root, 'init', '-q', 'a');
    rmSync(path.join(root, 'a', '.git', 'hooks'), { recursive: true });
    symlinkSync(path.join(home, '.bashrc'), path.join(root, 'a', '.git', 'hooks'));
    symlinkSync(path.join(home, '.profile'), path.join(root, 'c', '.git', 'hooks', 'post-checkout'));
  });
  expect(moved).toEqual(['a/.git/hooks', 'c/.git/hooks/post-checkout']);
  expect(snapshot(home)).toEqual(before);
  expect(isLink(path.join(root, 'c', '.git', 'hooks', `post-checkout${QUARANTINE_SUFFIX}`))).toBe(true);
});

test('a hooks link made before the command to a directory outside: what changes there meanwhile is not the command’s, and nothing is renamed', async () => {
  git(root, 'init', '-q', 'old');
  rmSync(path.join(root, 'old', '.git', 'hooks'), { recursive: true });
  symlinkSync(home, path.join(root, 'old', '.git', 'hooks'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const { moved } = await around(() => writeFileSync(path.join(home, '.bashrc'), 'rc edited by the user meanwhile'));
  expect(moved).toEqual([]);
  expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('rc edited by the user meanwhile');
});

test('commondir leading outside through a link in the project: the commondir file is set aside, nothing outside is judged or renamed', async () => {
  const before = snapshot(home);
  const { moved } = await around(() => {
    symlinkSync(home, path.join(root, 'lnk'));
    for (const [dir, common] of [['a', '../../lnk/.aws'], ['b', '../../lnk/.config/git'], ['c', '../../lnk/otherrepo/.git']]) {
      git(root, 'init', '-q', dir!);
      writeFileSync(path.join(root, dir!, '.git', 'commondir'), `${common}\n`);
    }
  });
  expect(moved).toEqual(['a/.git/commondir', 'b/.git/commondir', 'c/.git/commondir']);
  expect(snapshot(home)).toEqual(before);
});

test('a .git file whose gitdir leads outside (relative through a link, or absolute), and a .git link to outside: each is set aside', async () => {
  symlinkSync(home, path.join(root, 'lnk'));
  // A .git file from before the command, through a link the command makes now.
  mkdirSync(path.join(root, 'old'));
  writeFileSync(path.join(root, 'old', '.git'), 'gitdir: ../later/otherrepo/.git\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = snapshot(home);
  const { moved } = await around(() => {
    for (const dir of ['rel', 'abs', 'linked']) mkdirSync(path.join(root, dir));
    writeFileSync(path.join(root, 'rel', '.git'), 'gitdir: ../lnk/otherrepo/.git\n');
    writeFileSync(path.join(root, 'abs', '.git'), `gitdir: ${path.join(home, 'otherrepo', '.git')}\n`);
    symlinkSync(path.join(home, 'otherrepo', '.git'), path.join(root, 'linked', '.git'));
    symlinkSync(home, path.join(root, 'later'));
    writeFileSync(path.join(home, 'otherrepo', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n'); // the user, meanwhile
  });
  expect(moved).toEqual(['abs/.git', 'linked/.git', 'old/.git', 'rel/.git']);
  expect(snapshot(home)).toEqual(before);
});

test('a config link to a file outside is set aside whatever that file holds (here nothing that runs); the file stays', async () => {
  writeFileSync(path.join(home, '.config', 'git', 'config'), '[user]\n\tname = Me\n');
  const before = snapshot(home);
  const { moved } = await around(() => {
    git(root, 'init', '-q', 'a');
    rmSync(path.join(root, 'a', '.git', 'config'));
    symlinkSync(path.join(home, '.config', 'git', 'config'), path.join(root, 'a', '.git', 'config'));
  });
  expect(moved).toEqual(['a/.git/config']);
  expect(snapshot(home)).toEqual(before);
});

test('the project’s own .git/modules replaced by a link to a directory outside: the link is set aside (git writes submodules there through it), nothing it leads to is judged or renamed', async () => {
  mkdirSync(path.join(home, 'mods', 'x', 'hooks'), { recursive: true });
  writeFileSync(path.join(home, 'mods', 'x', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(home, 'mods', 'x', 'config'), '[core]\n\tpager = less\n');
  writeFileSync(path.join(home, 'mods', 'x', 'hooks', 'pre-commit'), '#!/bin/sh\n');
  const before = snapshot(home);
  const { moved } = await around(() => symlinkSync(path.join(home, 'mods'), path.join(root, '.git', 'modules')));
  expect(moved).toEqual(['.git/modules']);
  expect(snapshot(home)).toEqual(before);
});

test('a hooks link to a directory inside the project: the link is set aside, the project’s own files it leads to stay', async () => {
  mkdirSync(path.join(root, 'tools', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, 'tools', 'hooks', 'pre-commit'), '#!/bin/sh\nmake lint\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const { moved } = await around(() => {
    git(root, 'init', '-q', 'a');
    rmSync(path.join(root, 'a', '.git', 'hooks'), { recursive: true });
    symlinkSync('../../tools/hooks', path.join(root, 'a', '.git', 'hooks'));
  });
  expect(moved).toEqual(['a/.git/hooks']);
  expect(readFileSync(path.join(root, 'tools', 'hooks', 'pre-commit'), 'utf8')).toContain('make lint');
});

test('ordinary work is left alone: a worktree (an absolute gitdir into the project’s .git) and a submodule', async () => {
  git(root, 'commit', '-q', '--allow-empty', '-m', 'x');
  git(root, 'init', '-q', 'up');
  git(path.join(root, 'up'), 'commit', '-q', '--allow-empty', '-m', 'x');
  const { moved, unchecked } = await around(() => {
    git(root, 'worktree', 'add', '-q', 'wt');
    git(root, '-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', path.join(root, 'up'), 'lib');
  });
  expect(moved).toEqual([]);
  expect(unchecked).toEqual([]);
});

test('a planted FIFO at a new repository’s config does not block the sweep', async () => {
  const { moved } = await around(() => {
    git(root, 'init', '-q', 'a');
    rmSync(path.join(root, 'a', '.git', 'config'));
    execFileSync('mkfifo', [path.join(root, 'a', '.git', 'config')]);
  });
  expect(moved).toEqual([]);
});

describe('sweep-paths', () => {
  test('follow: resolves links as the kernel does, `..` after a link included, and says whether the end is inside', async () => {
    symlinkSync(home, path.join(root, 'lnk'));
    mkdirSync(path.join(root, 'd'));
    const outside = await follow(root, 'd/../lnk/.aws/config', [root]);
    expect(outside).toMatchObject({ real: path.join(home, '.aws', 'config'), inside: false });
    expect(outside.links.map((link) => link.path)).toEqual([path.join(root, 'lnk')]);
    // `lnk/..` is the parent of the home stand-in, not the project: lexical resolution would say `project/x`.
    expect(await follow(root, 'lnk/../project/d', [root])).toMatchObject({ real: path.join(root, 'd'), inside: true });
    expect(await follow(root, 'missing/x', [root])).toMatchObject({ real: undefined, inside: true });
    expect(await follow(root, 'missing/../../x', [root])).toMatchObject({ real: undefined, inside: false });
  });

  test('setAsideEntry renames the link itself, and refuses a parent reached through a link', () => {
    symlinkSync(home, path.join(root, 'lnk'));
    expect(setAsideEntry(path.join(root, 'lnk', '.bashrc'), [root])).toMatchObject({ refused: expect.any(String) });
    expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('rc');
    expect(setAsideEntry(path.join(root, 'lnk'), [root])).toEqual({ movedTo: path.join(root, `lnk${QUARANTINE_SUFFIX}`) });
    expect(isLink(path.join(root, `lnk${QUARANTINE_SUFFIX}`))).toBe(true);
    expect(setAsideEntry(path.join(home, '.profile'), [root])).toMatchObject({ refused: expect.any(String) });
    expect(readFileSync(path.join(home, '.profile'), 'utf8')).toBe('prof');
  });
});
