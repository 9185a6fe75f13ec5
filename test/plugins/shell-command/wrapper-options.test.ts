/**
 * Wrappers' own options are read as the programs read them (checked against GNU env, xargs,
 * timeout, nice, ionice, flock, script, su and bash 5 on Debian 12, Perl's Getopt::Long for
 * parallel, and the getopt tables in the programs' sources), so the segment a wrapper adds is the
 * command the program really runs: abbreviated long options, optional values (only with `=` or
 * attached), NAME=value words, `env -S` strings, leading operands, chains of wrappers, commands
 * given as strings, and the search tools that run commands (`find -exec`, `fd -x/-X`). Words the
 * analysis cannot place make the wrapper's segment `unknownCommands`.
 */
import { parseShellCommand, type ParsedCommand } from '../../../sdk/shell-command/index.js';

const argvs = (parsed: ParsedCommand): string[][] => parsed.segments.map((s) => [...s.argv]);
const unknownOf = (parsed: ParsedCommand): string | undefined => parsed.segments.find((s) => s.unknownCommands !== undefined)?.unknownCommands;

describe('the command a wrapper runs is the one the program runs', () => {
  test.each([
    // GNU long options: any unambiguous prefix, the value in the next word or after `=`
    ['env --un cat rm x', ['rm', 'x']],
    ['env --ch /tmp rm x', ['rm', 'x']],
    ['timeout --sig KILL 5 rm x', ['rm', 'x']],
    ['timeout --k 1 5 rm x', ['rm', 'x']],
    ['nice --adj 5 rm x', ['rm', 'x']],
    ['stdbuf --out L rm x', ['rm', 'x']],
    ['chroot --user u:g / rm x', ['rm', 'x']],
    ['sudo --us me rm x', ['rm', 'x']],
    // optional values: only attached or after `=` (xargs --replace[=R], -i[R], --eof[=E], -l[N])
    ['xargs --replace rm -rf {}', ['rm', '-rf', '$(xargs input)']],
    ['xargs --eof rm x', ['rm', 'x', '$(xargs input)']],
    ['xargs --max-lines rm x', ['rm', 'x', '$(xargs input)']],
    ['echo a | xargs --replace rm -rf {}', ['rm', '-rf', 'a']],
    // bash's eval skips a leading `--`
    ['eval -- rm x', ['rm', 'x']],
    // NAME=value words and operands before the command
    ['env /bin/rm=x rm x', ['rm', 'x']],
    ['env a-b=c rm x', ['rm', 'x']],
    ['sudo VAR=1 -u me rm x', ['rm', 'x']],
    ['chrt -b rm x', ['rm', 'x']],
    // env -S: its string's words stand where the option was, options included
    ['env -S "rm -rf" x', ['rm', '-rf', 'x']],
    ['env -S"-u cat rm" x', ['rm', 'x']],
    ['env --split-string="-i rm -rf" x', ['rm', '-rf', 'x']],
    // chains of wrappers
    ['sudo -E env --un X nice --adj=3 stdbuf -oL rm x', ['rm', 'x']],
    // commands given as shell strings
    ['su --comm "rm x" me', ['rm', 'x']],
    ['strace -o "|rm x" ls', ['rm', 'x']],
    // search tools running a command for what they find
    ['find . -exec sh -c "x" + rm -rf y \\;', ['sh', '-c', 'x', '+', 'rm', '-rf', 'y']],
    ['find /bin -name rm -exec {} -rf x \\;', ['$(find result)', '-rf', 'x']],
    ['fd --exec rm', ['rm', '$(fd result)']],
    ['fd -x rm', ['rm', '$(fd result)']],
    ['fd -X rm {}', ['rm', '$(fd result)']],
    ['fd -e txt -x rm -f', ['rm', '-f', '$(fd result)']],
    ['fd -HIx rm', ['rm', '$(fd result)']],
    ['fd --exec=rm', ['rm', '$(fd result)']],
    ['fd --exec-batch rm -rf', ['rm', '-rf', '$(fd result)']],
    ['fd pattern -x rm {} \\; -E target', ['rm', '$(fd result)']],
    ['fdfind . -X rm', ['rm', '$(fd result)']],
    // parallel's options as Perl's Getopt::Long reads them
    ['parallel --tmpd /t rm -rf ::: x', ['rm', '-rf', 'x']],
  ])('%j', async (command, inner) => {
    const parsed = await parseShellCommand(command);
    expect(argvs(parsed)).toContainEqual(inner);
    expect(unknownOf(parsed)).toBeUndefined();
  });

  test('a wrapper whose option takes no value in the next word leaves that word to the command', async () => {
    expect(argvs(await parseShellCommand('env --ignore-environment rm x'))).toContainEqual(['rm', 'x']);
    expect(argvs(await parseShellCommand('fd -e x pattern'))).toEqual([['fd', '-e', 'x', 'pattern']]);
    expect(argvs(await parseShellCommand('parallel -i rm {} ::: x'))).toContainEqual(['x']); // -i took `rm` for its replace string
  });

  test('options that make a wrapper run no command, or a shell reading stdin', async () => {
    expect(argvs(await parseShellCommand('ionice -p 5'))).toEqual([['ionice', '-p', '5']]);
    expect(argvs(await parseShellCommand('chrt -p 5 123'))).toEqual([['chrt', '-p', '5', '123']]);
    expect(argvs(await parseShellCommand('sudo -h'))).toEqual([['sudo', '-h']]);
    expect(argvs(await parseShellCommand('busybox --list'))).toEqual([['busybox', '--list']]);
    expect(argvs(await parseShellCommand("echo 'rm x' | chroot /"))).toContainEqual(['rm', 'x']);
    expect(argvs(await parseShellCommand("echo 'rm x' | unshare -r"))).toContainEqual(['rm', 'x']);
  });
});

describe('words the analysis cannot place make what the wrapper runs unknown', () => {
  test.each([
    ['env --frob rm x', /--frob is not an option/],
    ['xargs --ma 1 rm', /--ma is an ambiguous abbreviation/],
    ['timeout --v 5 rm x', /--v is an ambiguous abbreviation/],
    ['ionice --clas 3 rm x', /--clas is an ambiguous abbreviation/],
    ['nohup -x rm x', /-x is not an option/],
    ['env --unset', /missing its value/],
    ['env --ignore-environment=1 rm x', /takes no value/],
    ['parallel --frob rm ::: x', /--frob is not an option/],
    ['parallel --jo 4 rm ::: x', /--jo is an ambiguous abbreviation/],
    ['busybox --frob rm x', /--frob/],
    // the shell may split an unquoted expansion or glob into several words, or none
    ['timeout $T rm x', /unquoted expansion/],
    ['env -u $X x', /unquoted expansion/],
    ['env A=$X x', /unquoted expansion/],
    ['sudo -u * rm x', /unquoted expansion or glob/],
    ['su $U -c "rm x"', /unquoted expansion/],
    ['systemd-run -p ExecStartPre=/bin/true ls', /unit property/],
    ["env -S 'rm \\q' x", /env -S/],
    ['env -S "$CMD" x', /computed/],
    ['su -c "$CMD"', /computed/],
    ['flock /tmp/l -c "$CMD"', /computed/],
  ])('%j', async (command, reason) => {
    expect(unknownOf(await parseShellCommand(command))).toMatch(reason);
  });

  test('control: quoted expansions are one word each, so nothing is unknown', async () => {
    for (const command of ['timeout "$T" rm x', 'env -u "$X" rm x', 'sudo -u "$USER" rm x', 'env A="$X" rm x']) {
      const parsed = await parseShellCommand(command);
      expect(unknownOf(parsed)).toBeUndefined();
      expect(argvs(parsed)).toContainEqual(['rm', 'x']);
    }
  });
});
