/**
 * Allow rules look through Claude Code's wrappers (`timeout`, `time`, `nice`, `nohup`, `stdbuf`,
 * `command`, `builtin`, a bare `xargs`), reading their options as the programs do; deny and ask
 * rules still see the wrapper's whole text.
 */
import { bash, bootRules, outcome, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

describe('allow rules look through wrappers', () => {
  it('timeout, time, nice, nohup, stdbuf, command and builtin, with their options and operands', async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(echo:*)', 'Bash(npm test:*)'] });
    const { kernel } = await bootRules(dirs);
    for (const command of [
      'timeout 5 echo hi',
      'timeout -s KILL 5 echo hi',
      'timeout --kill-after=3 10 echo hi',
      'timeout 300 npm test',
      'nice -n 5 echo nice',
      'nice -5 echo nice',
      'nice echo x',
      'nohup echo x',
      'stdbuf -oL echo x',
      'stdbuf -o L -e 0 echo x',
      'time echo x',
      'time -p echo x',
      'command echo x',
      'builtin echo x',
      'time timeout 5 nice -n 3 echo x',
      'timeout 5 echo a && nice npm test -- --watch',
    ]) {
      expect([command, await outcome(bash(kernel, command))]).toEqual([command, 'allow']);
    }
  });

  it('the wrapped command must itself be allowed, and a wrapper running nothing is no wrapper call', async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(echo:*)'] });
    const { kernel } = await bootRules(dirs);
    for (const command of [
      'timeout 5 rm -rf x', // the command it runs has no allow rule
      'command -v echo', // prints a path, runs nothing
      'command -V echo',
      'timeout --help',
      'timeout 5', // no command
      'time -o out.txt echo x', // GNU time writes its report to the file
      'nice -n $N echo x', // an unquoted expansion among its own words may move the command
      'timeout --frobnicate 5 echo x', // an option the analysis does not know
      'noglob echo x', // a zsh builtin: in bash, whatever program PATH finds
      'sudo echo x', // not a wrapper allow rules look through
      'env FOO=1 echo x',
    ]) {
      expect([command, await outcome(bash(kernel, command))]).toEqual([command, 'mode:ask']);
    }
  });

  it('xargs only when bare, and its unknown input stays visible to exact rules', async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(ls)', 'Bash(grep:*)', 'Bash(rm tmp.txt)', 'Bash(echo:*)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'ls | xargs grep TODO'))).toBe('allow');
    expect(await outcome(bash(kernel, 'echo a b | xargs echo'))).toBe('allow');
    // `Bash(rm tmp.txt)` names one command; xargs would append the listed names to it.
    // (The protected-path check asks too: what xargs removes is unknown.)
    expect(await outcome(bash(kernel, 'ls | xargs rm tmp.txt'))).not.toBe('allow');
    expect(await outcome(bash(kernel, 'ls | xargs grep'))).toBe('allow');
    writeSettings(dirs, 'user', { allow: ['Bash(ls)', 'Bash(grep x)'] });
    const exact = (await bootRules(dirs)).kernel;
    expect(await outcome(bash(exact, 'ls | xargs grep x'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'ls | xargs -I {} grep x {}'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'ls | xargs -0 grep x'))).toBe('mode:ask');
  });

  it('deny and ask rules still see the wrapper and the wrapped command', async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(git:*)', 'Bash(echo:*)'], ask: ['Bash(git push:*)'], deny: ['Bash(nice:*)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'timeout 60 git push origin main'))).toBe('ask');
    expect(await outcome(bash(kernel, 'nice -n 5 echo x'))).toBe('deny');
    expect(await outcome(bash(kernel, 'timeout 60 git status'))).toBe('allow');
  });

  it("a redirection of the wrapped command is still judged (it is the wrapped command's too)", async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(echo:*)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'timeout 5 echo x > out.txt'))).toBe('allow');
    // Outside the project, and a protected file: the protected-path check asks.
    expect(await bash(kernel, 'timeout 5 echo x > ~/.bashrc')).toMatchObject({ decision: 'ask', reason: expect.stringContaining('protected path') });
    expect(await outcome(bash(kernel, 'timeout 5 echo x > /tmp/elsewhere.txt'))).toBe('mode:ask');
  });
});
