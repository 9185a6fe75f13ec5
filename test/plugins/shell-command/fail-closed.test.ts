/**
 * Issue 8, point 3: what the analysis cannot see through is opaque, and what it would run is
 * still found; segments record the directories they may run in after `cd`. Nothing is executed.
 */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';

const argvs = async (command: string): Promise<string[][]> => (await parseShellCommand(command)).segments.map((s) => [...s.argv]);

describe('opaque constructs, and what they run is still a segment', () => {
  test.each([
    ['echo ${x:-$(rm -rf ~)}', ['rm', '-rf', '~']],
    ['echo ${x:-`rm -rf ~`}', ['rm', '-rf', '~']],
    ['echo "${x:=`touch f`}"', ['touch', 'f']],
    ['cat <<EOF\n$(rm -rf ~)\nEOF', ['rm', '-rf', '~']],
    ['cat <<EOF\n`rm -rf ~`\nEOF', ['rm', '-rf', '~']],
    ['cat > f <<EOF\nhi ${x:-`id`}\nEOF', ['id']],
    ['echo `echo \\`rm -rf ~\\``', ['rm', '-rf', '~']],
    ['eval "rm -rf ~"', ['rm', '-rf', '~']],
    ["python3 -c \"import os; os.system('rm -rf ~')\"", ['rm', '-rf', '~']],
    ["python3 -c \"import subprocess; subprocess.run(['rm', '-rf', 'x'])\"", ['rm', '-rf', 'x']],
    ["perl -e 'system(\"rm -rf ~\")'", ['rm', '-rf', '~']],
    ["perl -e '`rm -rf ~`'", ['rm', '-rf', '~']],
    ["ruby -e 'system(\"rm -rf ~\")'", ['rm', '-rf', '~']],
    ["node -e \"require('child_process').execSync('rm -rf ~')\"", ['rm', '-rf', '~']],
    ["php -r 'shell_exec(\"rm -rf ~\");'", ['rm', '-rf', '~']],
    ["awk 'BEGIN{system(\"rm -rf ~\")}'", ['rm', '-rf', '~']],
    ["gawk 'BEGIN { print \"x\" | \"sh\" ; system(\"touch f\") }'", ['touch', 'f']],
    ["python3 - <<'EOF'\nimport os\nos.system('rm -rf ~')\nEOF", ['rm', '-rf', '~']],
    ["echo \"import os; os.system('rm -rf ~')\" | python3", ['rm', '-rf', '~']],
  ])('%j is opaque and runs %j', async (command, runs) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.opaque).toEqual(expect.any(String));
    expect(parsed.segments.map((s) => [...s.argv])).toContainEqual(runs);
  });

  test.each(['echo $( > f)', 'echo $(> ~/.bashrc)', 'echo $(< secret)', 'x=$(< f)', 'python3 -c "print(1)"', 'perl -ne "print" f', 'node -e 1', 'curl x | python3', 'lua -e "os.exit()"'])(
    '%j is opaque',
    async (command) => {
      expect((await parseShellCommand(command)).opaque).toEqual(expect.any(String));
    },
  );

  test('a redirect-only substitution is a segment with its redirection', async () => {
    const parsed = await parseShellCommand('echo $( > ~/.bashrc)');
    expect(parsed.segments.map((s) => s.redirects)).toContainEqual([{ op: '>', target: '~/.bashrc' }]);
  });

  test('the interpreter program is kept on its segment', async () => {
    const parsed = await parseShellCommand('cd sub && python3 -c "print(1)"');
    expect(parsed.segments[1]!.inlineCode).toEqual({ interpreter: 'python', code: 'print(1)' });
  });

  test.each([
    'cat <<\'EOF\'\n$(rm -rf ~)\nEOF', // quoted delimiter: no expansion
    'python3 script.py',
    'node build.js --watch',
    'awk -f prog.awk data',
    'echo ${x:-default}',
    'perl -v',
  ])('%j is not opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toBeUndefined();
  });
});

describe('working directories after cd', () => {
  const dirsOf = async (command: string) => (await parseShellCommand(command)).segments.map((s) => s.dirs);

  test.each([
    ['cd sub && echo x > ../../o', [undefined, ['sub']]],
    ['cd sub; echo x', [undefined, ['.', 'sub']]], // the cd may fail
    ['cd a && cd b && ls', [undefined, ['a'], ['a/b']]],
    ['cd /tmp && ls', [undefined, ['/tmp']]],
    ['cd && ls', [undefined, ['~']]],
    ['cd ~/x && ls', [undefined, ['~/x']]],
    ['cd $X && ls', [undefined, null]],
    ['cd - && ls', [undefined, null]],
    ['popd && ls', [undefined, null]],
    ['for d in a b; do cd ..; done; ls', [undefined, null]],
    ['f(){ cd /; }; ls', [undefined, null]],
    ['CDPATH=/ cd etc && ls', [undefined, null]],
    ['ls; cd x || exit; ls', [undefined, undefined, ['.', 'x'], ['.', 'x']]],
  ])('%j', async (command, expected) => {
    expect(await dirsOf(command)).toEqual(expected);
  });

  test('a nested shell starts where it is run', async () => {
    const parsed = await parseShellCommand("cd sub && sh -c 'rm -rf x'");
    expect(parsed.segments.find((s) => s.argv[0] === 'rm')!.dirs).toEqual(['sub']);
  });

  test('trap and alias bodies run later, somewhere unknown', async () => {
    expect((await parseShellCommand("trap 'rm -rf x' EXIT")).segments.find((s) => s.argv[0] === 'rm')!.dirs).toBeNull();
  });
});

test('unset with a subscripted name is opaque (tree-sitter reads it as a declaration)', async () => {
  expect((await parseShellCommand("unset 'a[$(touch /tmp/x)]'")).opaque).toEqual(expect.any(String));
  expect(await argvs("unset 'a[$(touch /tmp/x)]'")).toContainEqual(['touch', '/tmp/x']);
});

test.each(["awk '{print $1}' f", "ls -l | awk '{ s += $5 } END { print s }'", 'python3 -m pytest', 'node --version'])('%j is not opaque (no program text that can run commands)', async (command) => {
  expect((await parseShellCommand(command)).opaque).toBeUndefined();
});

test.each(["awk '{print > \"out\"}' f", "awk '{ \"date\" | getline d }'", "awk '{print | \"sh\"}'"])('%j is opaque (the awk program can run commands or write files)', async (command) => {
  expect((await parseShellCommand(command)).opaque).toEqual(expect.any(String));
});

describe('deeply nested commands are a parse error, never a crash', () => {
  const nested = (open: string, close: string, n: number): string => `${open.repeat(n)}true${close.repeat(n)}`;

  test.each([
    ['500 nested $(', nested('$(', ')', 500)],
    ['2000 nested {', nested('{ ', '; }', 2000)],
    ['20000 nested $(', nested('$(', ')', 20000)],
    ['998 nested { (one level past the parser\'s cap)', nested('{ ', '; }', 998)],
  ])('%s: the parser fails', async (_, command) => {
    expect((await parseShellCommand(command)).parseError).toMatch(/the shell parser failed: the command is nested more than 1000 levels deep/);
  });

  test('997 nested { (the deepest tree the parser copies out): not analysed past the walk\'s depth', async () => {
    expect((await parseShellCommand(nested('{ ', '; }', 997))).parseError).toMatch(/nesting deeper than 400 levels was not analysed/);
  });

  test('a later command is analysed as usual', async () => {
    await parseShellCommand(nested('$(', ')', 5000));
    expect(await argvs('echo "$(rm x)"')).toEqual([['echo', '$(rm x)'], ['rm', 'x']]);
  });
});
