/**
 * The blacklist sees the command a runner runs (`prlimit … rm -rf ~/x` is an `rm -rf ~/x`), and
 * where no OS sandbox confines the command, a program it does not know asks when a later word
 * starts a command it would block (the program may run it). Verdicts only: nothing is executed.
 */
import { checkCommand, unverifiableCommand } from '../../../plugins/permission-blacklist/check.js';

const where = { projectRoot: '/tmp/project', homeDir: '/tmp/home' };

test.each([
  'prlimit --nofile=64 rm -rf "$HOME"/dir1',
  'setarch x86_64 rm -rf ~/dir2',
  'capsh -- -c "rm -rf ~/dir3"',
  'choom -n 0 -- rm -rf ~/dir6',
  'logsave /dev/null rm -rf ~/dir7',
  "sg root 'rm -rf ~/dir8'",
  'perf stat rm -rf ~/dir9',
])('%s is blocked', async (command) => {
  expect(await checkCommand(command, where)).toMatchObject({ pattern: expect.any(String) });
});

test('an unknown program with a blocked command among its operands asks where nothing confines it', async () => {
  expect(await checkCommand('frobnicate -q rm -rf ~/dir1', where)).toBeUndefined();
  expect(await unverifiableCommand('frobnicate -q rm -rf ~/dir1', where)).toMatch(/may run/);
  expect(await unverifiableCommand('./helper.sh rm -rf /', where)).toMatch(/may run/);
});

test.each(['grep -r "rm -rf" .', 'echo rm -rf ~', 'man rm', 'frobnicate rm -rf build', 'frobnicate --x=rm -rf ~'])('%s is not asked for', async (command) => {
  expect(await unverifiableCommand(command, where)).toBeUndefined();
});
