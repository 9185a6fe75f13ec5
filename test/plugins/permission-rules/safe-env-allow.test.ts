/**
 * Allow rules look past leading assignments of Claude Code's safe variables (`NODE_ENV=test npm
 * run test` is allowed by `Bash(npm run test:*)`), only with plain values; any other assignment
 * (PATH, NODE_OPTIONS, LD_PRELOAD, a quoted or expanded value) still keeps the allow rule from
 * matching, and deny rules still see the whole command.
 */
import { bash, bootRules, outcome, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

test('leading safe assignments are stripped before allow rules match', async () => {
  writeSettings(dirs, 'user', { allow: ['Bash(npm run test:*)', 'Bash(go build:*)', 'Bash(ls:*)'] });
  const { kernel } = await bootRules(dirs);
  for (const command of [
    'NODE_ENV=test npm run test',
    'NODE_ENV=production npm run test -- --ci',
    'GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build ./...',
    'LANG=C LC_ALL=C ls -la',
    'RUST_BACKTRACE=1 NO_COLOR=1 npm run test',
    'TZ=UTC FORCE_COLOR=0 npm run test',
  ]) {
    expect([command, await outcome(bash(kernel, command))]).toEqual([command, 'allow']);
  }
});

test('other assignments, or values a shell would expand, are not stripped; deny rules still see the whole command', async () => {
  writeSettings(dirs, 'user', { allow: ['Bash(npm run test:*)'], deny: ['Bash(NODE_ENV=production npm run test:*)'] });
  const { kernel } = await bootRules(dirs);
  for (const command of [
    'PATH=./bin:$PATH npm run test',
    'HOME=/tmp npm run test',
    'LD_PRELOAD=./evil.so npm run test',
    'NODE_ENV=test PYTHONPATH=. npm run test',
    'NODE_ENV=$(whoami) npm run test',
    'NODE_ENV="a b" npm run test',
  ]) {
    // Left to the mode (asks), or refused by MewCode's own checks (LD_PRELOAD): never allowed by the rule.
    expect([command, await outcome(bash(kernel, command))]).toEqual([command, expect.stringMatching(/^(?:mode:ask|deny)$/)]);
  }
  expect(await outcome(bash(kernel, 'NODE_ENV=production npm run test'))).toBe('deny');
});
