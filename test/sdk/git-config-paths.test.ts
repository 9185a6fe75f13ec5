/** What a repository's git configuration makes git read or run from (sdk/git-config-paths.ts), on real files. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitNamedPaths, gitNamedPathsCached, parseGitConfig } from '../../sdk/git-config-paths.js';

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
