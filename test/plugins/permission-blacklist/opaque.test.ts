/**
 * Dangerous commands hidden in strings bash evaluates as code — array subscripts under
 * arithmetic (`[[ … -eq … ]]`, `$((x))`, `[[ -v … ]]`), `${x@P}`, `${!x}` — are found.
 * Verdicts only: nothing is executed.
 */
import { checkCommand, unverifiableCommand } from '../../../plugins/permission-blacklist/check.js';

const where = { projectRoot: '/tmp/project', homeDir: '/tmp/home' };
const verdict = async (command: string) => checkCommand(command, where);

describe('opaque commands', () => {
  test.each([
    "echo hi && [[ 'a[$(rm -rf /)]' -eq 0 ]]",
    "[[ 'a[$(rm -rf ~)]' -lt 1 ]]",
    "[[ -v 'a[$(rm -rf /)]' ]]",
    "[ -v 'a[$(rm -rf /)]' ]",
    "test -v 'a[`rm -rf /`]'",
    "for x in 'a[$(rm -rf /)]'; do echo $((x)); done",
    "select x in 'a[$(rm -rf /)]'; do echo $((x)); done",
    "for x in '$(rm -rf /)'; do echo ${x@P}; done",
    "x='a[$(rm -rf /)]'; echo ${!x}",
    "x='a[$(rm -rf /)]'; (( x ))",
    "x='a[$(rm -rf /)]'; let y=x",
    "x=$'a[$(rm -rf /)]'; echo $[x]",
    "read 'a[$(rm -rf /)]' <<< 1",
    "printf -v 'a[$(rm -rf /)]' x",
    '[[ a\\[\\$\\(rm\\ -rf\\ /\\)\\] -eq 0 ]]',
    "bash -c \"[[ 'a[\\$(rm -rf /)]' -eq 0 ]]\"",
  ])('%s is blocked', async (command) => {
    expect(await verdict(command)).toMatchObject({ pattern: expect.any(String) });
  });

  test('the hit names the hidden command when the parser found it', async () => {
    expect(await verdict("echo hi && [[ 'a[$(rm -rf /)]' -eq 0 ]]")).toMatchObject({ segment: 'rm -rf /', fromRawText: false });
  });

  test.each([
    '[[ -f x ]] && echo ok',
    '[[ $a == b ]]',
    'for f in *.ts; do echo $f; done',
    "echo 'rm -rf /'",
    "for x in 'rm -rf /'; do echo \"$x\"; done",
    '(( i++ ))',
    'echo $((1 + 2))',
    "[[ 'a[$(ls /)]' -eq 0 ]]",
  ])('%s is not blocked', async (command) => {
    expect(await verdict(command)).toBeUndefined();
  });
});

describe('strings bash evaluates through builtins and settings, and words it joins', () => {
  test.each([
    'r\\\nm -rf "$HOME"/dir1',
    'rm -r\\\nf ~/dir2',
    'rm -rf ~\\\n/victim1',
    "PS4='$(rm -rf \"$HOME\"/dir1)'; set -x; :",
    "mapfile -C 'rm -rf ~/dir2;:' -c 1 arr <<< line",
    "compgen -C 'rm -rf ~/dir3' x",
    'coproc N { rm -rf ~/victim1; }; wait',
    "declare 'a[$(rm -rf /)]=1'",
    "env 'BASH_FUNC_x%%=() { rm -rf ~; }' bash -c x",
    "python3 /dev/stdin <<< 'import os; os.system(\"rm -rf ~\")'",
  ])('%j is blocked', async (command) => {
    expect(await verdict(command)).toMatchObject({ pattern: expect.any(String) });
  });

  test.each([
    "PS4='$(x)'; set -x; :",
    "export PS4='`x`'; bash -xc :",
    "mapfile -C 'x' -c 1 arr <<< line",
    "compgen -C 'x' y",
    'compgen -W "$(x)" y',
    "typeset 'a[$(x)]=1'",
    "declare -a 'a=([$(x)]=1)'",
    "env 'BASH_FUNC_x%%=() { y; }' bash -c x",
    'enable -f ./x.so x',
    "perl /dev/stdin < prog",
    "awk -f <(curl -s x)",
    `${'$('.repeat(500)}true${')'.repeat(500)}`,
  ])('%j cannot be vouched for (asked when no sandbox confines it)', async (command) => {
    expect(await unverifiableCommand(command)).toEqual(expect.any(String));
  });

  test.each(['ls -la', 'set -x; ls', 'declare -a a=(1 2)', 'mapfile -t lines < f', "awk -f prog.awk data"])('%j is verifiable', async (command) => {
    expect(await unverifiableCommand(command)).toBeUndefined();
  });
});
