/**
 * A deny or ask rule written as `<program> <subcommand>` (`Bash(git push:*)`) holds whatever
 * global options come before the subcommand, even with an allow rule covering the program; a
 * rule with options (`Bash(rm -rf:*)`) holds whatever the order and grouping of the flags.
 */
import { bash, bootRules, tempDirs, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const PUSHES = [
  'git -C . push',
  'git --no-pager push',
  'git -c x.y=1 push',
  'git -P push origin main',
  'git --git-dir=.git --work-tree . push',
  'git --git-dir .git push',
  'git --namespace=x -p --bare push',
  'git --literal-pathspecs --no-optional-locks push',
  '/usr/bin/git -C sub push --force',
];

test.each(PUSHES)('deny Bash(git push:*) with allow Bash(git:*) denies %j', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(git push:*)'], allowedTools: ['Bash(git:*)'] } });
  expect(await bash(kernel, command, 'default')).toMatchObject({ decision: 'deny' });
});

test.each([
  ['npm --prefix . publish', 'npm publish:*'],
  ['npm -g --registry http://r publish', 'npm publish:*'],
  ['pnpm -C pkg publish', 'pnpm publish:*'],
  ['yarn --cwd pkg publish', 'yarn publish:*'],
  ['cargo +nightly publish', 'cargo publish:*'],
  ['cargo --locked -Z x publish', 'cargo publish:*'],
  ['docker -H tcp://h:1 rm c', 'docker rm:*'],
  ['docker --context prod system prune', 'docker system prune:*'],
  ['kubectl -n prod delete pod x', 'kubectl delete:*'],
  ['kubectl --context=prod delete pod x', 'kubectl delete:*'],
  // pflag, clap and nopt group letters as getopt does: the last may take the next word
  ['docker -Dl debug rm c', 'docker rm:*'],
  ['cargo -vq publish', 'cargo publish:*'],
  ['pnpm -rC pkg publish', 'pnpm publish:*'],
  ['kubectl -hn prod delete pod x', 'kubectl delete:*'],
])('%j is denied by Bash(%s)', async (command, rule) => {
  const program = command.split(' ')[0]!;
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: [`Bash(${rule})`], allowedTools: [`Bash(${program}:*)`] } });
  expect(await bash(kernel, command, 'default')).toMatchObject({ decision: 'deny' });
});

test.each([
  'git --frobnicate push',
  'git --super-weird x push',
  'npm --mystery x publish',
  'gh --repo o/r pr merge',
  // git compares its words whole: `-C=dir` is no `-C` (git refuses it)
  'git -C=dir push',
  // clap refuses a value for a flag
  'cargo --locked=yes publish',
])(
  'an unknown global option in %j asks under a deny rule for the program',
  async (command) => {
    const program = command.split(' ')[0]!;
    const { kernel } = await bootRules(dirs, { cli: { disallowedTools: [`Bash(${program} push:*)`, `Bash(${program} publish:*)`, 'Bash(gh pr merge:*)'], allowedTools: [`Bash(${program}:*)`] } });
    const verdict = await bash(kernel, command, 'default');
    expect(verdict).toMatchObject({ decision: 'ask' });
    expect(verdict?.reason).toMatch(/not known/);
  },
);

test.each(['git -C . status', 'git --no-pager log', 'npm --prefix . test', 'git --frobnicate status'])('control: %j is allowed when the deny names another subcommand only', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(git push:*)', 'Bash(npm publish:*)'], allowedTools: ['Bash(git:*)', 'Bash(npm:*)'] } });
  const verdict = await bash(kernel, command, 'default');
  // An unknown option makes the subcommand unknown: asked, never allowed past the deny silently.
  expect(verdict?.decision).toBe(command.includes('frobnicate') ? 'ask' : 'allow');
});

test.each(['rm -rf x', 'rm -r -f x', 'rm -fr x', 'rm -f -r x', 'rm -rfv x', 'rm -v -r -f x', 'rm --recursive --force x', 'rm -R -f x', '/bin/rm -f --recursive x'])(
  'deny Bash(rm -rf:*) denies %j',
  async (command) => {
    const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm -rf:*)'], allowedTools: ['Bash'] } });
    expect(await bash(kernel, command, 'default')).toMatchObject({ decision: 'deny' });
  },
);

test.each(['rm x', 'rm -f x', 'rm -r x', 'rm -i x'])('control: %j is not denied by Bash(rm -rf:*)', async (command) => {
  const { kernel } = await bootRules(dirs, { cli: { disallowedTools: ['Bash(rm -rf:*)'], allowedTools: ['Bash'] } });
  expect(await bash(kernel, command, 'default')).toMatchObject({ decision: 'allow' });
});
