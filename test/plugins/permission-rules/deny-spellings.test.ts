/**
 * Issue 8, point 3: a deny rule such as `Bash(rm:*)` (in a file or via --disallowedTools)
 * matches the command however it is spelled, and denies the forms whose verb cannot be known.
 */
import { bash, bootRules, tempDirs, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const SPELLINGS = [
  'rm -rf x',
  '/bin/rm -rf x',
  '/usr/bin/rm x',
  '\\rm -rf x',
  'command rm -rf x',
  'builtin command rm x',
  'env rm x',
  'sudo rm x',
  'xargs rm < list',
  'find . -exec rm {} +',
  'a=rm; $a -rf x',
  '${x:-rm} -rf x',
  'rm${IFS}x',
  '"r""m" -rf x',
  "'rm' x",
  "$'rm' x",
  'r\\m x',
  '/bin/r? -rf x',
  '/bin/r[m] x',
  '{rm,-rf,x}',
  "sh -c 'rm x'",
  "bash -c \"cd / && rm x\"",
  'eval rm x',
  'echo rm x | sh',
  '$(echo rm) x',
  '`echo rm` x',
  "python3 -c \"import os; os.system('rm -rf x')\"",
  'git status && rm x',
  'true || rm x',
  'echo $(rm x)',
  // wrappers' options read as the programs read them
  'env --un cat rm x',
  'xargs --eof rm x < list',
  'env /bin/rm=x rm x',
  'timeout --sig KILL 5 rm x',
  'eval -- rm x',
  'fd -x rm',
  // a backslash-newline inside the word: bash joins it
  'r\\\nm x',
  'echo x; r\\\nm x',
  '\\\nrm x',
  // a line starting with a backslash: the grammar glues it to the line before
  'true\n\\rm x',
  'echo a b\n\\rm -rf x',
  // builtins and settings that evaluate strings
  "PS4='$(rm x)'; set -x; true",
  "set -o xtrace; PS4='$(rm x)'; :",
  "declare 'PS4=$(rm x)'; set -x; :",
  "mapfile -C 'rm x;:' -c 1 arr <<< line",
  "readarray -C 'rm x;:' -c 1 arr <<< line",
  "compgen -C 'rm x' y",
  "complete -C 'rm x' y",
  'coproc N { rm x; }',
  "declare 'a[$(rm x)]=1'",
  "typeset 'a[$(rm x)]=1'",
  "declare -a 'a=([$(rm x)]=1)'",
  "env 'BASH_FUNC_x%%=() { rm x; }' bash -c x",
  // interpreters reading their program from stdin
  "perl /dev/stdin <<< 'system(\"rm x\")'",
  "python3 /dev/stdin <<< 'import os; os.system(\"rm x\")'",
  "awk -f - <<< 'BEGIN{system(\"rm x\")}' /dev/null",
  "awk -f <(echo 'BEGIN{}')",
  "node /dev/fd/0 <<< 'require(\"child_process\").execSync(\"rm x\")'",
];

test.each(SPELLINGS)('--disallowedTools "Bash(rm:*)" denies %j in bypassPermissions', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)'], allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
});

test('the reason for a computed verb says why', async () => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)'] } });
  const verdict = await bash(kernel, 'a=rm; $a -rf x', 'bypassPermissions');
  expect(verdict!.reason).toContain('computed at run time');
  expect(verdict!.reason).toContain('Bash(rm:*)');
});

test('without any Bash deny rule, a computed verb is left to the other layers', async () => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Read(.env)'] } });
  expect(await bash(kernel, 'a=ls; $a', 'bypassPermissions')).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
});

test('an ask rule asks for a computed verb', async () => {
  const { kernel } = await bootRules(dirs);
  const { writeSettings } = await import('./helpers.js');
  writeSettings(dirs, 'local', { ask: ['Bash(git push:*)'] });
  const again = await bootRules(dirs);
  expect(await bash(again.kernel, '$GIT push', 'bypassPermissions')).toMatchObject({ decision: 'ask' });
  expect(await bash(kernel, '$GIT push', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});

test.each(['ls -la', 'echo rm', 'git rm --cached x', 'npm run rm-dist', 'command [ -f x ] && ls'])('Bash(rm:*) does not deny %j', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});

test.each(['c\\\nurl -so f file:///etc/hostname', 'cu\\\nrl x'])('Bash(curl:*) denies %j (a backslash-newline inside the word)', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(curl:*)'], allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
});

test.each(['git pu\\\nsh origin', 'git \\\npush'])('Bash(git push:*) denies %j', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(git push:*)'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
});

test('an ask rule asks for a word joined by a backslash-newline', async () => {
  const { writeSettings } = await import('./helpers.js');
  writeSettings(dirs, 'local', { ask: ['Bash(git commit:*)'] });
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, 'git com\\\nmit --allow-empty -qm x', 'bypassPermissions')).toMatchObject({ decision: 'ask' });
});

test.each(['ls\rtouch P21', 'ls\vtouch P', 'ls\ftouch P'])('Bash(ls:*) does not allow %j (bash runs one word, not ls)', async (command) => {
  const { writeSettings } = await import('./helpers.js');
  writeSettings(dirs, 'local', { allow: ['Bash(ls:*)'] });
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, command)).not.toMatchObject({ decision: 'allow' });
});

test.each(['npm run test\\\n:evil', 'git diff\\\ntool -y'])('an allow rule for the prefix does not allow %j (the joined word is another command)', async (command) => {
  const { writeSettings } = await import('./helpers.js');
  writeSettings(dirs, 'local', { allow: ['Bash(npm run test)', 'Bash(git diff:*)'] });
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, command)).not.toMatchObject({ decision: 'allow' });
});
