/**
 * Bash aliases: once alias expansion is on (`shopt -s expand_aliases` in any spelling, `set -o
 * posix`, `POSIXLY_CORRECT`, an interactive or POSIX shell, dash…), a word at command position
 * that names an alias runs the alias's value. The analysis adds what the call site runs (the value
 * in place of the name, as bash substitutes it) as segments, and makes the command opaque; an
 * alias whose name cannot be known (computed, `BASH_ALIASES`, a reserved word) makes the whole
 * command opaque. Checked against bash 5.2. Nothing here is executed.
 */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';

const argvs = async (command: string): Promise<string[][]> => (await parseShellCommand(command)).segments.map((s) => [...s.argv]);
const E = 'shopt -s expand_aliases\n';

describe('a call site of an alias runs the alias value', () => {
  test.each([
    [`${E}alias s=env\ns rm v9`, ['rm', 'v9']],
    [`${E}alias s=command\ns rm v9`, ['rm', 'v9']],
    [`${E}alias s='nice -n 1'\ns rm v9`, ['rm', 'v9']],
    [`${E}alias s=rm\ns v9`, ['rm', 'v9']],
    [`${E}alias g=git\ng push -q origin HEAD:refs/heads/pushed`, ['git', 'push', '-q', 'origin', 'HEAD:refs/heads/pushed']],
    [`${E}alias s="tee -a"\necho P4 | s ~/.bashrc`, ['tee', '-a', '~/.bashrc']],
    [`shopt -qs expand_aliases\nalias s=env\ns rm v9`, ['rm', 'v9']],
    [`shopt -s extglob expand_aliases\nalias s=env\ns rm v9`, ['rm', 'v9']],
    [`set -o posix\nalias s=env\ns rm v9`, ['rm', 'v9']],
    [`POSIXLY_CORRECT=1\nalias s=env\ns rm v9`, ['rm', 'v9']],
    [`bash -O expand_aliases -c $'alias s=env\\ns rm v9'`, ['rm', 'v9']],
    [`bash -i -c $'alias s=env\\ns rm v9'`, ['rm', 'v9']],
    [`sh -c 'alias s=env\ns rm v9'`, ['rm', 'v9']],
    // Prefix assignments, pipelines, lists, groups, substitutions, loops: all command positions.
    [`${E}alias s=env\nA=1 s rm v9`, ['rm', 'v9']],
    [`${E}alias s=env\ntrue && { s rm v9; }`, ['rm', 'v9']],
    [`${E}alias s=env\necho $(s rm v9)`, ['rm', 'v9']],
    [`${E}alias s=env\nfor i in 1; do s rm v9; done`, ['rm', 'v9']],
    [`${E}alias s=env\n! s rm v9`, ['rm', 'v9']],
    [`${E}alias s=env\ntime s rm v9`, ['rm', 'v9']],
    [`${E}alias s=env\ntime -p s rm v9`, ['rm', 'v9']],
    [`${E}alias s=env\ncoproc s rm v9`, ['rm', 'v9']],
    // Defined in a function or an `if` body: defined once that runs.
    [`${E}f() { alias s=env; }\nf\ns rm v9`, ['rm', 'v9']],
    [`${E}if true; then alias s=env; fi\ns rm v9`, ['rm', 'v9']],
    // Used in a function defined after it, in a trap run later.
    [`${E}alias s=env\nf() { s rm v9; }; f`, ['rm', 'v9']],
    [`${E}trap 's rm v9' EXIT\nalias s=env`, ['rm', 'v9']],
    // An alias of an alias; a value ending in a blank expands the next word too.
    [`${E}alias a=b b=env\na rm v9`, ['rm', 'v9']],
    [`${E}alias s='env ' r=rm\ns r v9`, ['rm', 'v9']],
    [`${E}alias s='sudo ' r='env ' x=rm\ns r x v9`, ['rm', 'v9']],
    [`${E}alias s='rm -f v8; env'\ns rm v9`, ['rm', 'v9']],
    [`${E}alias -- s=env\ns rm v9`, ['rm', 'v9']],
    [`${E}command alias s=env\ns rm v9`, ['rm', 'v9']],
  ])('%j runs %j', async (command, runs) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.segments.map((s) => [...s.argv])).toContainEqual(runs);
    expect(parsed.opaque).toEqual(expect.stringContaining('alias'));
  });

  test('an alias of itself is expanded once (bash does not expand it again)', async () => {
    const parsed = await parseShellCommand(`${E}alias ls='ls -d'\nls /`);
    expect(parsed.parseError).toBeUndefined();
    expect(await argvs(`${E}alias ls='ls -d'\nls /`)).toContainEqual(['ls', '-d', '/']);
  });

  test('the call site runs where it is, after cd', async () => {
    const parsed = await parseShellCommand(`${E}alias s=env\ncd sub && s rm v9`);
    expect(parsed.segments.find((s) => s.argv[0] === 'rm')!.dirs).toEqual(['sub']);
  });
});

describe('aliases whose names cannot be known make every command opaque', () => {
  test.each([
    `${E}BASH_ALIASES[s]=env\ns rm v9`,
    `${E}BASH_ALIASES=([s]=env)\ns rm v9`,
    `${E}BASH_ALIASES+=([s]=env)\ns rm v9`,
    `${E}declare -A BASH_ALIASES=([s]=env)\ns rm v9`,
    `${E}declare BASH_"ALIASES[s]=env"\ns rm v9`,
    `${E}: \${BASH_ALIASES[s]:=env}\ns rm v9`,
    `${E}printf -v 'BASH_ALIASES[s]' env\ns rm v9`,
    `${E}alias "$n"=env\ns rm v9`,
    `${E}alias $x\ns rm v9`,
    `${E}alias if='env rm v9; if'\nif true; then :; fi`,
    `${E}alias declare='env'\ndeclare rm v9`,
    `${E}alias [[='rm v9; [['\n[[ -f x ]]`,
    `${E}source ./aliases.sh\ns rm v9`,
    `set -o posix\n. ./aliases.sh\ns rm v9`,
  ])('%j is opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toEqual(expect.any(String));
  });
});

describe('commands without aliases are unchanged', () => {
  test.each([
    'ls -la',
    "git config alias.st status && git st",
    'echo alias s=env',
    "echo 'alias s=env'; s rm v9",
    'source ./env.sh && make',
    'shopt -s extglob; ls !(x)',
  ])('%j is not opaque', async (command) => {
    expect((await parseShellCommand(command)).opaque).toBeUndefined();
  });

  test('an alias that is defined and never used is not opaque', async () => {
    expect((await parseShellCommand(`${E}alias ll='ls -l'`)).opaque).toBeUndefined();
  });
});
