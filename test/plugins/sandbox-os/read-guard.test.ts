/**
 * What no file tool may read outside the project whatever an allow rule says (read-guard.ts): the
 * paths the OS sandbox hides from commands, judged for one path.
 */
import path from 'node:path';
import { hiddenReason } from '../../../plugins/sandbox-os/read-guard.js';

const home = '/home/u';
const context = { homeDir: home, projectRoot: '/work/p', denyRead: ['~/work/private', '/srv/**/*.key.txt'], env: { AWS_SHARED_CREDENTIALS_FILE: '/etc/aws/creds' } };
const hidden = (p: string) => hiddenReason(p, context);

test.each([
  [path.join(home, '.ssh/id_ed25519'), 'credential list'],
  [path.join(home, '.zshrc'), 'credential list'],
  [path.join(home, '.aws/config'), 'credential list'],
  ['/etc/aws/creds', 'credential list'],
  [path.join(home, '.mewcode/settings.yaml'), 'credential list'],
  [path.join(home, '.claude/settings.json'), '~/.claude'],
  [path.join(home, '.claude/projects/x/t.jsonl'), '~/.claude'],
  [path.join(home, 'notes/api_token.txt'), 'says it holds secrets'],
  [path.join(home, 'deploy/credentials/prod.yaml'), 'says it holds secrets'],
  [path.join(home, 'app/.env'), 'says it holds secrets'],
  [path.join(home, 'work/private/a.txt'), 'sandbox.deny_read'],
  ['/srv/x/y/db.key.txt', 'sandbox.deny_read'],
])('%s is hidden (%s)', async (p, why) => {
  expect(await hidden(p)).toContain(why);
});

test.each([
  path.join(home, 'notes/todo.md'),
  path.join(home, '.claude/skills/x/SKILL.md'),
  path.join(home, '.claude/CLAUDE.md'),
  '/var/tmp/shared/api.md',
  '/srv/docs/readme.md',
])('%s is not hidden', async (p) => {
  expect(await hidden(p)).toBeUndefined();
});
