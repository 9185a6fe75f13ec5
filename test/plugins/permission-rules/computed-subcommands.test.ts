/**
 * A deny or ask rule naming a program's subcommand (`Bash(git push *)`) holds when the subcommand
 * is not written literally: computed at run time (`git $(echo push)`, `G=push; git $G`, a brace
 * list, a glob) or renamed by a git alias on the command line (`git -c alias.xx=push xx`, of any
 * value). The same for a later word a rule names (`Bash(rm -rf /)` against `rm -rf $X`). Commands
 * whose computed words come after a subcommand the rule does not name stay allowed.
 */
import { bash, bootRules, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const HIDDEN = [
  ['git $(echo push) origin HEAD:x', 'git push *'],
  ['G=push; git $G origin HEAD:x', 'git push *'],
  ['git {push,origin,HEAD:x}', 'git push *'],
  ['git -c alias.xx=push xx origin HEAD:x', 'git push *'],
  ['git `echo push` origin', 'git push *'],
  ['git "$G" origin', 'git push *'],
  ['git pu?h origin', 'git push *'],
  ['git -C . $(echo push) origin', 'git push *'],
  ['git -c ALIAS.xx=push xx origin', 'git push *'],
  ['git --config-env=alias.xx=V xx origin', 'git push *'],
  ['git --config-env alias.xx=V xx origin', 'git push *'],
  ['git -c "$A" xx origin', 'git push *'],
  ['git $EMPTY push origin', 'git push:*'],
  ["export GIT_CONFIG_PARAMETERS=\"'alias.xx'='push'\"; git xx origin", 'git push *'],
  ['export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.xx GIT_CONFIG_VALUE_0=push && git -C . xx origin', 'git push *'],
  ['npm $(echo publish)', 'npm publish *'],
  ['docker {rm,c}', 'docker rm *'],
  ['docker system $(echo prune) -af', 'docker system prune:*'],
  ['kubectl -n prod $VERB pod x', 'kubectl delete *'],
  ['cargo +nightly $(echo publish)', 'cargo publish:*'],
  ['gh $(echo pr) merge 1', 'gh pr merge *'],
  ['rm -rf $X', 'rm -rf /'],
] as const;

test.each(HIDDEN)('%j is denied by Bash(%s) with the program allowed', async (command, rule) => {
  const program = rule.split(' ')[0]!;
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: [`Bash(${rule})`], allowedTools: [`Bash(${program}:*)`] } });
  const verdict = await bash(kernel, command, 'default');
  expect(verdict).toMatchObject({ decision: 'deny' });
  expect(verdict?.reason).toMatch(/computed at run time|alias/);
});

test.each(HIDDEN)('%j asks under an ask rule Bash(%s)', async (command, rule) => {
  writeSettings(dirs, 'user', { ask: [`Bash(${rule})`] });
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'default')).toMatchObject({ decision: 'ask' });
});

// (`git -c alias.xx=… xx` is denied under any `git <sub>` deny rule: an alias of any value may be that subcommand.)
test.each([
  'git log $(git rev-parse HEAD)',
  'git commit -m "$MSG"',
  'git -c user.name=$N commit -m x',
  'npm run $S',
  'git push origin main',
])('control: %j stays allowed when the rules deny another subcommand only', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(npm publish *)', 'Bash(git rebase *)'], allowedTools: ['Bash(git:*)', 'Bash(npm:*)'] } });
  expect(await bash(kernel, command, 'default')).toMatchObject({ decision: 'allow' });
});

test.each([
  ['rm -rf $X', 'rm -rf /tmp/x'],
  ['git $(echo status) x', 'git status *'],
  ['git -c alias.st=push st origin', 'git st *'],
])('an allow rule naming the words does not allow %j (Bash(%s))', async (command, rule) => {
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: [`Bash(${rule})`] } });
  expect((await bash(kernel, command, 'default'))?.decision).not.toBe('allow');
});
