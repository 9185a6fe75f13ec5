/**
 * Commands hidden in constructs bash evaluates as code (arithmetic, `${x@P}`) are never allowed
 * by a narrow allow rule, and deny rules see them; allow rules ignore a segment's redirections
 * but only allow writes to harmless places or inside the project. Verdicts only: nothing runs.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { bash, bootRules, outcome, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const HIDDEN = [
  "echo hi; [[ 'a[$(touch /tmp/x)]' -eq 0 ]]",
  "echo hi && [[ -v 'a[$(touch /tmp/x)]' ]]",
  "for x in 'a[$(touch /tmp/x)]'; do echo $((x)); done",
  "for x in '$(touch /tmp/x)'; do echo ${x@P}; done",
  "x='a[$(touch /tmp/x)]'; echo ${!x}",
];

describe('opaque commands (arithmetic and prompt evaluation)', () => {
  test.each(HIDDEN)('%s is not allowed by Bash(echo *), and Bash(touch *) denies it, in every mode', async (command) => {
    writeSettings(dirs, 'project', { allow: ['Bash(echo *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, command))).toBe('mode:ask');

    writeSettings(dirs, 'project', { allow: ['Bash(echo *)'], deny: ['Bash(touch *)'] });
    const denying = (await bootRules(dirs)).kernel;
    expect(await outcome(bash(denying, command))).toBe('deny');
    expect(await outcome(bash(denying, command, 'bypassPermissions'))).toBe('deny');
  });

  test('an ask rule still asks for an opaque command', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(echo *)'], ask: ['Bash(touch *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, "echo hi; [[ 'a[$(touch /tmp/x)]' -eq 0 ]]", 'bypassPermissions'))).toBe('ask');
  });

  test('arithmetic over a variable is still not allowed by a rule (the mode decides)', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(echo *)', 'Bash(let *)', 'Bash'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'echo $((n + 2))'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'let x=1'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'for ((i = 0; i < n; i++)); do echo $i; done'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'echo $((n + 2))', 'bypassPermissions'))).toBe('mode:allow');
  });

  test('arithmetic over constants and a numeric loop counter evaluates no string: allowable', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(echo *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'echo $((1 + 2 * 0x10))'))).toBe('allow');
    expect(await outcome(bash(kernel, 'for ((i = 0; i < 3; i++)); do echo $i; done'))).toBe('allow');
    expect(await outcome(bash(kernel, "for ((i = 0; i < 3; i++)); do i='a[$(touch /tmp/x)]'; echo $i; done"))).toBe('mode:ask');
  });

  test.each([
    ['[[ -f x ]] && echo yes', ['Bash(echo *)']],
    ['[[ $a == b ]] || echo no', ['Bash(echo *)']],
    ['for f in *.ts; do echo $f; done', ['Bash(echo *)']],
    ['[ $# -eq 0 ] && echo none', ['Bash([ *)', 'Bash(echo *)']],
    ["echo '$(touch /tmp/x)'", ['Bash(echo *)']],
  ])('%s stays allowable', async (command, allow) => {
    writeSettings(dirs, 'project', { allow });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, command))).toBe('allow');
  });
});

describe('allow rules and redirections', () => {
  test.each([
    'npm test > ~/.bashrc',
    'npm test >> /etc/cron.d/x',
    'npm test &> /tmp/x',
    'npm test &>> /tmp/x',
    'npm test >| /tmp/x',
    'npm test <> /tmp/x',
    'npm test >& /tmp/x',
    'npm test 2> ../outside.log',
    'npm test > $HOME/x',
    'npm test > >(tee /tmp/x)',
    'npm test > out*.log',
    'npm test 2>&1 > /tmp/x',
    '{ npm test; } > /tmp/x',
    'git status && npm test > /tmp/x',
  ])('Bash(npm test:*) does not allow %s', async (command) => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test:*)', 'Bash(git status)'] });
    const { kernel } = await bootRules(dirs);
    // A dotfile of the home is a protected path too: that layer asks first, in every mode.
    expect(await outcome(bash(kernel, command))).toBe(command.includes('~/.bashrc') ? 'ask' : 'mode:ask');
  });

  test('a write whose target is computed at run time asks in every mode (it may be a protected file)', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test:*)'] });
    const { kernel } = await bootRules(dirs);
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      const verdict = await bash(kernel, 'npm test > "$OUT"', mode);
      expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
      expect(verdict!.reason).toContain('computed at run time');
    }
  });

  test('Bash(echo *) does not allow writing outside the project', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(echo *)', 'Bash(cd *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'echo hi > /etc/cron.d/x'))).toBe('mode:ask');
    // The home's dotfiles: protected paths, which ask in every mode.
    expect(await outcome(bash(kernel, 'echo hi > ~/.bashrc'))).toBe('ask');
    expect(await outcome(bash(kernel, `echo hi > ${path.join(dirs.home, '.profile')}`))).toBe('ask');
    // After a cd, a relative target may be anywhere.
    expect(await outcome(bash(kernel, 'cd /etc && echo hi > passwd'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'echo hi > /etc/cron.d/x', 'bypassPermissions'))).toBe('mode:allow');
  });

  test('a symlink inside the project that leads outside is outside', async () => {
    mkdirSync(path.join(dirs.root, 'build'));
    symlinkSync(dirs.home, path.join(dirs.root, 'build', 'out'));
    writeSettings(dirs, 'project', { allow: ['Bash(echo *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'echo hi > build/out/.bashrc'))).toBe('ask'); // a dotfile of the home: protected
    expect(await outcome(bash(kernel, 'echo hi > build/log.txt'))).toBe('allow');
  });

  test.each([
    'npm test 2>&1',
    'npm test > /dev/null',
    'npm test 2> /dev/null',
    'npm test &> /dev/null',
    'npm test > /dev/stderr',
    'npm test 1>&2',
    'npm test > out.log 2>&1',
    'npm test >> build/test.log',
    'npm test < input.txt',
    'FOO=1 npm test 2>&1',
    'git status && npm test 2>&1 | npm test',
  ])('Bash(npm test:*) allows %s', async (command) => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test:*)', 'Bash(git status)', 'Bash(FOO=1 npm test:*)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, command))).toBe('allow');
  });

  test('an absolute path inside the project is inside', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(echo *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, `echo hi > ${path.join(dirs.root, 'notes.txt')}`))).toBe('allow');
  });

  test('deny rules still see the redirections', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test:*)'], deny: ['Bash(*> out.log*)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'npm test > out.log'))).toBe('deny');
    expect(await outcome(bash(kernel, 'npm test 2>&1'))).toBe('allow');
  });
});
