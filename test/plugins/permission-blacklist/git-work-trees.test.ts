/**
 * git commands that destroy a work tree's files (`clean -f`, `reset --hard`, `checkout -f`/`-- .`,
 * `restore`, `stash -u`, `rm`) in a repository outside the project are denied; in the project's
 * own repository they are ordinary. And the blacklist's check for commands it cannot read. Verdicts
 * only: nothing is executed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkCommand, unverifiableCommand } from '../../../plugins/permission-blacklist/check.js';

let base: string;
let root: string;
let home: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-git-trees-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const verdict = (command: string) => checkCommand(command, { projectRoot: root, homeDir: home });

test.each([
  'git -C ~ clean -fdx',
  'git -C ../other clean -f',
  'git --work-tree=/tmp/x --git-dir=/tmp/x/.git clean -fdx',
  'git --git-dir ~/repo/.git --work-tree ~/repo reset --hard',
  'GIT_WORK_TREE=~/repo GIT_DIR=~/repo/.git git clean -fdx',
  'cd ~/repo && git clean -fdx',
  'cd /tmp/y && git reset --hard',
  'git -C "$D" checkout -f main',
  'git -C ~/repo checkout -- .',
  'git -C ~/repo restore .',
  'git -C ~/repo stash -u',
  'git -C ~/repo rm -r src',
])('%s is denied', async (command) => {
  expect(await verdict(command)).toMatchObject({ pattern: expect.stringContaining('git ') });
});

test.each([
  'git clean -fdx',
  'cd sub && git clean -fdx',
  'git -C sub checkout -- .',
  'git reset --hard HEAD~1',
  'git -C ~/repo status',
  'git -C ~/repo clean -n',
  'git -C ../other log',
  'git checkout main',
])('%s is allowed (no verdict)', async (command) => {
  expect(await verdict(command)).toBeUndefined();
});

test.each([
  ["python3 -c 'print(1)'", /python program text/],
  ['a=rm; $a x', /computed at run time/],
  ["sed '1e id' f", /sed/],
  ['echo $((n + 1))', /arithmetic/],
  ['echo (', /does not parse/],
])('%s cannot be read all: %s', async (command, why) => {
  expect(await unverifiableCommand(command)).toMatch(why);
});

test.each(['ls -la', 'git status && npm test', 'echo $((1 + 2))', 'python3 script.py', "sed -i 's/a/b/' f"])('%s is read all', async (command) => {
  expect(await unverifiableCommand(command)).toBeUndefined();
});
