/**
 * Adversarial suite (issue 8): shell-analysis blind spots. With only the narrow allow rule
 * `Bash(echo:*)`, no command that runs anything besides echo (or writes outside the project) may
 * be allowed: hidden substitutions, heredoc bodies, nested backquotes, redirect-only
 * substitutions, eval, interpreter code, and redirect targets resolved from the wrong directory.
 */
import { securityTally } from './attempts.js';
import { bootPermissions, canaryDirs, escaped, judge, type Canary } from '../plugins/permission-rules/security-kernel.js';
import type { Kernel } from '../../kernel/kernel.js';

const tally = securityTally('shell-blind-spots');
let dirs: Canary;
let kernel: Kernel;
beforeAll(async () => {
  dirs = canaryDirs();
  kernel = await bootPermissions(dirs, { allowedTools: ['Bash(echo:*)'] });
});
afterAll(() => {
  tally.save();
  dirs.cleanup();
});

const ATTEMPTS = [
  'echo ${x:-$(touch ../escaped)}',
  'echo ${x:-`touch ../escaped`}',
  'echo "${x:=`id`}"',
  'echo ${x:+`id`}',
  'echo ${x#`id`}',
  'echo ${x/a/`id`}',
  'echo <<EOF\n$(touch ../escaped)\nEOF',
  'echo <<EOF\n`touch ../escaped`\nEOF',
  'echo <<EOF\n${x:-`id`}\nEOF',
  'echo `echo \\`id\\``',
  'echo `echo \\`echo \\\\\\`id\\\\\\`\\``',
  'echo $( > ../escaped)',
  'echo $(> ~/.bashrc)',
  'echo $(>> ~/.profile)',
  'echo $(< ~/.ssh/id_rsa)',
  'echo "$(< ~/.ssh/id_rsa)"',
  'echo $(<~/.ssh/id_rsa) > leak.txt',
  'echo x; eval id',
  'echo $(eval id)',
  'echo x && python3 -c "print(1)"',
  "echo $(python3 -c 'import os; os.system(\"id\")')",
  'echo $(perl -e "print 1")',
  'echo $(node -e "1")',
  "echo $(awk 'BEGIN{system(\"id\")}')",
  'echo x | python3',
  "echo 'import os; os.system(\"id\")' | python3",
  'echo x > ../escaped',
  'echo x > ~/CANARY',
  'echo x >> ~/.bashrc',
  'echo x > /tmp/escaped',
  'cd sub && echo x > ../../escaped',
  'cd .. && echo x > escaped',
  'cd $HOME && echo x > CANARY',
  'cd "$D" && echo x > f',
  'cd - && echo x > f',
  'pushd /tmp && echo x > f',
  'echo x > "$OUT"',
  'echo x > ${OUT:-~/CANARY}',
  'echo x > $(echo ~/CANARY)',
  'echo x | tee ~/CANARY',
  'echo x > .mewcode/settings.local.yaml',
  'echo x > .git/config',
  'echo x > .git/hooks/pre-commit',
  'echo x > .claude/settings.json',
  'echo x > .mcp.json',
  'echo $((a[$(id)]))',
  "echo ${a[$(id)]}",
  'echo ${!x}',
  'echo $[a[$(id)]]',
  "echo hi; trap 'id' EXIT",
];

test.each(ATTEMPTS)('Bash(echo:*) does not allow %j', async (command) => {
  for (const mode of ['default', 'acceptEdits'] as const) {
    const verdict = await judge(kernel, 'bash', { command }, mode);
    tally.attempt(`${mode}: ${command}`, escaped(verdict));
    expect(verdict?.decision).not.toBe('allow');
  }
});

test('control: plain echo is allowed by the rule', async () => {
  expect(await judge(kernel, 'bash', { command: 'echo hello > out.txt' }, 'default')).toMatchObject({ decision: 'allow' });
});
