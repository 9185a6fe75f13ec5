/**
 * A variable exported (or set, when it may already be exported) for the commands after it reaches
 * the programs that read it: `export TAR_OPTIONS='--to-command=…'; tar x…` runs the command as
 * surely as `TAR_OPTIONS=… tar x…`. The command it names is a segment (deny rules see it) or,
 * when it cannot be read, the setting runs unknown commands. Harmless values stay ordinary.
 * Nothing is executed.
 */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';

const parse = (command: string) => parseShellCommand(command);
const argvs = async (command: string): Promise<string[]> => (await parse(command)).segments.map((s) => s.argv.join(' '));

test.each([
  ["export TAR_OPTIONS='--to-command=rm\\ y'; tar xf a.tar", 'rm y'],
  ["TAR_OPTIONS='--to-comm=rm\\ y'; export TAR_OPTIONS; tar xf a.tar", 'rm y'],
  ["declare -x ZIPOPT='-T --unzip-command=rm'; zip -T z.zip a", 'rm'],
  ["export MANOPT='-P rm\\ y' && man ls", 'rm y'],
  ["export npm_config_call='rm y' && npx", 'rm y'],
])('%s runs %j, and is opaque', async (command, inner) => {
  const parsed = await parse(command);
  expect(await argvs(command)).toContain(inner);
  expect(parsed.opaque).toEqual(expect.any(String));
});

test.each([
  "export TAR_OPTIONS='--to-command=rm${IFS}y'; tar xf a.tar",
  "LESS='+!rm y'; less f",
  "export PAGER='rm y'; git log",
  "export GIT_SSH_COMMAND='rm y'; git fetch",
  'export LD_PRELOAD=/tmp/x.so; ls',
  'typeset -x MAKEFLAGS=-f/dev/stdin; make',
])('%s runs commands nothing shows (unknown)', async (command) => {
  const parsed = await parse(command);
  expect(parsed.segments.find((s) => s.unknownCommands)?.unknownCommands).toEqual(expect.any(String));
});

test.each([
  'export LESS=-R; less f',
  'export PAGER=cat; git log',
  'TAR_OPTIONS=--verbose; tar xf a.tar',
  'export EDITOR=vim',
  "export FOO='rm y'; echo ok",
  'ZIP=out.zip; zip -r "$ZIP" src',
])('%s stays ordinary', async (command) => {
  const parsed = await parse(command);
  expect(parsed.segments.some((s) => s.unknownCommands)).toBe(false);
  expect(parsed.opaque).toBeUndefined();
});
