/**
 * Deny and ask rules see the command a runner runs (`prlimit`, `setarch`, `sg`, `capsh`,
 * `logsave`, `start-stop-daemon`, `perf stat`, `pyenv exec`, `npm exec`, `rg --pre`, …), and a
 * program the analysis does not know asks when a later word would start a command a deny or ask
 * rule names (it may run it); programs known to run none of their operands are left alone.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { bash, bootRules, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

test.each([
  'prlimit --nofile=64 rm v0',
  'setarch x86_64 rm v1',
  'linux64 rm v2',
  'choom -n 0 -- rm v3',
  'uclampset -m 0 rm v4',
  "sg root 'rm v5'",
  "capsh -- -c 'rm v6'",
  'logsave /dev/null rm v7',
  'start-stop-daemon -S -o -d . -x /bin/rm -- v8',
  'rg --pre rm -e zzz v0',
  'rg --pre=rm zzz',
  'perf stat -o /dev/null rm v1',
  'pyenv exec rm v3',
  'npm exec --offline -- rm v4',
  'npx rm x',
  'uv run rm x',
  'docker run --rm alpine rm x',
  'kubectl exec pod -- rm x',
  'direnv exec . rm x',
  'dotenv -- rm x',
  'gosu nobody rm x',
])('Bash(rm:*) denies %j', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)'], allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
});

test.each(['frobnicate --nofile=64 rm v0', './tools/run rm -rf x', 'mystery-runner -q git push origin'])(
  'an unknown program with a later word a deny rule names asks: %j',
  async (command) => {
    const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)', 'Bash(git push:*)'], allowedTools: ['Bash'] } });
    const verdict = await bash(kernel, command, 'bypassPermissions');
    expect(verdict).toMatchObject({ decision: 'ask' });
    expect(verdict!.reason).toMatch(/may run/);
  },
);

test('an ask rule asks for an unknown program that may run what it names', async () => {
  writeSettings(dirs, 'local', { ask: ['Bash(git commit:*)'], allow: ['Bash(frobnicate:*)'] });
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, 'frobnicate git commit -m x')).toMatchObject({ decision: 'ask' });
  expect(await bash(kernel, 'frobnicate git status')).toMatchObject({ decision: 'allow' });
});

test.each([
  'grep rm file', 'echo rm', 'printf "%s\\n" rm', 'git commit -m "rm x"', 'man rm', 'which rm', 'type rm', 'apt show rm',
  'cat rm', 'ls -la rm', 'head rm', 'tail -f rm', 'wc rm', 'less rm', 'frobnicate --pre=rm', 'frobnicate "rm x"', 'frobnicate firm',
])('Bash(rm:*) leaves %j alone', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)'], allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});

test.each([
  ['Bash(npx jest:*)', 'npx jest --watch'],
  ['Bash(uv run:*)', 'uv run pytest -q'],
  ['Bash(docker run:*)', 'docker run --rm alpine ls'],
  ['Bash(pyenv exec:*)', 'pyenv exec python -V'],
])('an allow rule for a package or project runner (%s) still allows what it runs: %j', async (rule, command) => {
  writeSettings(dirs, 'local', { allow: [rule] });
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, command)).toMatchObject({ decision: 'allow' });
});

test('an allow rule for rg does not allow the program rg --pre runs', async () => {
  writeSettings(dirs, 'local', { allow: ['Bash(rg:*)'] });
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, 'rg -n x src')).toMatchObject({ decision: 'allow' });
  expect(await bash(kernel, 'rg --pre ./evil x')).not.toMatchObject({ decision: 'allow' });
});

describe('protected paths', () => {
  beforeEach(() => {
    mkdirSync(path.join(dirs.root, '.git', 'hooks'), { recursive: true });
  });

  test.each(['setarch x86_64 cp hook .git/hooks/pre-commit', 'choom -n 0 -- cp hook .claude/settings.json', 'echo x | prlimit --nofile=64 tee -a .git/config'])(
    'a runner writing a protected path asks: %j',
    async (command) => {
      const { kernel } = await bootRules(dirs);
      expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    },
  );

  test('an unknown program whose operands spell a write to a protected path asks; a known one does not', async () => {
    const { kernel } = await bootRules(dirs);
    expect(await bash(kernel, 'frobnicate cp hook .git/hooks/pre-commit', 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    expect(await bash(kernel, 'grep cp hook .git/hooks/pre-commit', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  });
});
