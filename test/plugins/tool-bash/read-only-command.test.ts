/** Which bash commands may run beside the other reading calls of a turn (and which keep the model's order). */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';
import { isReadOnlyCommand } from '../../../plugins/tool-bash/read-only-command.js';
import { bashDefinition } from '../../../plugins/tool-bash/definition.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';

const readOnly = async (command: string): Promise<boolean> => isReadOnlyCommand(await parseShellCommand(command));

test.each([
  'sleep 0.3',
  'ls -la src',
  'cat package.json | jq .name',
  'git status --short',
  'git -C sub --no-pager log --oneline -5',
  'git diff HEAD~1 -- src',
  'rg -n TODO src 2>/dev/null',
  'grep -r foo . 2>&1 | head -20',
  'find . -name "*.ts" -newer package.json',
  'cd src && ls',
  'wc -l $(git ls-files)',
  'echo hello',
  'uniq sorted.txt',
  'ls | xargs cat',
  'timeout 5 du -sh node_modules',
  'X=1 printenv X',
])('reads only: %s', async (command) => {
  expect(await readOnly(command)).toBe(true);
});

test.each([
  'npm test',
  'node build.js',
  'python3 -c "print(1)"',
  'cat a > b',
  'echo x >> log.txt',
  'ls &> out.txt',
  'sort -o out.txt in.txt',
  'uniq in.txt out.txt',
  'find . -name x -delete',
  'find . -exec rm {} \\;',
  'fd -x rm',
  'git commit -m x',
  'git -c core.pager=evil log',
  'git diff --output=patch.txt',
  'git checkout main',
  'git',
  'sed -i s/a/b/ f',
  'awk "{print}" f',
  'ls | xargs rm',
  'echo $(rm x)',
  'rm -rf build',
  'touch x',
  'mkdir -p out',
  'f() { ls; }; f',
  'eval "ls"',
  'bash -c "ls"',
  'ls; rm x',
  'cat <(rm x)',
  'tee out.txt',
  'ls "unterminated',
])('may write: %s', async (command) => {
  expect(await readOnly(command)).toBe(false);
});

test("the bash tool's definition answers for a call, without loading the implementation", async () => {
  const bash = bashDefinition(createOutputLimits('/tmp/unused-spill'));
  expect(await bash.concurrencySafe({ command: 'sleep 0.3' })).toBe(true);
  expect(await bash.concurrencySafe({ command: 'npm install' })).toBe(false);
  expect(await bash.concurrencySafe({})).toBe(false);
  expect(await bash.concurrencySafe({ command: 42 })).toBe(false);
});
