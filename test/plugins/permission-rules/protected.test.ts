/**
 * Issue 8, point 4: writes to protected paths ask in every mode; only an allow rule naming
 * exactly that file passes. Paths resolve like the sandbox's (symlinks, dangling links followed).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PermissionMode } from '../../../types/permissions.js';
import { bash, bootRules, edit, tempDirs, write, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  mkdirSync(path.join(dirs.root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(dirs.root, '.git', 'config'), '[core]\n');
  mkdirSync(path.join(dirs.root, 'sub'), { recursive: true });
});
afterEach(() => dirs.cleanup());

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions'];
const PROTECTED = [
  '.mewcode/settings.local.yaml',
  '.mewcode/settings.yaml',
  '.mewcode/settings.json',
  '.mewcode/config.yaml',
  '.mewcode/config.local.yml',
  '.mewcode.yaml',
  '.mewcode/hooks.yaml',
  '.mewcode/audit.jsonl',
  '.mewcode/audit.head',
  '.mewcode/audit.lock',
  '.mewcode/audit.head.123.abc.tmp',
  '.mewcode/sessions/20261201-120000-abcd/conversation.jsonl',
  '.mewcode/sessions/20261201-120000-abcd/meta.json',
  '.git/config',
  '.git/config.worktree',
  '.git/hooks/pre-commit',
  '.git/modules/lib/config',
  '.git/modules/vendor/zlib/config',
  '.git/modules/lib/modules/inner/config',
  '.git/modules/lib/hooks/post-checkout',
  '.git/modules/lib/config.worktree',
  '.git/worktrees/feature/config.worktree',
  '.git/worktrees/feature/commondir',
  '.claude/settings.json',
  '.claude/commands/x.md',
  // All of MewCode's project folder: a command's allowed-tools pre-approves its turn, skills and
  // agents are loaded by the next session.
  '.mewcode/commands/review.md',
  '.mewcode/commands/sub/deep.md',
  '.mewcode/skills/x/SKILL.md',
  '.mewcode/agents/helper.md',
  '.mewcode/hooks/run.sh',
  '.mewcode/tool-output/x.txt',
  '.mewcode/audit.jsonl.bak',
  'packages/web/.mewcode/commands/x.md',
  'packages/web/.mewcode.yaml',
  '.mcp.json',
  // Other spellings of the same files on a filesystem that ignores case (macOS, WSL's /mnt/c, CIFS, vfat, ext4 casefold).
  '.Git/CONFIG',
  '.GIT/hooks/pre-commit',
  '.MewCode/Settings.yaml',
  '.Claude/settings.json',
  '.VSCode/tasks.json',
  'src/lib/.GIT/Config',
  // At any depth (a monorepo's package opened on its own), and the dev container's root file.
  '.devcontainer.json',
  'packages/app/.vscode/tasks.json',
  'packages/app/.devcontainer/devcontainer.json',
  'packages/app/.devcontainer.json',
  'packages/web/.claude/settings.json',
  'packages/web/.mcp.json',
  '.lfsconfig',
];

describe.each(MODES)('in %s mode', (mode) => {
  test.each(PROTECTED)('write_file and edit_file of %s ask', async (file) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)', 'Edit(.mewcode/)'] } });
    for (const verdict of [await write(kernel, file, mode), await edit(kernel, file, mode), await edit(kernel, path.join(dirs.root, file), mode)]) {
      expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    }
  });
});

test('home files are protected too', async () => {
  const { kernel } = await bootRules(dirs);
  for (const file of ['~/.mewcode/settings.yaml', '~/.mewcode/config.yaml', '~/.mewcode/trust.json', '~/.gitconfig']) {
    expect(await write(kernel, file, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  }
});

test('ordinary files are not protected', async () => {
  const { kernel } = await bootRules(dirs);
  // (Nothing inside a git directory is ordinary for the file tools: git-directories.test.ts.)
  for (const file of ['src/a.ts', '.gitignore', 'claude.md', 'mewcode.md', 'docs/mewcode/x.md', 'settings.yaml', '.mewcodex/a.md']) {
    expect(await write(kernel, file, 'bypassPermissions')).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
  }
});

test('the reason names the file and the exact rule that passes it; that rule passes it', async () => {
  const first = await bootRules(dirs);
  const verdict = await edit(first.kernel, '.mewcode/settings.local.yaml', 'acceptEdits');
  expect(verdict!.reason).toContain(path.join(dirs.root, '.mewcode/settings.local.yaml'));
  expect(verdict!.reason).toContain('Edit(.mewcode/settings.local.yaml)');
  // In a project file (even of a trusted project) the rule does not pass it: the project cannot unlock its own protected files…
  writeSettings(dirs, 'local', { allow: ['Edit(.mewcode/settings.local.yaml)'] });
  writeSettings(dirs, 'project', { allow: ['Edit(.mewcode/settings.local.yaml)'] });
  const projectRule = await bootRules(dirs);
  expect(await edit(projectRule.kernel, '.mewcode/settings.local.yaml', 'acceptEdits')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  // …the user's own rule does, for that file only.
  writeSettings(dirs, 'user', { allow: ['Edit(.mewcode/settings.local.yaml)'] });
  const second = await bootRules(dirs);
  expect(await edit(second.kernel, '.mewcode/settings.local.yaml', 'acceptEdits')).toMatchObject({ decision: 'allow' });
  expect(await edit(second.kernel, '.mewcode/settings.yaml', 'acceptEdits')).toMatchObject({ decision: 'ask' });
});

test('folder and wildcard allow rules do not pass a protected path', async () => {
  for (const rule of ['Edit(.mewcode/)', 'Edit(.mewcode/**)', 'Edit(.mewcode/settings*.yaml)', 'Edit(**)', 'Edit', 'Write(*)', 'Edit(.git/**)']) {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: [rule] } });
    expect(await edit(kernel, '.mewcode/settings.local.yaml', 'bypassPermissions')).toMatchObject({ decision: 'ask' });
    expect(await edit(kernel, '.git/config', 'bypassPermissions')).toMatchObject({ decision: 'ask' });
  }
});

test('a deny rule still denies a protected path', async () => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Edit(.git/**)'] } });
  expect(await edit(kernel, '.git/config', 'bypassPermissions')).toMatchObject({ decision: 'deny' });
});

test('links inside the project to protected files are protected, dangling ones included', async () => {
  symlinkSync(path.join(dirs.root, '.git', 'config'), path.join(dirs.root, 'innocent.txt'));
  symlinkSync(path.join(dirs.root, '.mewcode', 'settings.local.yaml'), path.join(dirs.root, 'dangling.txt')); // .mewcode does not exist yet
  symlinkSync(path.join(dirs.root, '.git'), path.join(dirs.root, 'gitdir'));
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(*.txt)', 'Edit(gitdir/**)'] } });
  expect(await edit(kernel, 'innocent.txt', 'bypassPermissions')).toMatchObject({ decision: 'ask' });
  expect(await write(kernel, 'dangling.txt', 'acceptEdits')).toMatchObject({ decision: 'ask' });
  expect(await write(kernel, 'gitdir/hooks/post-checkout', 'acceptEdits')).toMatchObject({ decision: 'ask' });
});

describe('bash writes', () => {
  test.each([
    'echo "permissions: {default_mode: bypassPermissions}" > .mewcode/settings.local.yaml',
    'echo x >> .git/config',
    'cd sub && echo x > ../.mcp.json',
    'cd .git && echo x > config',
    'cd .git/hooks && echo x > pre-commit',
    'printf x | tee .claude/settings.json',
    'echo x > .mewcode/tool-output/x',
    'cat evil.md > .mewcode/commands/review.md',
    'cp /tmp/evil .git/hooks/pre-commit',
    'cp evil.yaml .mewcode/settings.local.yaml',
    'mv evil .mcp.json',
    'cp -r evil/ .claude',
    'mv hooks-dir .git/hooks',
    'install -m 755 x .git/hooks/post-checkout',
    'ln -sf /tmp/evil .git/hooks/pre-push',
    "sed -i 's/a/b/' .git/config",
    'git config core.fsmonitor "touch /tmp/pwned"',
    'git config --add core.pager less',
    'git -C . config core.hooksPath /tmp/h',
    'cd sub && git config core.fsmonitor x',
    'rm .mewcode/audit.jsonl',
    'rm -rf .mewcode',
    'rm -rf .git/hooks',
    'truncate -s 0 .mewcode/audit.jsonl',
    'dd if=/dev/zero of=.mewcode/audit.jsonl',
    'curl -o .mcp.json http://x',
    'echo "{}" > .mewcode/audit.head',
    'rm -f .mewcode/audit.head',
    'echo 1 > .mewcode/audit.lock',
    'echo "[core] fsmonitor = x" >> .git/modules/lib/config',
    'cp evil .git/modules/vendor/zlib/hooks/post-checkout',
    'mv evil-gitdir .git/modules/lib',
    'rm -rf .git/modules',
    'echo /tmp/evil > .git/worktrees/feature/commondir',
    'cd .git/modules/lib && echo x > config',
    'echo x > ~/.mewcode/settings.yaml',
    'echo x > $HOME/.mewcode/trust.json',
    'echo x > "$OUT"',
    'cd "$D" && echo x > config',
    "python3 -c \"open('.mewcode/settings.local.yaml', 'w').write('x')\"",
    'echo x > .mewcode/settings*.yaml',
  ])('%j asks even in bypassPermissions, whatever the allow rules', async (command) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] } });
    expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  });

  test.each(['echo x > out.txt', 'git config --get user.name', 'git config -l', 'git status', 'cat .git/config', 'cp a b', 'mv a sub/', 'rm -rf build', 'sed -i s/a/b/ src/x.ts', 'tee log.txt'])(
    '%j is not a protected write',
    async (command) => {
      const { kernel } = await bootRules(dirs);
      expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
    },
  );

  test('an exact Edit rule passes a bash write to that file', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(.git/config)'] } });
    expect(await bash(kernel, 'git config core.editor vim', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  });

  test('the bash workdir is where relative targets start', async () => {
    const { kernel } = await bootRules(dirs);
    const { decide } = await import('./helpers.js');
    expect(await decide(kernel, 'bash', { command: 'echo x > ../.mewcode.yaml', workdir: 'sub' }, 'bypassPermissions')).toMatchObject({ decision: 'ask' });
    // `.git/modules/lib/config` is protected at the root only: from `sub` it is an ordinary file.
    expect(await decide(kernel, 'bash', { command: 'echo x > ../.git/modules/lib/config', workdir: 'sub' }, 'bypassPermissions')).toMatchObject({ decision: 'ask' });
    expect(await decide(kernel, 'bash', { command: 'echo x > .git/modules/lib/config', workdir: 'sub' }, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  });
});

test('a write that completes a git directory in another spelling (head, Objects, Refs) asks, as the canonical names do', async () => {
  mkdirSync(path.join(dirs.root, 'src', 'Objects'), { recursive: true });
  mkdirSync(path.join(dirs.root, 'src', 'Refs'), { recursive: true });
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
  expect(await write(kernel, 'src/head', 'acceptEdits')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  expect(await write(kernel, 'src/notes.txt', 'acceptEdits')).toMatchObject({ decision: 'allow' });
});

test("an allow rule for Markdown files does not let the model write a command of the project's", async () => {
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(*.md)', 'Write(*.md)'] } });
  expect(await write(kernel, 'docs/notes.md', 'default')).toMatchObject({ decision: 'allow' });
  for (const file of ['.mewcode/commands/review.md', '.mewcode/agents/a.md', '.mewcode/skills/s/SKILL.md']) {
    expect(await write(kernel, file, 'default')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  }
});

test("what a nested repository's configuration names in its work tree (hooks directory, a filter's program) asks; its other files do not", async () => {
  const vendor = path.join(dirs.root, 'vendor');
  mkdirSync(path.join(vendor, '.git'), { recursive: true });
  writeFileSync(path.join(vendor, '.git', 'config'), '[core]\n\thooksPath = githooks\n[filter "tidy"]\n\tclean = ./tools/clean.sh\n');
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
  for (const file of ['vendor/githooks/pre-commit', 'vendor/tools/clean.sh']) {
    expect(await write(kernel, file, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected', reason: expect.stringContaining('nested repository vendor') });
  }
  expect(await write(kernel, 'vendor/tools/other.sh', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  // Not a repository there: the same names are ordinary files.
  expect(await write(kernel, 'lib/githooks/pre-commit', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});

test("what a nested repository's configuration names outside its own work tree asks too (a workspace of clones sharing their hooks)", async () => {
  // The project is not a repository itself: two clones in it, one with its hooks one folder up,
  // one with a submodule-style `.git` file and a clean filter run from a shared tools folder.
  rmSync(path.join(dirs.root, '.git'), { recursive: true });
  mkdirSync(path.join(dirs.root, 'repo-a', '.git'), { recursive: true });
  writeFileSync(path.join(dirs.root, 'repo-a', '.git', 'config'), '[core]\n\thooksPath = ../shared-hooks\n');
  mkdirSync(path.join(dirs.root, 'store', 'b'), { recursive: true });
  writeFileSync(path.join(dirs.root, 'store', 'b', 'config'), '[filter "tidy"]\n\tclean = ../tools/clean.sh\n');
  mkdirSync(path.join(dirs.root, 'deep', 'er', 'repo-b'), { recursive: true });
  writeFileSync(path.join(dirs.root, 'deep', 'er', 'repo-b', '.git'), 'gitdir: ../../../store/b\n');
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
  expect(await write(kernel, 'shared-hooks/pre-commit', 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected', reason: expect.stringContaining('nested repository repo-a') });
  expect(await write(kernel, 'deep/er/tools/clean.sh', 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected', reason: expect.stringContaining('nested repository deep/er/repo-b') });
  expect(await write(kernel, 'repo-a/src/x.ts', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  expect(await write(kernel, 'tools/clean.sh', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});
