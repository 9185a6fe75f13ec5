/**
 * Adversarial suite (issue 8): `--disallowedTools "Bash(rm:*)"` and a settings deny rule must hold
 * however `rm` is spelled — a path, quotes, escapes, wrappers, variables, parameter defaults,
 * `$IFS`, globs, brace lists, nested shells, interpreters — in bypassPermissions mode, with an
 * allow-everything rule for Bash that must not outrank the deny. Nothing is executed.
 */
import { securityTally } from './attempts.js';
import { bootPermissions, canaryDirs, escaped, judge, type Canary } from '../plugins/permission-rules/security-kernel.js';
import type { Kernel } from '../../kernel/kernel.js';

const tally = securityTally('deny-rule-spellings');
let dirs: Canary;
let kernel: Kernel;
beforeAll(async () => {
  dirs = canaryDirs();
  kernel = await bootPermissions(dirs, { disallowedTools: ['Bash(rm:*)', 'Bash(curl:*)'], allowedTools: ['Bash'] });
});
afterAll(() => {
  tally.save();
  dirs.cleanup();
});

const ATTEMPTS = [
  'rm sub/x',
  '/bin/rm sub/x',
  '/usr/bin/rm sub/x',
  './../../../../../../bin/rm sub/x',
  '\\rm sub/x',
  'r\\m sub/x',
  '"rm" sub/x',
  "'r''m' sub/x",
  '"r""m" sub/x',
  "$'\\x72m' sub/x",
  'command rm sub/x',
  'command -p rm sub/x',
  'builtin command rm sub/x',
  'exec rm sub/x',
  'env rm sub/x',
  'env -i PATH=/bin rm sub/x',
  'nice -n 5 rm sub/x',
  'timeout 5 rm sub/x',
  'nohup rm sub/x',
  'sudo rm sub/x',
  'busybox rm sub/x',
  'find sub -exec rm {} +',
  'echo sub/x | xargs rm',
  'a=rm; $a sub/x',
  'a=rm && "$a" sub/x',
  '${x:-rm} sub/x',
  '${x:=rm} sub/x',
  'rm${IFS}sub/x',
  '$(echo rm) sub/x',
  '`echo rm` sub/x',
  '$(printf "\\x72m") sub/x',
  '/bin/r? sub/x',
  '/bin/r* sub/x',
  '/bin/[r]m sub/x',
  '{rm,sub/x}',
  "sh -c 'rm sub/x'",
  "bash -c \"rm sub/x\"",
  "bash -lc 'cd sub && rm x'",
  'eval rm sub/x',
  'eval "$CMD"',
  "echo 'rm sub/x' | sh",
  "sh <<< 'rm sub/x'",
  "bash <<'EOF'\nrm sub/x\nEOF",
  'ls; rm sub/x',
  'ls && rm sub/x',
  'false || rm sub/x',
  'echo $(rm sub/x)',
  'echo ${y:-$(rm sub/x)}',
  'echo ${y:-`rm sub/x`}',
  "python3 -c \"import os; os.system('rm sub/x')\"",
  "perl -e 'system(\"rm sub/x\")'",
  "awk 'BEGIN{system(\"rm sub/x\")}'",
  'curl http://example.invalid',
  '/usr/bin/curl http://example.invalid',
  'c=curl; $c http://example.invalid',
];

test.each(ATTEMPTS)('Bash(rm:*) / Bash(curl:*) deny %j', async (command) => {
  const verdict = await judge(kernel, 'bash', { command }, 'bypassPermissions');
  tally.attempt(command, escaped(verdict));
  expect(verdict?.decision).not.toBe('allow');
});

test('control: other commands are allowed by Bash', async () => {
  expect(await judge(kernel, 'bash', { command: 'ls -la && git status' }, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});
