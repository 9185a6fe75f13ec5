/**
 * Deny and ask rules and the protected paths see what an alias call site runs: with alias
 * expansion on, `alias s=env` then `s rm x` runs `rm x`, `alias g=git` then `g push` runs
 * `git push`, `alias s='tee -a'` then `s ~/.bashrc` writes `~/.bashrc`. Verdicts only.
 */
import { bash, bootRules, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const E = 'shopt -s expand_aliases\n';

test.each([
  `${E}alias s=env\ns rm v9`,
  `${E}alias s=command\ns rm v9`,
  `${E}alias s='nice -n 1'\ns rm v9`,
  `${E}alias s=rm\ns v9`,
  `set -o posix\nalias s=env\ns rm v9`,
  `${E}alias s='env ' r=rm\ns r v9`,
  `${E}f() { alias s=env; }\nf\ns rm v9`,
  `bash -O expand_aliases -c $'alias s=env\\ns rm v9'`,
])('deny Bash(rm:*) denies %j', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)'], allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
});

test('deny Bash(git push:*) denies a push through an alias of git', async () => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(git push:*)'], allowedTools: ['Bash'] } });
  expect(await bash(kernel, `${E}alias g=git\ng push -q origin HEAD:refs/heads/pushed`, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
});

test('ask Bash(git commit:*) asks for a commit through an alias of git', async () => {
  writeSettings(dirs, 'local', { ask: ['Bash(git commit:*)'], allow: ['Bash'] });
  const { kernel } = await bootRules(dirs);
  expect(await bash(kernel, `${E}alias g=git\ng commit -q --allow-empty -m aliascommit`, 'bypassPermissions')).toMatchObject({ decision: 'ask' });
});

test.each([`${E}BASH_ALIASES[s]=env\ns rm v9`, `${E}declare -A BASH_ALIASES=([s]=env)\ns rm v9`, `${E}alias "$n"=env\ns rm v9`, `${E}source ./aliases.sh\ns rm v9`])(
  'deny Bash(rm:*) does not let %j run unchecked (an alias it cannot name)',
  async (command) => {
    const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm:*)'], allowedTools: ['Bash'] } });
    expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: expect.stringMatching(/^(deny|ask)$/) });
  },
);

test.each([
  `${E}alias s="tee -a"\necho P4 | s ~/.bashrc`,
  `${E}alias s=env\necho P5 | s tee -a .git/config`,
  `${E}alias s=cp\ns hook .git/hooks/pre-commit`,
])('%j writes a protected path: it asks even in bypassPermissions', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
});

test('an alias used without any rule concerning it is left to the other layers', async () => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Read(.env)'] } });
  expect(await bash(kernel, `${E}alias ll='ls -l'\nll`, 'bypassPermissions')).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
});
