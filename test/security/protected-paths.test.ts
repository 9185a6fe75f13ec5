/**
 * Adversarial suite (issue 8): self-escalation through protected files — MewCode settings and
 * config, hooks, audit log, trust list, `.git/config`, `.git/hooks`, `.claude/`, `.mcp.json` —
 * and their twins in submodule git directories (`.git/modules/**`) and linked worktrees
 * (`.git/worktrees/*`), the audit log's anchor and lock —
 * by write_file, edit_file and bash, in every permission mode, with broad allow rules
 * (folders, wildcards) that must not pass them, and through links inside the project; the rest
 * of a git directory (HEAD, refs/replace, info/exclude) and a folder a committed link of a
 * protected name leads to (`packages/web/.opencode -> ../../shared/opencode`) by the file tools.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { securityTally } from './attempts.js';
import { bootPermissions, canaryDirs, escaped, judge, type Canary } from '../plugins/permission-rules/security-kernel.js';
import type { Kernel } from '../../kernel/kernel.js';
import type { PermissionMode } from '../../types/permissions.js';

const tally = securityTally('protected-paths');
let dirs: Canary;
let kernel: Kernel;
beforeAll(async () => {
  dirs = canaryDirs();
  symlinkSync(path.join(dirs.root, '.git', 'config'), path.join(dirs.root, 'notes.txt'));
  symlinkSync(path.join(dirs.root, '.mewcode', 'settings.local.yaml'), path.join(dirs.root, 'draft.yaml')); // dangling
  symlinkSync(path.join(dirs.root, '.git', 'hooks'), path.join(dirs.root, 'scripts'));
  mkdirSync(path.join(dirs.root, 'packages', 'web'), { recursive: true });
  mkdirSync(path.join(dirs.root, 'shared', 'opencode'), { recursive: true });
  symlinkSync('../../shared/opencode', path.join(dirs.root, 'packages', 'web', '.opencode'));
  kernel = await bootPermissions(dirs, { allowedTools: ['Edit(**)', 'Edit(.mewcode/)', 'Edit(.git/**)', 'Write(*)', 'Bash'] });
});
afterAll(() => {
  tally.save();
  dirs.cleanup();
});

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions'];

const FILES = [
  '.mewcode/settings.local.yaml',
  '.mewcode/settings.yaml',
  '.mewcode/config.yaml',
  '.mewcode/hooks.yaml',
  '.mewcode/audit.jsonl',
  '.mewcode/audit.head',
  '.mewcode/audit.lock',
  '.mewcode.json',
  '.git/config.worktree',
  '.git/modules/lib/config',
  '.git/modules/vendor/zlib/config',
  '.git/modules/lib/modules/inner/config',
  '.git/modules/lib/hooks/post-checkout',
  '.git/worktrees/feature/config.worktree',
  '.git/worktrees/feature/commondir',
  '.git/config',
  '.git/hooks/pre-commit',
  '.claude/settings.local.json',
  '.mcp.json',
  '.vscode/tasks.json',
  '.idea/workspace.xml',
  '.zed/settings.json',
  '.helix/languages.toml',
  '.devcontainer/devcontainer.json',
  '.agents/skills/x/SKILL.md',
  'notes.txt', // → .git/config
  'draft.yaml', // dangling → .mewcode/settings.local.yaml
  'scripts/post-checkout', // → .git/hooks/post-checkout
  'sub/../.git/config',
  '.git/HEAD', // printed raw by a shell prompt: terminal escapes
  '.git/refs/replace/09c344c2062d446d401c49d50512cd761eb45c90', // hides a committed change
  '.git/info/exclude', // hides a new file from git status
  'shared/opencode/plugin/fmt.js', // packages/web/.opencode leads there: opencode imports it
  '~/.mewcode/settings.yaml',
  '~/.mewcode/trust.json',
];

const COMMANDS = [
  "echo 'permissions: {default_mode: bypassPermissions}' > .mewcode/settings.local.yaml",
  'printf "[core]\\n\\tfsmonitor = touch ../pwned\\n" >> .git/config',
  'git config core.fsmonitor "touch ../pwned"',
  'git config core.pager "sh -c id"',
  "sed -i 's/^/x/' .git/config",
  'cp evil .git/hooks/pre-commit',
  'ln -s ../../evil .git/hooks/post-checkout',
  'cd .git/hooks && cat > pre-commit <<EOF\nid\nEOF',
  'cd sub && echo x > ../.mcp.json',
  'echo "{}" | tee .claude/settings.json',
  'mv evil.json .mcp.json',
  'cp -r evil .claude',
  'rm -f .mewcode/audit.jsonl',
  ': > .mewcode/audit.jsonl',
  'echo forged >> .mewcode/audit.jsonl',
  "printf '{}' > .mewcode/audit.head",
  'rm .mewcode/audit.head',
  'echo 1 > .mewcode/audit.lock',
  'printf "[core]\\n\\tfsmonitor = touch ../pwned\\n" >> .git/modules/lib/config',
  'git config --file .git/modules/lib/config core.fsmonitor "touch ../pwned"',
  'git --git-dir=.git/modules/lib config core.fsmonitor "touch ../pwned"',
  'cp evil .git/modules/lib/hooks/pre-commit',
  'cd .git/modules/vendor/zlib/hooks && cat > post-checkout <<EOF\nid\nEOF',
  'mv evil-gitdir .git/modules/lib',
  'rm -rf .git/modules/lib',
  'echo /tmp/evil > .git/worktrees/feature/commondir',
  'tee .git/worktrees/feature/config.worktree < evil',
  'echo x > notes.txt',
  'echo x > draft.yaml',
  'echo x > ~/.mewcode/settings.yaml',
  "python3 -c \"open('.mewcode/settings.local.yaml','w').write('x')\"",
  "node -e \"require('fs').writeFileSync('.git/config','x')\"",
];

test.each(FILES)('write_file and edit_file of %s ask in every mode', async (file) => {
  for (const mode of MODES) {
    for (const tool of ['write_file', 'edit_file']) {
      const verdict = await judge(kernel, tool, { file_path: file }, mode);
      tally.attempt(`${tool} ${file} (${mode})`, escaped(verdict));
      expect(verdict?.decision).not.toBe('allow');
    }
  }
});

test.each(COMMANDS)('bash %j asks in every mode', async (command) => {
  for (const mode of MODES) {
    const verdict = await judge(kernel, 'bash', { command }, mode);
    tally.attempt(`bash ${command} (${mode})`, escaped(verdict));
    expect(verdict?.decision).not.toBe('allow');
  }
});

test('control: ordinary writes are allowed by the same rules', async () => {
  expect(await judge(kernel, 'edit_file', { file_path: 'src/a.ts' }, 'acceptEdits')).toMatchObject({ decision: 'allow' });
  expect(await judge(kernel, 'bash', { command: 'echo x > out.txt' }, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});
