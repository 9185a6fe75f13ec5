/** A10: compound commands are split by the shell parser; every segment must pass. */
import { bash, bootRules, outcome, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

describe('compound commands', () => {
  it('git status && npm test is allowed only when both segments are allowed', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(git status)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'git status && npm test'))).toBe('mode:ask');

    writeSettings(dirs, 'project', { allow: ['Bash(git status)', 'Bash(npm test)'] });
    const both = (await bootRules(dirs)).kernel;
    expect(await outcome(bash(both, 'git status && npm test'))).toBe('allow');
    expect(await outcome(bash(both, 'git status; npm test | npm test'))).toBe('allow');
  });

  it('segments may be allowed by different layers', async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(git status)'] });
    writeSettings(dirs, 'local', { allow: ['Bash(npm test)'] });
    const { kernel } = await bootRules(dirs);
    const verdict = await bash(kernel, 'git status && npm test');
    expect(verdict).toMatchObject({ decision: 'allow', layer: 'permission-rules:local+user' });
  });

  it('a glob allow does not stretch over the other segments', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(safe-cmd *)', 'Bash(echo *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'safe-cmd x && rm -rf src'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'echo $(rm -rf src)'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'safe-cmd x | echo y'))).toBe('allow');
  });

  it('a deny on any segment denies, in whichever layer it is', async () => {
    writeSettings(dirs, 'local', { allow: ['Bash(git status)', 'Bash(npm test)'] });
    writeSettings(dirs, 'project', { deny: ['Bash(rm *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'git status && rm -rf build'))).toBe('deny');
    expect(await outcome(bash(kernel, 'npm test; sh -c "rm -rf x"'))).toBe('deny');
  });

  it('an ask on any segment asks (unless another denies)', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(git *)'], ask: ['Bash(git push *)'], deny: ['Bash(curl *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'git fetch && git push origin'))).toBe('ask');
    expect(await outcome(bash(kernel, 'git push origin && curl x'))).toBe('deny');
  });

  it('an unparseable command is never allowed by a rule; deny rules still apply to its text', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash', 'Bash(echo *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'echo "unterminated'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'echo ok'))).toBe('allow');

    writeSettings(dirs, 'project', { deny: ['Bash(*unterminated*)'] });
    const denying = (await bootRules(dirs)).kernel;
    expect(await outcome(bash(denying, 'echo "unterminated'))).toBe('deny');
  });

  it('a command that defines a shell function is never allowed by a rule', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'f() { ls; }; f'))).toBe('mode:ask');
  });

  it('an exact rule for the whole line allows exactly that line', async () => {
    writeSettings(dirs, 'local', { allow: ['Bash(=git status && npm test)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'git status && npm test'))).toBe('allow');
    expect(await outcome(bash(kernel, 'git status && npm test && rm -rf x'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'npm test'))).toBe('mode:ask');
  });
});

describe('parse errors', () => {
  it('best-effort segments of an unparseable command can still be denied', async () => {
    writeSettings(dirs, 'project', { deny: ['Bash(rm *)'], allow: ['Bash'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'rm -rf src; echo "unterminated'))).toBe('deny');
  });
});
