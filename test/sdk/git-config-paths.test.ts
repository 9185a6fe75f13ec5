/** What a repository's git configuration makes git read or run from (sdk/git-config-paths.ts), on real files. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitNamedParts, gitNamedPaths, gitNamedPathsCached, parseGitConfig, repositoryOf } from '../../sdk/git-config-paths.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-gitnamed-')));
  root = path.join(base, 'proj');
  home = path.join(base, 'home');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const named = (): string[] => gitNamedPaths({ gitDir: path.join(root, '.git'), workTree: root, homeDir: home }).sort();

test('parses sections, subsections, quoting, comments and bare keys as git does (the dotted form lower-cased whole)', () => {
  expect(parseGitConfig('[core]\n\thooksPath = ".hooks" # comment\n[includeIf "gitdir:~/w/"]\n\tpath = ~/w.inc\n[Section.Sub]\n\tflag\n')).toEqual([
    { key: 'core.hookspath', value: '.hooks' },
    { key: 'includeif.gitdir:~/w/.path', value: '~/w.inc' },
    { key: 'section.sub.flag', value: 'true' },
  ]);
});

test('the hooks directory (relative to the work tree), included files (relative to the includer, followed) and an fsmonitor path', () => {
  writeFileSync(path.join(root, '.git', 'config'), '[core]\n\thooksPath = .husky\n\tfsmonitor = scripts/watch.sh --fast\n[include]\n\tpath = ../team.gitconfig\n');
  writeFileSync(path.join(root, 'team.gitconfig'), '[include]\n\tpath = more.gitconfig\n');
  expect(named()).toEqual([path.join(root, '.husky'), path.join(root, 'more.gitconfig'), path.join(root, 'scripts/watch.sh'), path.join(root, 'team.gitconfig')].sort());
});

test('the programs the configuration runs, named by a path: filters, diff and merge drivers, editors, pagers, `!` aliases and helpers', () => {
  writeFileSync(
    path.join(root, '.git', 'config'),
    [
      '[filter "tidy"]\n\tclean = ./tools/clean.sh %f\n\tsmudge = tools/smudge.sh\n\tprocess = "bin/filter process"\n',
      '[diff "img"]\n\ttextconv = scripts/exif.sh\n[merge "ours"]\n\tdriver = ./m.sh %O %A %B\n',
      '[core]\n\teditor = bin/edit\n\tpager = less -R\n\tsshCommand = ./ssh-wrap\n[sequence]\n\teditor = bin/seq\n[pager]\n\tlog = ./page\n',
      '[alias]\n\tst = status\n\tx = !./scripts/x.sh --go\n\ty = "!f() { true; }; f"\n[credential]\n\thelper = !tools/cred.sh\n\thelper = store\n',
      '[gpg]\n\tprogram = bin/gpg\n[gpg "ssh"]\n\tprogram = bin/ssh-sign\n[interactive]\n\tdiffFilter = bin/df\n',
      '[lfs "extension.x"]\n\tclean = tools/lfs-clean.sh %f\n[lfs "customtransfer.t"]\n\tpath = ./bin/transfer\n',
    ].join(''),
  );
  const inRoot = (...names: string[]): string[] => names.map((name) => path.join(root, name));
  expect(named()).toEqual(
    inRoot('tools/clean.sh', 'tools/smudge.sh', 'bin/filter', 'scripts/exif.sh', 'm.sh', 'bin/edit', 'ssh-wrap', 'bin/seq', 'page', 'scripts/x.sh', 'tools/cred.sh', 'bin/gpg', 'bin/ssh-sign', 'bin/df', 'tools/lfs-clean.sh', 'bin/transfer').sort(),
  ); // bare names (less, store), a git alias (status) and a shell function name nothing
});

test('keys read as git reads them: after a comment ending in a backslash, on a header line, behind a NUL in a subsection', () => {
  writeFileSync(
    path.join(root, '.git', 'config'),
    '[core]\n\t# note \\\n\thooksPath = .husky\n[include] ; \\\npath = ../team.gitconfig\n[core "fsmonitor\0"]\n\tx = bin/watch\n',
  );
  expect(named()).toEqual([path.join(root, '.husky'), path.join(root, 'bin/watch'), path.join(root, 'team.gitconfig')].sort());
});

test('a key without a value names nothing; a file git refuses is read up to the line git stops at', () => {
  writeFileSync(path.join(root, '.git', 'config'), '[include]\n\tpath\n[core]\n\thooksPath = .husky\n\tbad = "open\n\tfsmonitor = bin/watch\n');
  expect(named()).toEqual([path.join(root, '.husky')]);
});

test("the user's own ~/.gitconfig counts too (a relative hooksPath there names the project's directory); fsmonitor = true names nothing", () => {
  writeFileSync(path.join(home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n\tfsmonitor = true\n[includeIf "gitdir:~/src/"]\n\tpath = ~/.gitconfig-work\n');
  expect(named()).toEqual([path.join(home, '.gitconfig-work'), path.join(root, '.githooks')].sort());
});

test('the cache follows a change of the configuration', () => {
  const input = { gitDir: path.join(root, '.git'), workTree: root, homeDir: home };
  expect(gitNamedPathsCached(input)).toEqual([]);
  writeFileSync(path.join(root, '.git', 'config'), '[core]\n\thooksPath = .husky\n');
  expect(gitNamedPathsCached(input)).toEqual([path.join(root, '.husky')]);
});

describe('the configuration files git picks from the environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  test('GIT_CONFIG_GLOBAL instead of ~/.gitconfig; GIT_CONFIG_SYSTEM read unless GIT_CONFIG_NOSYSTEM', () => {
    writeFileSync(path.join(home, '.gitconfig'), '[core]\n\thooksPath = .from-home\n');
    writeFileSync(path.join(base, 'global'), '[core]\n\thooksPath = .from-global\n');
    writeFileSync(path.join(base, 'system'), '[filter "x"]\n\tclean = ./from-system.sh\n');
    process.env.GIT_CONFIG_GLOBAL = path.join(base, 'global');
    process.env.GIT_CONFIG_SYSTEM = path.join(base, 'system');
    delete process.env.GIT_CONFIG_NOSYSTEM;
    expect(named()).toEqual([path.join(root, '.from-global'), path.join(root, 'from-system.sh')]);
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    expect(named()).toEqual([path.join(root, '.from-global')]);
  });
});

test("a program's script counts too (an interpreter's script, env's program, a quoted path with spaces), not what it is merely handed; Python's -m module at the work tree's top", () => {
  writeFileSync(
    path.join(root, '.git', 'config'),
    [
      '[filter "a"]\n\tclean = sh tools/clean.sh\n\tsmudge = env MODE=1 ./bin/run\n',
      '[filter "nb"]\n\tclean = "/usr/bin/python3" -m nbstripout\n[diff "ipynb"]\n\ttextconv = python3 -mjupytext.cli --to md\n',
      '[credential]\n\thelper = "!\\"./my tools/cred.sh\\" get"\n[core]\n\tpager = less -R https://example.com/x\n',
    ].join(''),
  );
  const inRoot = (...names: string[]): string[] => names.map((name) => path.join(root, name));
  const module = (name: string): string[] => [`${name}.py`, `${name}.pyc`, `${name}/__init__.py`, `${name}/__main__.py`];
  expect(named()).toEqual(inRoot('tools/clean.sh', 'bin/run', ...module('nbstripout'), ...module('jupytext'), 'my tools/cred.sh').concat('/usr/bin/python3').sort());
});

test("a linked worktree's git directory: its main repository's config and hooks are what git reads", () => {
  const main = path.join(base, 'main');
  mkdirSync(path.join(main, '.git', 'worktrees', 'wt'), { recursive: true });
  writeFileSync(path.join(main, '.git', 'config'), '[filter "x"]\n\tclean = ./tools/x.sh\n');
  writeFileSync(path.join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
  const parts = gitNamedParts({ gitDir: path.join(main, '.git', 'worktrees', 'wt'), workTree: root, homeDir: home });
  expect(parts.programs).toEqual([path.join(root, 'tools', 'x.sh')]);
  expect(parts.hooksDirs).toEqual([path.join(main, '.git', 'hooks')]);
});

test("programs that run the project's own code are named (a merge driver's `npx`: a package runner takes the project's node_modules/.bin first); the others are not", () => {
  writeFileSync(path.join(home, '.gitconfig'), '[merge "npm-merge-driver"]\n\tdriver = npx npm-merge-driver merge %A %O %B %P\n[core]\n\tpager = less -R\n');
  writeFileSync(path.join(root, '.git', 'config'), '[diff "lock"]\n\ttextconv = pnpm exec lockfile-diff\n');
  const parts = gitNamedParts({ gitDir: path.join(root, '.git'), workTree: root, homeDir: home });
  expect(parts.programsRunningProjectCode).toEqual(['merge.npm-merge-driver.driver (npx…)', 'diff.lock.textconv (pnpm exec…)']);
});

test('the repository git finds from a folder: the folder itself, or the nearest one above it with a .git', () => {
  mkdirSync(path.join(root, 'app', 'src'), { recursive: true });
  expect(repositoryOf(path.join(root, 'app', 'src'))).toEqual({ gitDir: path.join(root, '.git'), workTree: root });
  expect(repositoryOf(root)).toEqual({ gitDir: path.join(root, '.git'), workTree: root });
});

test("the rest of the keys git runs a program from (diff.external, difftool and mergetool commands, a remote's upload-pack, a submodule's update command…), and paths built on the work tree's top", () => {
  writeFileSync(
    path.join(root, '.git', 'config'),
    [
      '[diff]\n\texternal = ./tools/extdiff.sh\n[difftool "t"]\n\tcmd = ./tools/dt.sh "$LOCAL" "$REMOTE"\n[mergetool "m"]\n\tpath = tools/mt\n',
      '[remote "origin"]\n\turl = ../up\n\tuploadpack = ./tools/up.sh\n[submodule "lib"]\n\tupdate = !./tools/upd.sh\n[core]\n\tgitProxy = ./tools/proxy.sh for example.com\n',
      '[filter "tidy"]\n\tclean = "$(git rev-parse --show-toplevel)/tools/clean.sh"\n[alias]\n\tlint = !"$(git rev-parse --show-toplevel)"/scripts/lint.sh\n[trailer "s"]\n\tcmd = ./tools/trailer.sh\n',
    ].join(''),
  );
  const inRoot = (...names: string[]): string[] => names.map((name) => path.join(root, name));
  expect(named()).toEqual(inRoot('tools/extdiff.sh', 'tools/dt.sh', 'tools/mt', 'tools/up.sh', 'tools/upd.sh', 'tools/proxy.sh', 'tools/clean.sh', 'scripts/lint.sh', 'tools/trailer.sh').sort());
});

test("what a program is merely handed is not protected: an alias's eslint src/, a bun package script's name", () => {
  writeFileSync(path.join(home, '.gitconfig'), '[alias]\n\tlint = !eslint src/ --fix\n\tb = !bun run build\n');
  expect(named()).toEqual([]);
});
