/**
 * Adversarial suite (issue 8): `tar` as a writer of protected files — the archive it creates
 * (`tar -cf .git/config x`) and the files `--remove-files` deletes (`tar --remove-files -cf
 * /tmp/x.tar .git/hooks`) — with an allow-everything rule for Bash, in every permission mode.
 * Nothing is executed.
 */
import { securityTally } from './attempts.js';
import { bootPermissions, canaryDirs, escaped, judge, type Canary } from '../plugins/permission-rules/security-kernel.js';
import type { Kernel } from '../../kernel/kernel.js';
import type { PermissionMode } from '../../types/permissions.js';

const tally = securityTally('archive-writes');
let dirs: Canary;
let kernel: Kernel;
beforeAll(async () => {
  dirs = canaryDirs();
  kernel = await bootPermissions(dirs, { allowedTools: ['Bash'] });
});
afterAll(() => {
  tally.save();
  dirs.cleanup();
});

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions'];

const ATTEMPTS = [
  'tar -cf .git/config sub',
  'tar cf .git/hooks/pre-commit sub',
  'tar --create --file=.mewcode/settings.local.yaml sub',
  'tar -czf .mcp.json sub',
  'tar --remove-files -cf /tmp/x.tar .git/config',
  'tar --remove-f -cf /tmp/x.tar .git',
  'tar -C .git --remove-files -cf /tmp/x.tar hooks',
  'tar --remove-files -cf /tmp/x.tar .mewcode',
];

test.each(ATTEMPTS)('%j is not allowed', async (command) => {
  for (const mode of MODES) {
    const verdict = await judge(kernel, 'bash', { command }, mode);
    tally.attempt(`${mode}: ${command}`, escaped(verdict));
    expect(verdict?.decision).not.toBe('allow');
  }
});

test('control: archiving project files elsewhere is allowed', async () => {
  expect(await judge(kernel, 'bash', { command: 'tar -czf out.tgz sub' }, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  expect(await judge(kernel, 'bash', { command: 'tar --remove-files -cf out.tar sub' }, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});
