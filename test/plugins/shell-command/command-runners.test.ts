/**
 * Programs that run the program given in their operands (resource and scheduling setters,
 * personality and privilege changers, process supervisors, version managers' and package
 * managers' `exec`/`run`, container runners, `rg --pre`): the command they run is a segment of
 * its own, read with each program's own option syntax (checked against `--help` of util-linux
 * 2.38, libcap's capsh, shadow's sg, dpkg's start-stop-daemon, e2fsprogs' logsave on Debian 12),
 * so deny rules and the blacklist see it. And a program the analysis does not know, with a later
 * word that could be a command, records where those commands could start (mayRunOperands);
 * programs known to run none of their operands (grep, echo, man, which, …) record none.
 */
import { parseShellCommand, type ParsedCommand } from '../../../sdk/shell-command/index.js';

const argvs = (parsed: ParsedCommand): string[][] => parsed.segments.map((s) => [...s.argv]);
const unknownOf = (parsed: ParsedCommand): string | undefined => parsed.segments.find((s) => s.unknownCommands !== undefined)?.unknownCommands;

describe('the command a runner runs is a segment of its own', () => {
  test.each([
    ['prlimit --nofile=64 rm v0', ['rm', 'v0']],
    ['prlimit -n64 --cpu=10 rm v0', ['rm', 'v0']],
    ['prlimit --nofile rm v0', ['rm', 'v0']], // an optional value only after `=`
    ['prlimit -o RESOURCE --noheadings rm v0', ['rm', 'v0']],
    ['setarch x86_64 rm v1', ['rm', 'v1']],
    ['setarch x86_64 -R --verbose rm v1', ['rm', 'v1']],
    ['setarch -R rm v1', ['rm', 'v1']],
    ['linux64 rm v2', ['rm', 'v2']],
    ['linux32 -3 rm v2', ['rm', 'v2']],
    ['i386 rm v2', ['rm', 'v2']],
    ['x86_64 --addr-no-randomize rm v2', ['rm', 'v2']],
    ['choom -n 0 -- rm v3', ['rm', 'v3']],
    ['choom --adjust=-100 rm v3', ['rm', 'v3']],
    ['uclampset -m 0 -M 512 rm v4', ['rm', 'v4']],
    ['taskset 0x1 rm v4', ['rm', 'v4']],
    ['taskset -c 0-2 rm v4', ['rm', 'v4']],
    ['chrt -f 10 rm v4', ['rm', 'v4']],
    ['ionice -c3 rm v4', ['rm', 'v4']],
    ["sg root 'rm v5'", ['rm', 'v5']],
    ["sg root -c 'rm v5'", ['rm', 'v5']],
    ["sg - root 'rm v5'", ['rm', 'v5']],
    ["capsh -- -c 'rm v6'", ['rm', 'v6']],
    ["capsh --drop=cap_net_raw --caps=cap_chown+ep -- -c 'rm v6'", ['rm', 'v6']],
    ["capsh == -- -c 'rm v6'", ['rm', 'v6']],
    ['logsave /dev/null rm v7', ['rm', 'v7']],
    ['logsave -as log rm v7', ['rm', 'v7']],
    ['start-stop-daemon -S -o -d . -x /bin/rm -- v8', ['/bin/rm', 'v8']],
    ['start-stop-daemon --start --exec /usr/bin/env --startas /bin/rm -- v8', ['/bin/rm', 'v8']],
    ['start-stop-daemon -S -a rm -b -- -rf v8', ['rm', '-rf', 'v8']],
    ['tini -s -- rm x', ['rm', 'x']],
    ['dumb-init --single-child rm x', ['rm', 'x']],
    ['gosu nobody rm x', ['rm', 'x']],
    ['su-exec nobody:nogroup rm x', ['rm', 'x']],
    ['setpriv --reuid=1000 --clear-groups rm x', ['rm', 'x']],
    ['perf stat -o /dev/null rm v1', ['rm', 'v1']],
    ['perf stat -e cycles -r 3 -- rm v1', ['rm', 'v1']],
    ['perf record -g rm v1', ['rm', 'v1']],
    ['perf trace rm v1', ['rm', 'v1']],
    ['pyenv exec rm v3', ['rm', 'v3']],
    ['rbenv exec rm x', ['rm', 'x']],
    ['nodenv exec rm x', ['rm', 'x']],
    ['goenv exec rm x', ['rm', 'x']],
    ['npm exec --offline -- rm v4', ['rm', 'v4']],
    ['npm exec rm x', ['rm', 'x']],
    ['npm x -y rm x', ['rm', 'x']],
    ['npx rm x', ['rm', 'x']],
    ['npx --yes --package=foo rm x', ['rm', 'x']],
    ['pnpm exec rm x', ['rm', 'x']],
    ['pnpm dlx rm x', ['rm', 'x']],
    ['yarn exec rm x', ['rm', 'x']],
    ['yarn dlx rm x', ['rm', 'x']],
    ['bunx rm x', ['rm', 'x']],
    ['direnv exec . rm x', ['rm', 'x']],
    ['dotenv -- rm v2', ['rm', 'v2']],
    ['dotenv -e .env.test rm x', ['rm', 'x']],
    ['uv run rm x', ['rm', 'x']],
    ['uv run --python 3.12 --with requests -- rm x', ['rm', 'x']],
    ['poetry run rm x', ['rm', 'x']],
    ['pipenv run rm x', ['rm', 'x']],
    ['conda run -n base rm x', ['rm', 'x']],
    ['hatch run rm x', ['rm', 'x']],
    ['pdm run rm x', ['rm', 'x']],
    ['docker run --rm -v .:/w -w /w alpine rm x', ['rm', 'x']],
    ['docker run -it --name=t alpine:3 rm x', ['rm', 'x']],
    ['podman run --rm alpine rm x', ['rm', 'x']],
    ['docker container run alpine rm -rf x', ['rm', '-rf', 'x']],
    ['docker run --entrypoint rm alpine -rf /x', ['rm', '-rf', '/x']],
    ['pnpm --filter a exec rm x', ['rm', 'x']],
    ['direnv exec . ls -la', ['ls', '-la']],
    ['perf sched record rm x', ['rm', 'x']],
    ['docker exec -it box rm x', ['rm', 'x']],
    ['kubectl exec -it pod -c box -- rm x', ['rm', 'x']],
    ['rg --pre rm -e zzz v0', ['rm', '$(rg file)']],
    ['rg --pre=rm zzz', ['rm', '$(rg file)']],
    ['rg --hostname-bin=/bin/rm zzz', ['/bin/rm']],
    ['systemd-nspawn -D /srv/c rm x', ['rm', 'x']],
    ['find . -ok rm {} \\;', ['rm', '{}']],
    ['xargs -0 rm < list', ['rm', '$(xargs input)']],
  ])('%j', async (command, inner) => {
    const parsed = await parseShellCommand(command);
    expect(argvs(parsed)).toContainEqual(inner);
  });

  test('options that make a runner run no command', async () => {
    for (const command of ['prlimit -p 1 --nofile=64', 'choom -p 1', 'setarch --list', 'uclampset -p 1', 'perf list', 'pyenv versions', 'npm install rm', 'rg rm']) {
      expect(argvs(await parseShellCommand(command))).toHaveLength(1);
    }
  });

  test('a computed command of a string runner, or a computed --pre, is unknown', async () => {
    expect(unknownOf(await parseShellCommand('sg root "$CMD"'))).toMatch(/computed/);
    expect(unknownOf(await parseShellCommand('capsh -- -c "$CMD"'))).toMatch(/computed/);
    expect(unknownOf(await parseShellCommand('rg --pre "$P" x'))).toMatch(/computed/);
    expect(unknownOf(await parseShellCommand('prlimit --frob rm x'))).toMatch(/--frob is not an option/);
  });
});

describe('an unknown program may run its operands', () => {
  const mayRun = (parsed: ParsedCommand): string[][] =>
    parsed.segments.flatMap((s) => (s.mayRunOperands ?? []).map((at) => s.argv.slice(at)));

  test('each later word that could name a program starts a possible command', async () => {
    expect(mayRun(await parseShellCommand('frobnicate -x --level=3 rm v0'))).toEqual([['rm', 'v0'], ['v0']]);
    expect(mayRun(await parseShellCommand('./run-it.sh rm -rf ~/dir'))).toContainEqual(['rm', '-rf', '~/dir']);
  });

  test('a value glued to an option with `=`, and a word with spaces, are no command', async () => {
    expect(mayRun(await parseShellCommand('frobnicate --pre=rm'))).toEqual([]);
    expect(mayRun(await parseShellCommand('frobnicate "rm x"'))).toEqual([]);
  });

  test.each([
    'grep rm file', 'echo rm', 'printf "%s" rm', 'git commit -m "rm x"', 'man rm', 'which rm', 'type rm', 'apt show rm',
    'cat rm', 'ls rm', 'head -n 1 rm', 'tail rm', 'wc -l rm', 'less rm', 'rm -f rm', 'whatis rm', 'apt-cache policy rm',
  ])('a program known to run none of its operands: %j', async (command) => {
    expect(mayRun(await parseShellCommand(command))).toEqual([]);
  });

  test('a wrapper read exactly has its command as a segment, no possible commands', async () => {
    expect(mayRun(await parseShellCommand('timeout 5 rm x'))).toEqual([]);
    expect(mayRun(await parseShellCommand('prlimit --nofile=64 rm x'))).toEqual([]);
  });
});
