/**
 * The blacklist sees what an alias call site runs (`alias s=env` then `s rm -rf ~/dir` is
 * `rm -rf ~/dir`), and a command defining aliases it cannot name is unverifiable (it asks when no
 * OS sandbox confines it). Verdicts only: nothing is executed.
 */
import { checkCommand, unverifiableCommand } from '../../../plugins/permission-blacklist/check.js';

const where = { projectRoot: '/tmp/project', homeDir: '/tmp/home' };
const E = 'shopt -s expand_aliases\n';

test.each([
  `${E}alias s=env\ns rm -rf ~/dir4`,
  `${E}alias s=command\ns rm -rf ~/dir5`,
  `${E}alias s='rm -rf'\ns ~/dir5`,
  `${E}alias s='env ' r='rm -rf'\ns r ~/dir5`,
  `set -o posix\nalias s=env\ns rm -rf "$HOME"/dir4`,
])('%j is blocked', async (command) => {
  expect(await checkCommand(command, where)).toMatchObject({ pattern: expect.any(String) });
});

test.each([
  `${E}alias s=env\ns touch x`,
  `${E}BASH_ALIASES[s]=env\ns rm -rf ~/dir4`,
  `${E}BASH_ALIASES=([s]=env)\ns ls`,
  `${E}alias $x\ns ls`,
  `${E}. ./aliases.sh\ns ls`,
])('%j cannot be vouched for', async (command) => {
  expect(await unverifiableCommand(command)).toEqual(expect.stringContaining('alias'));
});

test.each(['ls -la', 'echo alias s=env', 'source ./env.sh && make'])('%j can be vouched for', async (command) => {
  expect(await unverifiableCommand(command)).toBeUndefined();
});
