/**
 * Adversarial suite (issue 8): shell-analysis blind spots. With only the narrow allow rule
 * `Bash(echo:*)`, no command that runs anything besides echo (or writes outside the project) may
 * be allowed: hidden substitutions, heredoc bodies, nested backquotes, redirect-only
 * substitutions, eval, interpreter code, and redirect targets resolved from the wrong directory.
 * And with broad allow rules for the commands themselves (`Bash(sh:*)`, `Bash(git:*)`, …), what
 * the analysis cannot see through is still never allowed: shells fed by stdin or `<(…)`, computed
 * scripts, `parallel`, `git -c alias.x='!…'`, `make -f /dev/stdin`, renamed binaries.
 */
import { securityTally } from './attempts.js';
import { bootPermissions, canaryDirs, escaped, judge, type Canary } from '../plugins/permission-rules/security-kernel.js';
import type { Kernel } from '../../kernel/kernel.js';

const tally = securityTally('shell-blind-spots');
let dirs: Canary;
let kernel: Kernel;
let broad: Kernel;
let narrow: Kernel;
const BROAD = ['sh', 'bash', 'dash', 'source', '.', 'git', 'make', 'parallel', 'chronic', 'cp', 'ln', 'chmod', 'cat', './r', 'tar', 'deno', 'node', 'xargs'];
beforeAll(async () => {
  dirs = canaryDirs();
  kernel = await bootPermissions(dirs, { allowedTools: ['Bash(echo:*)'] });
  broad = await bootPermissions(dirs, { allowedTools: ['Bash(echo:*)', ...BROAD.map((name) => `Bash(${name}:*)`)] });
  narrow = await bootPermissions(dirs, { allowedTools: ['Bash(bash ./scripts/x.sh)', 'Bash(git status)', 'Bash(make test)'] });
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

const OPAQUE_ATTEMPTS = [
  'sh < <(echo echo pwned)',
  'bash < <(echo echo pwned)',
  'bash <(echo echo pwned)',
  'source <(echo echo pwned)',
  '. <(echo echo pwned)',
  '. /dev/stdin <<< "echo pwned"',
  'bash /dev/stdin <<< "echo pwned"',
  'bash <<< "echo pwned"',
  "bash <<'EOF'\necho pwned\nEOF",
  'echo echo pwned | sh',
  'cat cmds | sh',
  'sh -s < cmds',
  'bash "$f"',
  'sh -c "$CMD"',
  'echo f.sh | xargs bash',
  'parallel echo ::: pwned',
  "parallel ::: 'echo pwned'",
  'chronic sh < cmds',
  "git -c alias.x='!echo pwned' x",
  "git -c core.pager='echo pwned' log",
  "git -c core.sshCommand='echo pwned' fetch",
  "GIT_PAGER='echo pwned' git log",
  'make -f /dev/stdin <<< "x:; echo pwned"',
  'make -f - < mk',
  "make --eval='x:; echo pwned' x",
  "cp /bin/sh ./r && ./r -c 'echo pwned'",
  "ln -s /bin/sh r; ./r -c 'echo pwned'",
  "cat /bin/sh > r; chmod +x r; ./r -c 'echo pwned'",
  "cp /bin/sh ./r && ./r < cmds",
  "echo echo pwned > s.sh && bash s.sh",
  "cat > t.js <<'EOF'\nrequire('child_process').execSync('echo pwned')\nEOF\nnode t.js",
  "deno eval 'Deno.removeSync(\"x\")'",
];

/** Every visible part of these is allowed by the broad rules: only their opacity keeps them from being allowed. */
test.each(OPAQUE_ATTEMPTS)('broad allow rules do not allow the opaque %j', async (command) => {
  for (const mode of ['default', 'acceptEdits'] as const) {
    const verdict = await judge(broad, 'bash', { command }, mode);
    tally.attempt(`${mode}, broad rules: ${command}`, escaped(verdict));
    expect(verdict?.decision).not.toBe('allow');
  }
});

test.each([
  [() => broad, 'git status'],
  [() => broad, 'git -c core.pager=cat log'],
  [() => broad, 'make test'],
  [() => broad, 'make -f build/Makefile all'],
  [() => broad, 'bash ./scripts/x.sh'],
  [() => broad, 'sh -c "echo hi"'],
  [() => broad, 'source venv/bin/activate'],
  [() => broad, 'cat script.sh | sh -n'],
  [() => broad, 'cp a b && cat b'],
  [() => narrow, 'bash ./scripts/x.sh'],
  [() => narrow, 'git status'],
  [() => narrow, 'make test'],
] as const)('control: an allow rule still allows an ordinary command (%#: %j)', async (get, command) => {
  expect(await judge(get(), 'bash', { command }, 'default')).toMatchObject({ decision: 'allow' });
});
