/**
 * Read rules applied to bash: files a command names (operands, globs, `<`, `--x=file`), trees it
 * reads whole, and git's objects. Verdicts only: nothing runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitPaths } from '../../../plugins/permission-rules/command-reads.js';
import { bash, bootRules, outcome, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  writeFileSync(path.join(dirs.root, '.env'), 'K=v\n');
  mkdirSync(path.join(dirs.root, 'src'));
  mkdirSync(path.join(dirs.root, 'secrets'));
});
afterEach(() => dirs.cleanup());

async function judge(command: string, rules: { deny?: string[]; ask?: string[]; allow?: string[] } = { deny: ['Read(./.env)'] }): Promise<string> {
  writeSettings(dirs, 'user', rules);
  const { kernel } = await bootRules(dirs);
  return outcome(bash(kernel, command, 'bypassPermissions'));
}

test.each([
  'cat .env',
  'cat ./src/../.env',
  'cd src && cat ../.env',
  'base64 < .env',
  'cat .e*',
  'cat .[e]nv',
  'cat {.env,x}',
  'grep -r K .',
  'grep -R K',
  'cp -a . /tmp/x',
  'tar -czf /tmp/x.tgz .',
  'zip -r /tmp/x.zip .',
  'find . -type f -exec cat {} +',
  'rg --hidden K',
  'git show HEAD:.env',
  'git show HEAD:./.env',
  'git cat-file -p :.env',
  'git cat-file -p :0:.env',
  'git log -p -- .env',
  'git diff HEAD -- ":(top).env"',
  'git diff HEAD -- :/.env',
  'cd src && git show HEAD:.env',
  'git -C src show HEAD:../.env',
  'echo x > .env',
  'cat $PWD/.env',
  'cat ~+/.env',
  'cd "$X" && cat .env', // where it runs is unknown: it may be the project root
])('%s is denied by Read(./.env)', async (command) => {
  expect(await judge(command)).toBe('deny');
});

test.each([
  'git show',
  'git show HEAD',
  'git log -p',
  'git diff',
  'git diff HEAD~1',
  'git grep K',
  'git blame src/a.ts',
  'git archive HEAD',
  'git format-patch -1 --stdout',
  'git stash show -p',
  'git cat-file --batch',
  'git clone . /tmp/copy',
  'GIT_DIR=/x/.git git show',
  'D=.; cat "$D"/.env',
])('%s may print the denied file: it asks', async (command) => {
  expect(await judge(command)).toBe('ask');
});

test.each([
  'git status',
  'git log --oneline',
  'git log --stat',
  'git diff --stat',
  'git show --stat HEAD',
  'git branch -a',
  'git add src && git commit -m x',
  'cat src/a.ts',
  'cat *',
  'grep -r K src',
  'rg K',
  'ls -la .env',
  'echo .env >> .gitignore',
  'cp -r src /tmp/x',
])('%s is not a read of .env: no verdict from the rule', async (command) => {
  expect(await judge(command)).toBe('mode:allow');
});

test('an ask rule asks, a glob rule covers trees holding its files, an unrelated repository is not asked about', async () => {
  expect(await judge('cat .env', { ask: ['Read(./.env)'] })).toBe('ask');
  expect(await judge('cat secrets/key.pem', { deny: ['Read(./secrets/**)'] })).toBe('deny');
  expect(await judge('grep -r K .', { deny: ['Read(./secrets/**)'] })).toBe('deny');
  expect(await judge('grep -r K src', { deny: ['Read(./secrets/**)'] })).toBe('mode:allow');
  expect(await judge('git -C /tmp/other-repo show HEAD', { deny: ['Read(./.env)'] })).toBe('mode:allow');
  expect(await judge('cat .env', { deny: ['Bash(rm:*)'] })).toBe('mode:allow');
});

test('git path arguments', () => {
  expect(gitPaths('HEAD:.env')).toEqual([{ path: '.env', from: 'top' }]);
  expect(gitPaths('HEAD~2:./x')).toEqual([{ path: './x', from: 'cwd' }]);
  expect(gitPaths(':.env')).toEqual([{ path: '.env', from: 'top' }]);
  expect(gitPaths(':2:a/b')).toEqual([{ path: 'a/b', from: 'top' }]);
  expect(gitPaths(':(top,glob)*.env')).toEqual([{ path: '*.env', from: 'top' }]);
  expect(gitPaths(':(icase).ENV')).toEqual([{ path: '.ENV', from: 'cwd' }]);
  expect(gitPaths(':!x')).toEqual([]);
  expect(gitPaths('src/a.ts')).toEqual([{ path: 'src/a.ts', from: 'cwd' }]);
});
