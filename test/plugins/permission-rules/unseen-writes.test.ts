/**
 * Writes to protected paths by programs the write list did not know (`git log --output=`,
 * `sort -o`, `sed 'w FILE'`, `unzip -d`, `touch`…): without the OS sandbox, a protected path named
 * anywhere on the command line of a program not known to only read its operands asks, in every
 * mode, whatever the Bash allow rules; the writers known by name say which file they write.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../../types/plugin.js';
import type { CommandSandbox, SandboxStatus } from '../../../types/sandbox.js';
import { TOKENS } from '../../../types/tokens.js';
import { bash, bootRules, decide, tempDirs, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  mkdirSync(path.join(dirs.root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(dirs.root, '.git', 'config'), '[core]\n');
  mkdirSync(path.join(dirs.root, '.mewcode'), { recursive: true });
  mkdirSync(path.join(dirs.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(dirs.root, 'hook'), '#!/bin/sh\n');
});
afterEach(() => dirs.cleanup());

const PROTECTED_LAYER = 'permission-rules:protected';

/** [command, the path (relative to the project, or ~/…) the reason must name]. */
const PRECISE: [string, string][] = [
  ['git log -1 --format=%H --output=.mewcode/settings.local.json', '.mewcode/settings.local.json'],
  ['git log -1 --output .mewcode/settings.local.json', '.mewcode/settings.local.json'],
  ['git diff --outp=.git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['sort -o .git/hooks/pre-commit hook', '.git/hooks/pre-commit'],
  ['sort -o.git/hooks/pre-commit hook', '.git/hooks/pre-commit'],
  ['sort --output=.git/hooks/pre-commit hook', '.git/hooks/pre-commit'],
  ['uniq hook .git/hooks/post-commit', '.git/hooks/post-commit'],
  ['script -q -c true .mewcode/x', '.mewcode/x'],
  ['tar xf h.tar -C .git/hooks', '.git/hooks'],
  ['tar -x -f h.tar --directory=.git/hooks', '.git/hooks'],
  ['tar -c -g .git/hooks/pre-commit -f a.tar src', '.git/hooks/pre-commit'],
  ['tar --listed-incremental=.mewcode/snap -cf a.tar src', '.mewcode/snap'],
  ['split -n 1 hook .git/hooks/pre-push', '.git/hooks/pre-push'],
  ['csplit -s -f .git/hooks/pre-rebase hook 2', '.git/hooks/pre-rebase'],
  ['git format-patch -1 -o .git/hooks', '.git/hooks'],
  ['xxd hook .mewcode/x', '.mewcode/x'],
  ['xxd -r dump .git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['git archive -o .mewcode/x HEAD', '.mewcode/x'],
  ['git archive --output=.mewcode/x HEAD', '.mewcode/x'],
  ['touch .mewcode/x', '.mewcode/x'],
  ['mkdir .mewcode/hooks.w12', '.mewcode/hooks.w12'],
  ['mkdir -p .claude/commands', '.claude/commands'],
  ['patch -o .mewcode/x hook /dev/null', '.mewcode/x'],
  ['git checkout-index --prefix=.git/hooks/ post-merge', '.git/hooks'],
  ['git checkout-index -a --prefix=.git/hoo', '.git'],
  ['unzip -q z.zip -d .git/hooks/u', '.git/hooks/u'],
  ['unzip -q z.zip -d .git', '.git'],
  ['git init -q --template=tpl .', '.git/hooks'],
  ['git -c init.templateDir=tpl3 init -q', '.git/hooks'],
  ['GIT_TEMPLATE_DIR=tpl2 git init -q', '.git/hooks'],
  ["sed -n '1w .mewcode/settings.local.json' a.txt", '.mewcode/settings.local.json'],
  ["sed -n 's/hello/SEDW/w .git/hooks/pre-commit' a.txt", '.git/hooks/pre-commit'],
  ["sed -n -e p -e '1W .git/config' a.txt", '.git/config'],
  ["sed -n '/x/{\nw .git/hooks/pre-push\n}' a.txt", '.git/hooks/pre-push'],
  ["sed -n '1w '\"$HOME\"'/.bashrc' a.txt", '~/.bashrc'],
  ['sed -f edit.sed a.txt', '.git/hooks/pre-commit'],
];

/** Programs the write list does not know: the protected path on their line is a possible target. */
const UNKNOWN_PROGRAMS: [string, string][] = [
  ['git --work-tree=.git/hooks checkout HEAD -- hook', '.git/hooks'],
  ['frobnicate --out=.mewcode/settings.json', '.mewcode/settings.json'],
  ['frobnicate -o .claude/settings.json', '.claude/settings.json'],
  ['frobnicate -O.claude/settings.json', '.claude/settings.json'],
  ['frobnicate .mcp.json', '.mcp.json'],
  ['tar xf a.tar .git/hooks/pre-commit', '.git/hooks/pre-commit'],
  ['frobnicate -C .git', '.git'],
  ['frobnicate --git-dir=.git', '.git'],
  ['make DESTDIR=.git/hooks install', '.git/hooks'],
  ['python3 tool.py ~/.mewcode/settings.json', '~/.mewcode/settings.json'],
  ['node gen.js --target "$HOME/.bashrc"', '~/.bashrc'],
  ['git grep -e x -- .git/config && emacs --batch .git/config', '.git/config'],
];

const named = (relative: string): string => (relative.startsWith('~/') ? path.join(dirs.home, relative.slice(2)) : path.join(dirs.root, relative));

describe('without the OS sandbox', () => {
  beforeEach(() => writeFileSync(path.join(dirs.root, 'edit.sed'), '1p\n/x/ w .git/hooks/pre-commit\n'));

  test.each([...PRECISE, ...UNKNOWN_PROGRAMS])('%j asks in bypassPermissions whatever the Bash allow rules, naming %s', async (command, target) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] } });
    const verdict = await bash(kernel, command, 'bypassPermissions');
    expect(verdict).toMatchObject({ decision: 'ask', layer: PROTECTED_LAYER });
    expect(verdict?.reason).toContain(named(target));
  });

  test('a sed script file that cannot be read asks: its w commands cannot be seen', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] } });
    const verdict = await bash(kernel, 'sed -n -f missing.sed a.txt', 'bypassPermissions');
    expect(verdict).toMatchObject({ decision: 'ask', layer: PROTECTED_LAYER });
    expect(verdict?.reason).toContain('missing.sed');
  });

  test('a sed script that is a FIFO or a link to /dev/zero asks at once instead of holding the check', async () => {
    execFileSync('mkfifo', [path.join(dirs.root, 'pipe.sed')]);
    symlinkSync('/dev/zero', path.join(dirs.root, 'zero.sed'));
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] } });
    for (const script of ['pipe.sed', 'zero.sed']) {
      const verdict = await bash(kernel, `sed -n -f ${script} a.txt`, 'bypassPermissions');
      expect(verdict).toMatchObject({ decision: 'ask', layer: PROTECTED_LAYER });
      expect(verdict?.reason).toContain(script);
    }
  }, 10_000);

  test.each([
    'cat .git/hooks/pre-commit',
    'head -n 5 .mewcode/settings.json',
    'tail -f .mewcode/audit.jsonl',
    'grep -r fsmonitor .git/config .claude',
    'rg hooksPath .git/config',
    'wc -l .mewcode/settings.json',
    'ls -la .git/hooks',
    'stat .mcp.json',
    'diff .claude/settings.json other.json',
    'git status -- .mewcode',
    'git log --oneline -- .claude/settings.json',
    'git diff HEAD -- .mcp.json',
    'git show HEAD:.mewcode/settings.json',
    "sed -n 's/a/b/p' .git/config",
    'sed -n 1p .mewcode/settings.json',
    'sed -n -f edit-ok.sed .git/config',
    'sort .mewcode/settings.json',
    'uniq .mewcode/settings.json',
    'xxd .git/hooks/pre-commit',
    'npm test',
    'tar -cf /tmp/backup.tar .git/hooks ~/.ssh',
    'tar -tf a.tar .mewcode/settings.json',
    'git log -1 --format=%H --output=out.txt',
    'sort -o sorted.txt .mewcode/settings.json',
  ])('%j does not ask: it only reads the protected path', async (command) => {
    writeFileSync(path.join(dirs.root, 'edit-ok.sed'), 's/w x/y/\n1p\n');
    const { kernel } = await bootRules(dirs);
    expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
  });

  test("an allow rule `Bash(git log:*)` in default mode does not let git log rewrite the user's settings", async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash(git log:*)'] } });
    const command = `git log -1 '--format=format:{"permissions":{"allow":["Bash"]}}' --output="$HOME/.mewcode/settings.json"`;
    const verdict = await bash(kernel, command, 'default');
    expect(verdict).toMatchObject({ decision: 'ask', layer: PROTECTED_LAYER });
    expect(verdict?.reason).toContain(path.join(dirs.home, '.mewcode', 'settings.json'));
    expect(await bash(kernel, 'git log -1 --oneline', 'default')).toMatchObject({ decision: 'allow' });
  });

  test('an allow rule naming exactly that file passes it', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash(git log:*)', 'Edit(~/.mewcode/settings.json)'] } });
    expect(await bash(kernel, 'git log -1 --output="$HOME/.mewcode/settings.json"', 'default')).toMatchObject({ decision: 'allow' });
  });

  test('the workdir is where relative names start', async () => {
    mkdirSync(path.join(dirs.root, 'sub'));
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] } });
    expect(await decide(kernel, 'bash', { command: 'touch ../.mewcode/x', workdir: 'sub' }, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: PROTECTED_LAYER });
    expect(await decide(kernel, 'bash', { command: 'frobnicate ../.mcp.json', workdir: 'sub' }, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: PROTECTED_LAYER });
  });
});

describe('under the OS sandbox (it keeps the protected paths read-only)', () => {
  const sandbox = definePlugin({
    name: 'test-sandbox',
    bindings: new ContainerModule(({ bind }) => {
      const status = { active: true } as SandboxStatus;
      bind(TOKENS.CommandSandbox).toConstantValue({ status: () => status, probe: async () => status } as unknown as CommandSandbox);
    }),
  });

  test('a program merely naming a protected path is left to the sandbox', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] }, plugins: [sandbox] });
    expect(await bash(kernel, 'frobnicate .mcp.json', 'default')).toMatchObject({ decision: 'allow' });
  });

  test('a known writer of a protected path still asks, as a redirection does', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] }, plugins: [sandbox] });
    expect(await bash(kernel, 'sort -o .git/hooks/pre-commit hook', 'default')).toMatchObject({ decision: 'ask', layer: PROTECTED_LAYER });
  });
});
