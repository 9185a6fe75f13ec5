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
