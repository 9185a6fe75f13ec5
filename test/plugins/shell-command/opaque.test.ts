/**
 * Constructs in which bash evaluates strings as arithmetic or prompts (and so may run a `$(…)`
 * hidden in an array subscript of a quoted string) make the command "opaque"; the literal strings
 * of such a command that look like code become segments. Redirections are cut out of
 * `textWithoutRedirects`. Nothing here is executed.
 */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';

const texts = async (command: string): Promise<string[]> => (await parseShellCommand(command)).segments.map((s) => s.text);

describe('opaque commands', () => {
  test.each([
    "echo hi; [[ 'a[$(touch /tmp/x)]' -eq 0 ]]",
    "[[ 'a[$(touch /tmp/x)]' -ne 1 ]]",
    '[[ $x -lt 3 ]]',
    '[[ $x -le 3 || $y -gt 1 ]]',
    '[[ a -ge b ]]',
    "[[ -v 'a[$(touch /tmp/x)]' ]]",
    '[[ -R ref ]]',
    "[ -v 'a[$(touch /tmp/x)]' ]",
    "test -v 'a[$(touch /tmp/x)]'",
    "for x in 'a[$(touch /tmp/x)]'; do echo $((x)); done",
    "for x in '$(touch /tmp/x)'; do echo ${x@P}; done",
    "select x in 'a[$(touch /tmp/x)]'; do echo $((x)); done",
    '(( x + 1 ))',
    'for ((i = 0; i < n; i++)); do echo $i; done',
    "for ((i = 0; i < 3; i++)); do i='a[$(touch /tmp/x)]'; done",
    'for ((i = 0; i < 3; i++)); do read i; done',
    'echo $((x + 1))',
    'echo $(( $1 + 1 ))',
    'echo $[x]',
    'let x=y',
    'declare -i n=y',
    'typeset -n ref=y',
    'local -i n=y',
    'a[i]=1',
    'echo ${a[i]}',
    'echo ${!x}',
    'echo ${s:y}',
    'echo ${s:0:n}',
    "read 'a[$(touch /tmp/x)]' <<< x",
    'read "$name"',
    "unset 'a[$(touch /tmp/x)]'",
    "printf -v 'a[$(touch /tmp/x)]' x",
    "mapfile 'a[$(touch /tmp/x)]' < f",
    'command let x=1',
    "bash -c 'echo $((x))'",
  ])('%s is opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toEqual(expect.any(String));
  });

  test.each([
    '[[ -f x ]]',
    'for ((i = 0; i < 3; i++)); do echo $i; done', // a counter set to a constant in the loop itself
    'echo $((1 + 2 * 0x1f)) $(( $# + 1 ))',
    '(( 3 > 2 ))',
    '[[ $a == b ]]',
    '[[ -n "$x" && -d dir ]]',
    '[[ $a =~ ^[0-9]+$ ]]',
    '[ $# -eq 0 ]', // the test builtin wants integers, it does not evaluate arithmetic
    '[ -f x ]',
    'test -f x',
    'for f in *.ts; do echo $f; done',
    'for f in a b c; do echo "$f"; done',
    'select f in a b; do echo $f; done',
    'echo ${a[0]} ${a[@]} ${a[*]} ${#a[@]}',
    'echo ${s:1:2} ${s: -1} ${x:-default} ${x:=d} ${x:+alt} ${x:?err}',
    'echo ${x@Q} ${x@E}',
    'read -r line',
    'read -p "Name: " name',
    'unset -v foo',
    "printf '%s\\n' x",
    'declare -r X=1',
    'export A=1',
    "echo '$(not run)'",
    'git status && npm test',
  ])('%s is not opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toBeUndefined();
  });

  test('the literal strings of an opaque command that look like code become segments', async () => {
    expect(await texts("echo hi; [[ 'a[$(touch /tmp/x)]' -eq 0 ]]")).toEqual(expect.arrayContaining(['echo hi', 'touch /tmp/x']));
    expect(await texts("for x in 'a[$(touch /tmp/x)]'; do echo $((x)); done")).toContain('touch /tmp/x');
    expect(await texts("for x in '$(touch /tmp/x)'; do echo ${x@P}; done")).toContain('touch /tmp/x');
    expect(await texts("[[ -v 'a[`touch /tmp/x`]' ]]")).toContain('touch /tmp/x');
    expect(await texts("x='a[$(touch /tmp/x)]'; echo $((x))")).toContain('touch /tmp/x');
    expect(await texts('[[ a\\[\\$\\(touch\\ /tmp/x\\)\\] -eq 0 ]]')).toContain('touch /tmp/x');
  });

  test('a quoted `$(…)` in a command that is not opaque stays text', async () => {
    expect(await texts("echo '$(touch /tmp/x)'")).toEqual(["echo '$(touch /tmp/x)'"]);
    expect(await texts("for x in '$(touch /tmp/x)'; do echo \"$x\"; done")).toEqual(['echo "$x"']);
  });
});

describe('textWithoutRedirects', () => {
  test.each([
    ['npm test 2>&1', 'npm test'],
    ['npm test > out.log', 'npm test'],
    ['FOO=1 npm test >> log 2> err', 'FOO=1 npm test'],
    ['echo > f hi', 'echo hi'],
    ['echo hi', 'echo hi'],
    ["echo 'a > b'", "echo 'a > b'"],
    ['cat < in.txt > out.txt', 'cat'],
  ])('%s → %s', async (command, expected) => {
    const [segment] = (await parseShellCommand(command)).segments;
    expect(segment!.textWithoutRedirects).toBe(expected);
  });

  test('the last command of a pipeline or list gets the redirection; the others keep their text', async () => {
    const parsed = await parseShellCommand('git log | head -5 > out.txt');
    expect(parsed.segments.map((s) => s.textWithoutRedirects)).toEqual(['git log', 'head -5']);
    expect(parsed.segments[1]!.redirects).toEqual([{ op: '>', target: 'out.txt' }]);
  });
});

describe('builtins and shell settings that evaluate a string as code', () => {
  test.each([
    ["PS4='$(rm v0)'; set -x; true", ['rm', 'v0']],
    ["PS4='$(rm v0)'; set -o xtrace; true", ['rm', 'v0']],
    ["set -x; PS4='`rm v0`' true", ['rm', 'v0']],
    ["declare 'PS4=$(rm v0)'; set -x; :", ['rm', 'v0']],
    ["export PS4='$(rm v0)'; bash -xc :", ['rm', 'v0']],
    ["env PS4='$(rm v0)' bash -xc :", ['rm', 'v0']],
    ["export PROMPT_COMMAND='rm v0'; bash -i < /dev/null", ['rm', 'v0']],
    ["PS0='$(rm v0)' bash -i < /dev/null", ['rm', 'v0']],
    ["mapfile -C 'rm v1;:' -c 1 arr <<< line", ['rm', 'v1']],
    ["readarray -tC 'rm v1;:' -c 1 arr <<< line", ['rm', 'v1']],
    ["mapfile -C'rm v1;:' arr <<< line", ['rm', 'v1']],
    ["compgen -C 'rm v2' x", ['rm', 'v2']],
    ["complete -C 'rm v2' x", ['rm', 'v2']],
    ["compgen -W '$(rm v2)' x", ['rm', 'v2']],
    ["declare 'a[$(rm v0)]=1'", ['rm', 'v0']],
    ["typeset 'a[$(rm v0)]=1'", ['rm', 'v0']],
    ["f(){ local 'a[$(rm v0)]=1'; }; f", ['rm', 'v0']],
    ["builtin declare 'a[$(rm v0)]=1'", ['rm', 'v0']],
    ["declare -a 'a=([$(rm v8)]=1)'", ['rm', 'v8']],
    ["declare -a 'a=($(rm v8))'", ['rm', 'v8']],
    ["env 'BASH_FUNC_x%%=() { rm v3; }' bash -c x", ['rm', 'v3']],
    ["export 'BASH_FUNC_y%%=() { rm v3; }'; bash -c y", ['rm', 'v3']],
  ])('%j is opaque and runs %j', async (command, runs) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.opaque).toEqual(expect.any(String));
    expect(parsed.segments.map((s) => [...s.argv])).toContainEqual(runs);
  });

  test.each([
    "read PS4 <<< x; set -x; :",
    "printf -v PS4 x; set -x; :",
    "bind -x '\"\\C-x\": rm v0'",
    'enable -f ./x.so x',
    'compgen -F f x',
  ])('%j is opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toEqual(expect.any(String));
  });

  test('enable -f loads code nothing shows', async () => {
    expect((await parseShellCommand('enable -f ./x.so x')).segments[0]?.unknownCommands).toEqual(expect.any(String));
  });

  test.each(['set -x; ls', 'mapfile -t lines < f', 'compgen -A file x', 'declare -a a=(1 2)', "declare x='a b'", 'echo PS4'])('%j is not opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toBeUndefined();
  });
});

describe('interpreters reading their program from stdin through a file name', () => {
  test.each([
    ["awk -f - <<< 'BEGIN{system(\"rm v0\")}' /dev/null", ['rm', 'v0']],
    ["awk -f /dev/stdin <<< 'BEGIN{system(\"rm v0\")}'", ['rm', 'v0']],
    ["perl /dev/stdin <<< 'system(\"rm v1\")'", ['rm', 'v1']],
    ["python3 /dev/stdin <<< 'import os; os.system(\"rm v2\")'", ['rm', 'v2']],
    ["node /dev/fd/0 <<< 'require(\"child_process\").execSync(\"rm v5\")'", ['rm', 'v5']],
    ["ruby /proc/self/fd/0 <<< 'system(\"rm v6\")'", ['rm', 'v6']],
    ["perl -w -- /dev/stdin <<< 'system(\"rm v7\")'", ['rm', 'v7']],
  ])('%j is opaque and its program is read: runs %j', async (command, runs) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.opaque).toEqual(expect.any(String));
    expect(parsed.segments.map((s) => [...s.argv])).toContainEqual(runs);
  });

  test.each([
    "awk -f <(echo 'BEGIN{system(\"rm v8\")}')",
    'awk -f /dev/fd/3 3< prog',
    'gawk -f/dev/fd/4',
    'node /proc/1234/fd/5',
    'python3 <(curl -s x)',
    "perl -x <(echo 'system 1')",
  ])('%j runs a program nothing shows', async (command) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.opaque).toEqual(expect.any(String));
    expect(parsed.segments.find((s) => s.unknownCommands)).toBeDefined();
  });

  test.each([
    'gawk --file=/dev/stdin < prog',
    'perl /dev/stdin < prog',
    'python3 /proc/self/fd/0 < prog',
    'cat prog | ruby /dev/stdin',
    'perl /dev/stdin',
    'python3 -',
    "gawk -e 'BEGIN { system(\"x\") }'",
  ])('%j is opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toEqual(expect.any(String));
  });

  test.each(["awk -f prog.awk data", 'python3 script.py', "awk '{print $1}' /dev/stdin"])('%j stays a plain command', async (command) => {
    expect((await parseShellCommand(command)).opaque).toBeUndefined();
  });
});
