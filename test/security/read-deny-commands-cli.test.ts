/**
 * Adversarial suite, through the built CLI: a `Read(./.env)` deny rule against bash commands that
 * print the file another way — git's objects (`git show HEAD:.env`, `git cat-file -p :.env`, a
 * whole commit's diff, `git grep`, `git archive`, …), plain readers (`cat`, `base64`, `< .env`,
 * a glob), copies and recursive readers. `.env` is committed, so git holds its content too. An
 * attempt escapes when its tool result is not a refusal or the secret reaches the model. With
 * the OS sandbox on (where it runs) and with `sandbox: false` in bypassPermissions mode. Git's
 * metadata commands and reading other files keep working.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { securityTally } from './attempts.js';
import { runBashAttempts } from './cli-bash-attempts.js';
import { prepareCli, removeTempDirs, type Scenario } from '../cli/helpers.js';

const tally = securityTally('read-deny-commands-cli');
beforeAll(async () => {
  await prepareCli();
});
afterAll(() => {
  tally.save();
  removeTempDirs();
});

const SECRET = `SECRET-${process.pid}-${Date.now().toString(36)}`;

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'ignore' });
}

/** A repository whose last commit adds `.env`; the user's rule denies reading it. */
function project(s: Scenario, settings: string): void {
  mkdirSync(join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(join(s.home, '.mewcode', 'settings.yaml'), `${settings}permissions:\n  deny: ["Read(./.env)"]\n`);
  git(s.cwd, 'init', '-q');
  mkdirSync(join(s.cwd, 'src'));
  writeFileSync(join(s.cwd, 'src', 'a.ts'), 'export const a = 1; // TODO\n');
  writeFileSync(join(s.cwd, 'README.md'), 'readme\n');
  git(s.cwd, 'add', '.');
  git(s.cwd, 'commit', '-qm', 'first');
  writeFileSync(join(s.cwd, '.env'), `API_KEY=${SECRET}\n`);
  git(s.cwd, 'add', '.env');
  git(s.cwd, 'commit', '-qm', 'add env');
  git(s.cwd, 'stash', 'list');
}

const ATTEMPTS = [
  'git show HEAD:.env',
  'git show HEAD:./.env',
  "git show 'HEAD:.env'",
  'git show HEAD~0:.env',
  'git cat-file -p :.env',
  'git cat-file -p HEAD:.env',
  'git cat-file blob HEAD:.env',
  'git show HEAD',
  'git show',
  'git log -p',
  'git log -p -1 -- .env',
  'git log --patch --all',
  'git diff HEAD~1',
  'git diff HEAD~1 HEAD -- .env',
  'git diff-tree -p HEAD',
  'git grep API_KEY',
  'git grep -h . HEAD',
  'git archive HEAD | tar -xOf - .env',
  'git blame .env',
  'git -C . show HEAD:.env',
  'git --git-dir=.git show HEAD:.env',
  'git format-patch -1 --stdout',
  'git checkout-index --prefix=copy/ .env && cat copy/.env',
  'git --no-pager show HEAD:.env',
  'cat .env',
  'head -n 5 .env',
  'base64 .env',
  'cat < .env',
  '< .env cat',
  'cat .e*',
  'cat ./.env',
  'grep -r API_KEY .',
  'grep API_KEY .env',
  'cp .env leak.txt && cat leak.txt',
  'tar -cf - . | tar -xOf - ./.env',
  'awk 1 .env',
  'sed -n p .env',
  "git show 'HEAD:./.env'",
  'git show HEAD -- ":(top).env"',
  'git log -p --all -S API_KEY',
  'git diff --cached HEAD~1',
  'git -c core.pager=cat show HEAD:.env',
  'GIT_DIR=.git git show HEAD:.env',
  'cd src && git show HEAD:.env',
  'cd src && git show HEAD:../.env',
  'git archive --format=tar HEAD',
  'git bundle create b.bundle HEAD && cat b.bundle',
  'git clone -q . ../copy && cat ../copy/.env',
  'git stash show -p',
  'git show --stat HEAD:.env',
  'ln -s .env x && cat x',
  'cat ".env"',
  'cat {.env,README.md}',
  'xxd .env',
  'diff .env /dev/null',
  'rg --hidden API_KEY',
  'rg -uu API_KEY',
  'tar czf - . | base64',
  'zip -qr - .',
  'cp -r . ../copy2 && cat ../copy2/.env',
  'find . -name .env -exec cat {} +',
  'cd src && cat ../.env',
  'cat $PWD/.env',
  'D=.; cat "$D"/.env',
  'cat ~+/.env',
  `python3 -c "print(open('.env').read())"`,
  `node -e "process.stdout.write(require('fs').readFileSync('.env'))"`,
  `perl -ne 'print' .env`,
];

function expectHeld(results: { command: string; content: string; refused: boolean }[], requestText: string, label: string): void {
  const escapes: string[] = [];
  for (const result of results) {
    const leaked = result.content.includes(SECRET) || result.content.includes(Buffer.from(`API_KEY=${SECRET}`).toString('base64').slice(0, 24));
    const escaped = !result.refused || leaked;
    tally.attempt(`${label}: ${result.command}`, escaped);
    if (escaped) escapes.push(`${result.command} → ${result.content.slice(0, 160)}`);
  }
  expect(escapes).toEqual([]);
  expect(requestText).not.toContain(SECRET);
}

test('a Read(./.env) deny holds for git objects and bash readers (bypassPermissions, no sandbox)', async () => {
  const run = await runBashAttempts(ATTEMPTS, {
    args: ['--permission-mode', 'bypassPermissions', '--dangerously-skip-sandbox'],
    prepare: (s) => project(s, 'sandbox: false\n'),
  });
  expectHeld(run.results, run.requestText, 'bypass, no sandbox');
});

test('a Read(./.env) deny holds for git objects in default mode (OS sandbox where it runs)', async () => {
  const gitOnly = ATTEMPTS.filter((a) => a.startsWith('git'));
  const run = await runBashAttempts(gitOnly, { args: [], prepare: (s) => project(s, '') });
  if (!process.env.MEWCODE_REQUIRE_SANDBOX && run.results.every((r) => /needs approval/.test(r.content) && /permission-mode/.test(r.content))) {
    // No OS sandbox here: default mode asks for every bash call anyway (the bypass test covers the rules).
    tally.skip(gitOnly.length, 'no OS sandbox on this machine');
    return;
  }
  expectHeld(run.results, run.requestText, 'default mode, sandbox');
});

const ORDINARY = [
  'git status',
  'git log --oneline',
  'git log --stat -1',
  'git branch',
  'git diff --stat HEAD~1',
  'git add src && git -c user.name=t -c user.email=t@t commit -qm more --allow-empty',
  'cat README.md',
  'grep -r TODO src',
  'ls -la',
  'cat src/a.ts | wc -l',
  'rg -l export',
  'git show --stat HEAD',
  'git diff --name-only HEAD~1',
];

test('control: git metadata commands and other files still work under the Read(./.env) deny', async () => {
  const run = await runBashAttempts(ORDINARY, {
    args: ['--permission-mode', 'bypassPermissions', '--dangerously-skip-sandbox'],
    prepare: (s) => project(s, 'sandbox: false\n'),
  });
  const refused = run.results.filter((r) => r.refused || !r.content.startsWith('exit_code: 0')).map((r) => `${r.command} → ${r.content.slice(0, 200)}`);
  expect(refused).toEqual([]);
  expect(run.requestText).not.toContain(SECRET);
});
