/**
 * Dangerous commands hidden in strings bash evaluates as code — array subscripts under
 * arithmetic (`[[ … -eq … ]]`, `$((x))`, `[[ -v … ]]`), `${x@P}`, `${!x}` — are found.
 * Verdicts only: nothing is executed.
 */
import { checkCommand } from '../../../plugins/permission-blacklist/check.js';

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
