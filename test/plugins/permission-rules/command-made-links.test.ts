/**
 * Path checks of a command against what the command itself changes or resolves differently:
 * a link made by one segment is not there when the line is checked (so the other segments' write
 * and read targets are unknown), and `/proc/self/cwd/…`, `/dev/fd/N/…` and links there are the
 * command's own directory and descriptors, not MewCode's (never resolved in MewCode's process).
 * Protected paths ask in every mode; an allow rule no longer lets such a write through; Read rules ask.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { PermissionMode } from '../../../types/permissions.js';
import { definePlugin } from '../../../types/plugin.js';
import type { CommandSandbox, SandboxStatus } from '../../../types/sandbox.js';
import { TOKENS } from '../../../types/tokens.js';
import { bash, bootRules, decide, read, tempDirs, write, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  mkdirSync(path.join(dirs.root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(dirs.root, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(dirs.home, '.bashrc'), '# rc\n');
  mkdirSync(path.join(dirs.home, 'sub'));
});
afterEach(() => dirs.cleanup());

const ALLOW = ['Bash(ln:*)', 'Bash(echo:*)', 'Bash(cd:*)', 'Bash(git:*)', 'Bash(tar:*)', 'Bash(cp:*)', 'Bash(mv:*)', 'Bash(cat:*)', 'Bash(mkdir:*)'];

describe.each(['default', 'bypassPermissions'] as PermissionMode[])('in %s mode', (mode) => {
  const protectedAsk = { decision: 'ask', layer: 'permission-rules:protected' };

  test.each([
    (home: string) => `ln -s ${home}/.bashrc rc && echo PWNED >> rc`,
    () => 'ln -s ../home/.bashrc rc && echo PWNED >> rc',
    () => 'ln -sf .git/hooks hk && echo "touch PWN" > hk/pre-commit',
    () => 'ln -s ../.git/config gc; echo "[alias] q = !touch PWN" >> gc',
    () => 'echo PWNED >> rc & ln -s ../home/.bashrc rc',
    () => 'mkdir -p d && cp -rs ../home d/h && echo PWNED >> d/h/.bashrc',
    () => 'mv hooks-link hk && echo x > hk/pre-commit',
    () => 'git checkout evil -- rc && echo PWNED >> rc',
    () => 'tar xf links.tar && echo PWNED >> rc',
    () => 'echo PWNED | (ln -s ../home/.bashrc rc; cat > rc)',
  ])('a write after a link made in the same command asks (%#)', async (command) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW } });
    expect(await bash(kernel, command(dirs.home), mode)).toMatchObject(protectedAsk);
  });

  test.each([
    ['echo "[alias] zz = !touch X" >> /proc/self/cwd/config', '.git'],
    ['cd .git && echo "[alias] zz = !touch X" >> /proc/self/cwd/config', undefined],
    ['cd "$HOME" && echo PWNED >> /proc/self/cwd/.bashrc', undefined],
    ['cd ../home && echo PWNED >> /proc/thread-self/cwd/.bashrc', undefined],
    ['echo hi > /proc/self/root/etc/x', undefined],
    ['echo hi > /proc/1/cwd/x', undefined],
    ['echo hi > /dev/fd/3/x 3< .git', undefined],
    ['echo hi > /proc/self/fd/3/config 3< .git', undefined],
    ['echo hi 3< ../home/.bashrc > /dev/fd/3', undefined],
    ['echo hi 1< ../home/.bashrc > /dev/stdout', undefined],
    ['cd .git && echo "[alias] zz = !touch X" >> ../pc/config', undefined],
  ])('%s (workdir %s) resolves in the command, not in MewCode: asks', async (command, workdir) => {
    symlinkSync('/proc/self/cwd', path.join(dirs.root, 'pc'));
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW } });
    expect(await inRoot(() => decide(kernel, 'bash', workdir ? { command, workdir } : { command }, mode))).toMatchObject(protectedAsk);
  });

  test('`..` after a link is taken from where the link leads, as the kernel takes it', async () => {
    symlinkSync(path.join(dirs.home, 'sub'), path.join(dirs.root, 'hl'));
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW } });
    expect(await bash(kernel, 'echo PWNED >> hl/../.bashrc', mode)).toMatchObject(protectedAsk);
  });

  test('what stays allowed: no link maker on the line, descriptors with no file read on them, plain cp', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW } });
    for (const command of ['ln -s a b && echo x > /dev/null', 'echo x > out.txt && echo y >> out.txt', 'echo hi > /dev/stdout 2> /dev/stderr', 'echo hi >&2', 'cp a b && echo x > log.txt', 'git status && echo x > log.txt', 'ln -s target link']) {
      expect(await bash(kernel, command, mode)).toMatchObject({ decision: 'allow' });
    }
  });
});

describe('allow rules (the write check for a redirection outside the project)', () => {
  test.each([
    'ln -s ../home/new.txt o && echo x > o',
    'ln -s ../home d && echo x > d/new.txt',
    'cd ../home && echo x > /proc/self/cwd/P1',
    'cd ../home && echo x > /proc/thread-self/cwd/P1',
    'echo x 1< ../home/.profile > /dev/stdout',
  ])('%s is not allowed by the rules (the mode layer asks)', async (command) => {
    writeFileSync(path.join(dirs.home, '.profile'), '');
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW } });
    expect(await inRoot(() => bash(kernel, command))).toMatchObject({ decision: 'ask' });
  });
});

/** MewCode runs in the project root: so does this test while a file tool's `/proc/self/cwd/…` is judged. */
async function inRoot<T>(body: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  process.chdir(dirs.root);
  try {
    return await body();
  } finally {
    process.chdir(before);
  }
}

describe('Read rules', () => {
  beforeEach(() => writeFileSync(path.join(dirs.home, 'secret.txt'), 'secret\n'));
  test.each([
    'cd ../home && cat /proc/self/cwd/secret.txt',
    'cat /proc/self/root' + '/HOME/secret.txt',
    'mkdir -p sub && ln -s ../../home/secret.txt sub/k && cat sub/k',
    'ln -s ../home h; cat h/secret.txt',
  ])('%s cannot be judged: it asks where a Read rule could apply', async (command) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW, disallowedTools: [`Read(/${dirs.home}/secret.txt)`] } });
    const verdict = await inRoot(() => bash(kernel, command.replace('/HOME', dirs.home)));
    expect(['ask', 'deny']).toContain(verdict?.decision);
  });

  test('read_file through /proc/self/cwd or /proc/self/root still meets the rules for what it reaches', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Read(**)'], disallowedTools: [`Read(/${dirs.root}/.env)`] } });
    writeFileSync(path.join(dirs.root, '.env'), 'x\n');
    expect(await read(kernel, `/proc/self/root${dirs.root}/.env`)).toMatchObject({ decision: 'deny' });
    expect(await inRoot(() => read(kernel, '/proc/self/cwd/.env'))).toMatchObject({ decision: 'deny' });
  });

  test('write_file through /proc/self/root to a protected path still asks', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Write(**)', 'Edit(**)'] } });
    for (const mode of ['default', 'bypassPermissions'] as PermissionMode[]) {
      expect(await write(kernel, `/proc/self/root${dirs.root}/.git/config`, mode)).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
      expect(await inRoot(() => write(kernel, '/proc/self/cwd/.git/hooks/pre-commit', mode))).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    }
  });
});

describe('a command the OS sandbox confines', () => {
  // The sandbox pins the protected paths read-only and keeps the rest outside the project
  // read-only: a link the line makes cannot lead a write there, so such a line is judged as written.
  const sandbox = definePlugin({
    name: 'test-sandbox',
    bindings: new ContainerModule(({ bind }) => {
      const status = { active: true } as SandboxStatus;
      bind(TOKENS.CommandSandbox).toConstantValue({ status: () => status, probe: async () => status } as unknown as CommandSandbox);
    }),
  });

  test.each(['git pull && npm test | tee log.txt', 'mv a b && echo done > status.txt', 'tar xf x.tar && echo x > marker'])('%s is judged as written (no protected-path question)', async (command) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: [...ALLOW, 'Bash(npm test:*)', 'Bash(tee:*)'] }, plugins: [sandbox] });
    expect(await bash(kernel, command, 'default')).toMatchObject({ decision: 'allow' });
  });

  test('without the sandbox the same line asks', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW } });
    expect(await bash(kernel, 'mv a b && echo done > status.txt', 'default')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  });

  test('a write to a protected path itself still asks under the sandbox', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ALLOW }, plugins: [sandbox] });
    expect(await bash(kernel, 'echo x >> .git/config', 'default')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  });
});
