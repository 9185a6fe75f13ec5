/**
 * The shared walker's .gitignore rules against git itself: on a repository with many kinds of
 * patterns, the files the walker lists equal `git ls-files --others --exclude-standard` (minus
 * what the walker skips by design: hidden directories).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { walkProject } from '../../../sdk/search-common/walker.js';
import { parseIgnoreLine } from '../../../sdk/search-common/gitignore.js';
import { makeTree, removeTree } from '../tool-grep/helpers.js';

const ROOT_RULES = [
  '# comment',
  '*.log',
  '!keep.log',
  '/root-only.txt',
  'build/',
  'docs/**/*.md',
  '**/tmp',
  'q/**/b',
  'foo?.txt',
  '[abc].dat',
  '[!x]y.cfg',
  '\\#hash',
  '\\!bang',
  'trailing\\ ',
  'dir/sub/',
  '*.min.*',
  '**/cache/**',
  '!**/cache/keep.me',
  'spaces   ',
  'x/*/z.txt',
  '*.[oa]',
  'node_modules',
].join('\n');

const FILES = [
  'a.log', 'keep.log', 'sub/b.log', 'sub/keep.log', 'root-only.txt', 'sub/root-only.txt', 'build/x.js', 'src/build/y.js', 'src/other/build',
  'docs/a.md', 'docs/deep/b.md', 'docs/c.txt', 'tmp', 'src/tmp/z.js', 'q/b', 'q/x/y/b', 'q/bb/c.txt', 'foo1.txt', 'foo12.txt',
  'a.dat', 'd.dat', 'ay.cfg', 'xy.cfg', '#hash', '!bang', 'trailing ', 'trailing', 'dir/sub/f.txt', 'other/dir/sub/f.txt',
  'app.min.js', 'app.js', 'cache/p.txt', 'src/cache/q/r.txt', 'src/cache/keep.me', 'spaces', 'x/y/z.txt', 'x/y/w/z.txt',
  'lib.o', 'lib.a', 'lib.c', 'node_modules/m/index.js', 'pkg/node_modules/n.js',
  'nested/.gitignore', 'nested/local.txt', 'nested/deeper/local.txt', 'nested/anchored.txt', 'nested/deeper/anchored.txt',
  'nested/re.log', 'nested/plain.txt', 'nested/only-dir', 'nested/only-dir2/f.txt',
];

const NESTED_RULES = ['local.txt', '/anchored.txt', '!re.log', 'only-dir/', 'only-dir2/'].join('\n');

test('the walker lists exactly the files git does not ignore (git is part of the toolchain)', async () => {
  const spec: Record<string, string> = { '.gitignore': ROOT_RULES };
  for (const file of FILES) spec[file] = 'x\n';
  spec['nested/.gitignore'] = NESTED_RULES;
  const root = makeTree(spec, 'mewcode-gitignore-');
  const home = mkdtempSync(path.join(os.tmpdir(), 'mewcode-git-home-'));
  try {
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['init', '-q'], { cwd: root, env });
    const fromGit = execFileSync('git', ['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', '-z'], { cwd: root, env, encoding: 'utf8' })
      .split('\0')
      .filter((p) => p !== '')
      .sort();
    const walked: string[] = [];
    await walkProject({ root, start: root, respectIgnore: true, onFile: (rel) => walked.push(rel) });
    expect(walked.sort()).toEqual(fromGit);
    // what git itself keeps (documented here so a change in the walker shows what it affects)
    expect(walked).toEqual(
      '.gitignore app.js d.dat docs/c.txt foo12.txt keep.log lib.c nested/.gitignore nested/deeper/anchored.txt nested/only-dir nested/plain.txt nested/re.log other/dir/sub/f.txt q/bb/c.txt src/cache/keep.me src/other/build sub/keep.log sub/root-only.txt trailing x/y/w/z.txt xy.cfg'.split(' '),
    );
  } finally {
    removeTree(root);
    removeTree(home);
  }
});

test('pattern parsing: comments, escapes, trailing spaces, anchoring, dir-only', () => {
  expect(parseIgnoreLine('# c')).toBeUndefined();
  expect(parseIgnoreLine('   ')).toBeUndefined();
  expect(parseIgnoreLine('\\#x')!.regex.test('#x')).toBe(true);
  expect(parseIgnoreLine('a ')!.regex.test('a')).toBe(true);
  expect(parseIgnoreLine('a\\ ')!.regex.test('a ')).toBe(true);
  expect(parseIgnoreLine('!x')).toMatchObject({ negate: true });
  expect(parseIgnoreLine('d/')).toMatchObject({ dirOnly: true });
  expect(parseIgnoreLine('*.js')!.regex.test('deep/x.js')).toBe(true);
  expect(parseIgnoreLine('/x.js')!.regex.test('deep/x.js')).toBe(false);
  expect(parseIgnoreLine('a/*.js')!.regex.test('a/b/x.js')).toBe(false);
  expect(parseIgnoreLine('a/**/x.js')!.regex.test('a/b/c/x.js')).toBe(true);
  expect(parseIgnoreLine('a/**')!.regex.test('a')).toBe(false);
});
