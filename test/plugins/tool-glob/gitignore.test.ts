/**
 * The shared walker's .gitignore rules against git itself: on a repository with many kinds of
 * patterns, the files the walker lists equal `git ls-files --others --exclude-standard` (minus
 * what the walker skips by design: hidden directories). The rules include ones a hostile
 * repository would plant: many stars in one name against a name of 250 `a`s, and several `**`
 * against a deep path, which V8's backtracking took hours (or for ever) to answer; they are
 * matched in linear time now, with git's answers. Random globs check that the linear engine and
 * V8 give every rule the same answer.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { walkProject } from '../../../sdk/search-common/walker.js';
import { IgnoreFile, parseIgnoreLine } from '../../../sdk/search-common/gitignore.js';
import { makeTree, removeTree } from '../tool-grep/helpers.js';
import { seededRandom } from '../../support/seeded-random.js';

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
  // hostile: exponential for a backtracking engine on the long names below
  '*a*a*a*a*a*a*a*a*b',
  'deep/**/x/**/x/**/x/**/x/**/y',
].join('\n');

const LONG = 'a'.repeat(250);
const DEEP = `deep/${'x/'.repeat(60)}`;

const FILES = [
  'a.log', 'keep.log', 'sub/b.log', 'sub/keep.log', 'root-only.txt', 'sub/root-only.txt', 'build/x.js', 'src/build/y.js', 'src/other/build',
  'docs/a.md', 'docs/deep/b.md', 'docs/c.txt', 'tmp', 'src/tmp/z.js', 'q/b', 'q/x/y/b', 'q/bb/c.txt', 'foo1.txt', 'foo12.txt',
  'a.dat', 'd.dat', 'ay.cfg', 'xy.cfg', '#hash', '!bang', 'trailing ', 'trailing', 'dir/sub/f.txt', 'other/dir/sub/f.txt',
  'app.min.js', 'app.js', 'cache/p.txt', 'src/cache/q/r.txt', 'src/cache/keep.me', 'spaces', 'x/y/z.txt', 'x/y/w/z.txt',
  'lib.o', 'lib.a', 'lib.c', 'node_modules/m/index.js', 'pkg/node_modules/n.js',
  'nested/.gitignore', 'nested/local.txt', 'nested/deeper/local.txt', 'nested/anchored.txt', 'nested/deeper/anchored.txt',
  'nested/re.log', 'nested/plain.txt', 'nested/only-dir', 'nested/only-dir2/f.txt',
  LONG, `sub/${LONG}`, `${LONG.slice(8)}b`, 'aaaaaaab', `${DEEP}z`, `${DEEP}y`, 'deep/x/x/x/x/y', 'deep/x/x/x/y',
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
      [
        ...'.gitignore'.split(' '),
        LONG,
        'aaaaaaab',
        ...'app.js d.dat'.split(' '),
        `${DEEP}z`,
        'deep/x/x/x/y',
        ...'docs/c.txt foo12.txt keep.log lib.c nested/.gitignore nested/deeper/anchored.txt nested/only-dir nested/plain.txt nested/re.log other/dir/sub/f.txt q/bb/c.txt src/cache/keep.me src/other/build'.split(' '),
        `sub/${LONG}`,
        ...'sub/keep.log sub/root-only.txt trailing x/y/w/z.txt xy.cfg'.split(' '),
      ],
    );
  } finally {
    removeTree(root);
    removeTree(home);
  }
});

test('pattern parsing: comments, escapes, trailing spaces, anchoring, dir-only', () => {
  expect(parseIgnoreLine('# c')).toBeUndefined();
  expect(parseIgnoreLine('   ')).toBeUndefined();
  expect(parseIgnoreLine('\\#x')!.matches('#x')).toBe(true);
  expect(parseIgnoreLine('a ')!.matches('a')).toBe(true);
  expect(parseIgnoreLine('a\\ ')!.matches('a ')).toBe(true);
  expect(parseIgnoreLine('!x')).toMatchObject({ negate: true });
  expect(parseIgnoreLine('d/')).toMatchObject({ dirOnly: true });
  expect(parseIgnoreLine('*.js')!.matches('deep/x.js')).toBe(true);
  expect(parseIgnoreLine('/x.js')!.matches('deep/x.js')).toBe(false);
  expect(parseIgnoreLine('a/*.js')!.matches('a/b/x.js')).toBe(false);
  expect(parseIgnoreLine('a/**/x.js')!.matches('a/b/c/x.js')).toBe(true);
  expect(parseIgnoreLine('a/**')!.matches('a')).toBe(false);
});

test('a rule with many stars in one name is answered at once on a long name, with the verdict git gives', () => {
  const name = 'a'.repeat(300);
  const hostile = parseIgnoreLine(`${'*a'.repeat(8)}*b`)!;
  expect(hostile.backtrackSafe).toBe(false);
  expect(hostile.matches(name)).toBe(false);
  expect(hostile.matches(`dir/${name}b`)).toBe(true);
  const file = new IgnoreFile(['*.log', `${'*a'.repeat(8)}*b`, `!${'*a'.repeat(9)}*b`].join('\n'), 'sub');
  expect(file.verdict(`sub/${name}`, false)).toBeUndefined();
  expect(file.verdict(`sub/x/${'a'.repeat(8)}b`, false)).toBe('ignore');
  expect(file.verdict(`sub/${'a'.repeat(9)}b`, false)).toBe('include');
  expect(file.verdict('sub/x.log', false)).toBe('ignore');
  // the usual shapes stay on V8's fast path
  for (const line of ['*.log', 'node_modules/', '/dist', 'docs/**/*.md', '**/cache/**', 'a/*/b*']) expect([line, parseIgnoreLine(line)!.backtrackSafe]).toEqual([line, true]);
  for (const line of ['*.min.*', '*.{js,ts}', '**/a/**/b', 'a*b*c']) expect([line, parseIgnoreLine(line)!.backtrackSafe]).toEqual([line, false]);
});

const random = seededRandom;

test('random gitignore lines: every rule answers as V8 runs its regex (the linear engine changes no verdict)', () => {
  const rand = random(4242);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const parts = ['a', 'b', '.', '*', '*', '**', '?', '/', '/', '[ab]', '[!a]', '{a,b}', '{a,*}', '\\*', '[[:alpha:]]', 'é', '😀'];
  const names = ['a', 'b', 'ab', 'ba', '.a', 'aab', 'é', '😀', '*'];
  let unsafe = 0;
  for (let round = 0; round < 3000; round++) {
    let line = rand() < 0.2 ? '/' : '';
    const length = 1 + Math.floor(rand() * 6);
    for (let k = 0; k < length; k++) line += pick(parts);
    const rule = parseIgnoreLine(line);
    if (!rule) continue;
    if (!rule.backtrackSafe) unsafe++;
    const native = new RegExp(rule.source, 'u');
    for (let k = 0; k < 10; k++) {
      const path = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(names) + (rand() < 0.5 ? pick(names) : '')).join('/');
      expect([line, path, rule.matches(path)]).toEqual([line, path, native.test(path)]);
    }
  }
  expect(unsafe).toBeGreaterThan(500);
});
