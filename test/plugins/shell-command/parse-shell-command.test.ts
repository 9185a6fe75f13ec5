/**
 * A10: the shared shell parser. Every separator and nesting form becomes segments, quoting is
 * removed the way bash removes it, wrappers and shell strings are followed, parse errors are
 * reported with best-effort segments, and parsing is fast after warm-up.
 */
import { analyzeShellCommand, parseShellCommand, MAX_NESTING, type ParsedCommand } from '../../../sdk/shell-command/index.js';

const argvs = (parsed: ParsedCommand): string[][] => parsed.segments.map((s) => [...s.argv]);
const argvOf = async (command: string): Promise<string[][]> => argvs(await parseShellCommand(command));

describe('separators', () => {
  test.each([
    ['a; b', [['a'], ['b']]],
    ['a && b', [['a'], ['b']]],
    ['a || b', [['a'], ['b']]],
    ['a | b', [['a'], ['b']]],
    ['a |& b', [['a'], ['b']]],
    ['a & b', [['a'], ['b']]],
    ['a &', [['a']]],
    ['a\nb', [['a'], ['b']]],
    ['a&&b||c;d|e', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['! a && b', [['a'], ['b']]],
  ])('%j', async (command, expected) => {
    expect(await argvOf(command)).toEqual(expected);
  });

  test('each segment keeps its own trimmed source text', async () => {
    const parsed = await parseShellCommand('git status   &&   rm -rf /  ;  ls -la');
    expect(parsed.segments.map((s) => s.text)).toEqual(['git status', 'rm -rf /', 'ls -la']);
    expect(parsed.raw).toBe('git status   &&   rm -rf /  ;  ls -la');
    expect(parsed.parseError).toBeUndefined();
  });
});

describe('nesting', () => {
  test.each([
    ['subshell', '(cd /tmp; rm -fr /)', [['cd', '/tmp'], ['rm', '-fr', '/']]],
    ['group', '{ a; b; }', [['a'], ['b']]],
    ['command substitution', 'x $(y z)', [['x', '$(y z)'], ['y', 'z']]],
    ['backticks', 'x `y z`', [['x', '`y z`'], ['y', 'z']]],
    ['substitution inside double quotes', 'echo "a $(b) c"', [['echo', 'a $(b) c'], ['b']]],
    ['backticks inside double quotes', 'echo "`b`"', [['echo', '`b`'], ['b']]],
    ['substitution in an assignment', 'x=$(rm -rf /)', [[], ['rm', '-rf', '/']]],
    ['substitution in a prefix assignment', 'X=$(a) b', [['b'], ['a']]],
    ['substitution in export', 'export X=$(a)', [['export', 'X=$(a)'], ['a']]],
    ['substitution in local', 'f() { local y=`a`; }', [['local', 'y=`a`'], ['a']]],
    ['nested substitutions', 'a $(b $(c `d`))', [['a', '$(b $(c `d`))'], ['b', '$(c `d`)'], ['c', '`d`'], ['d']]],
    ['process substitution', 'diff <(a) >(b)', [['diff', '<(a)', '>(b)'], ['a'], ['b']]],
    ['parameter default', 'echo ${x:-$(a)}', [['echo', '${x:-$(a)}'], ['a']]],
    ['arithmetic', 'echo $(( $(a) + 1 ))', [['echo', '$(( $(a) + 1 ))'], ['a']]],
    ['test command', '[[ -f $(a) ]] && b', [['a'], ['b']]],
    ['if / elif / else', 'if a; then b; elif c; then d; else e; fi', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['while', 'while a; do b; done', [['a'], ['b']]],
    ['until', 'until a; do b; done', [['a'], ['b']]],
    ['for', 'for f in x y; do rm $f; done', [['rm', '$f']]],
    ['c-style for', 'for ((i=0; i<3; i++)); do a; done', [['a']]],
    ['select', 'select x in a; do b; done', [['b']]],
    ['case', 'case $x in a) b;; c|d) e;; esac', [['b'], ['e']]],
    ['function body', 'f() { a | b; }; f', [['a'], ['b'], ['f']]],
    ['function keyword', 'function f { a; }', [['a']]],
    ['heredoc body substitution', 'cat <<EOF\n$(a)\nEOF', [['cat'], ['a']]],
    ['compound redirect target', 'echo x > "$(a)"', [['echo', 'x'], ['a']]],
  ])('%s: %j', async (_name, command, expected) => {
    expect(await argvOf(command)).toEqual(expected);
  });

  test('a function definition is reported (fork bombs are functions)', async () => {
    expect((await parseShellCommand(':(){ :|:& };:')).hasFunctionDefinition).toBe(true);
    expect((await parseShellCommand('echo ":(){ :|:& };:"')).hasFunctionDefinition).toBe(false);
    const { functions } = await analyzeShellCommand('bomb(){ bomb|bomb& };bomb');
    expect(functions).toEqual([{ name: 'bomb', calls: ['bomb', 'bomb'], spawns: true }]);
  });
});

describe('shell strings and wrappers are followed', () => {
  test.each([
    ["sh -c 'rm -rf /'", ['rm', '-rf', '/']],
    ['bash -c "rm -rf /"', ['rm', '-rf', '/']],
    ["zsh -c 'rm -rf /'", ['rm', '-rf', '/']],
    ["dash -c 'rm -rf /'", ['rm', '-rf', '/']],
    ["/bin/bash -lc 'rm -rf /'", ['rm', '-rf', '/']],
    ["bash -e -o pipefail -c 'rm -rf /' name arg", ['rm', '-rf', '/']],
    ['eval "rm -rf /"', ['rm', '-rf', '/']],
    ['eval rm -rf /', ['rm', '-rf', '/']],
    ['sudo rm -rf /', ['rm', '-rf', '/']],
    ['sudo -u root -E -- rm -rf /', ['rm', '-rf', '/']],
    ['doas rm -rf /', ['rm', '-rf', '/']],
    ['env X=1 Y=2 rm -rf /', ['rm', '-rf', '/']],
    ['env -i -u PATH rm -rf /', ['rm', '-rf', '/']],
    ["env -S 'rm -rf /'", ['rm', '-rf', '/']],
    ['nice -n 10 rm -rf /', ['rm', '-rf', '/']],
    ['nohup rm -rf /', ['rm', '-rf', '/']],
    ['timeout 5 rm -rf /', ['rm', '-rf', '/']],
    ['timeout -s KILL -k 1 5s rm -rf /', ['rm', '-rf', '/']],
    ['time rm -rf /', ['rm', '-rf', '/']],
    ['command rm -rf /', ['rm', '-rf', '/']],
    ['builtin eval "rm -rf /"', ['rm', '-rf', '/']],
    ['exec rm -rf /', ['rm', '-rf', '/']],
    ['stdbuf -oL rm -rf /', ['rm', '-rf', '/']],
    ['xargs rm -rf', ['rm', '-rf', '$(xargs input)']], // what xargs appends is unknown: marked as computed
    ['xargs -0 -I{} rm -rf {}', ['rm', '-rf', '$(xargs input)']],
    ['find . -name x -exec rm -rf {} \\;', ['rm', '-rf', '{}']],
    ['busybox rm -rf /', ['rm', '-rf', '/']],
    ["su -c 'rm -rf /'", ['rm', '-rf', '/']],
    ["su root -c 'rm -rf /'", ['rm', '-rf', '/']],
    ['watch -n 1 rm -rf /', ['rm', '-rf', '/']],
    ["echo 'rm -rf /' | sh", ['rm', '-rf', '/']],
    ["printf 'rm -rf /\\n' | bash", ['rm', '-rf', '/']],
    ["bash <<< 'rm -rf /'", ['rm', '-rf', '/']],
    ["bash <<'EOF'\nrm -rf /\nEOF", ['rm', '-rf', '/']],
    ["sudo sh -c 'nice rm -rf /'", ['rm', '-rf', '/']],
    ['sudo >/dev/null rm -rf /', ['rm', '-rf', '/']], // tree-sitter attaches "rm -rf /" to the redirection
    ["alias x='rm -rf /'", ['rm', '-rf', '/']],
    ["trap 'rm -rf /' EXIT", ['rm', '-rf', '/']],
    ['echo / | xargs rm -rf', ['rm', '-rf', '/']], // echoed words become xargs arguments
    ['echo / | xargs -I{} rm -rf {}', ['rm', '-rf', '/']],
  ])('%j', async (command, inner) => {
    expect(await argvOf(command)).toContainEqual(inner);
  });

  test('the wrapper keeps its own segment and each level of a chain is a segment', async () => {
    const parsed = await parseShellCommand('nice -n 5 nohup timeout 9 rm -rf /tmp/x');
    expect(argvs(parsed)).toEqual([
      ['nice', '-n', '5', 'nohup', 'timeout', '9', 'rm', '-rf', '/tmp/x'],
      ['nohup', 'timeout', '9', 'rm', '-rf', '/tmp/x'],
      ['timeout', '9', 'rm', '-rf', '/tmp/x'],
      ['rm', '-rf', '/tmp/x'],
    ]);
    expect(parsed.segments.map((s) => s.text).at(-1)).toBe('rm -rf /tmp/x');
  });

  test("env's assignments become the wrapped command's assignments", async () => {
    const parsed = await parseShellCommand('A=1 env B=2 make');
    expect(parsed.segments.map((s) => ({ argv: s.argv, assignments: s.assignments }))).toEqual([
      { argv: ['env', 'B=2', 'make'], assignments: ['A=1'] },
      { argv: ['make'], assignments: ['A=1', 'B=2'] },
    ]);
  });

  test('nested shell strings recurse, and too deep a nesting is a parse error', async () => {
    expect(await argvOf(`bash -c "sh -c 'eval rm -rf /'"`)).toContainEqual(['rm', '-rf', '/']);
    let command = 'rm -rf /';
    for (let i = 0; i <= MAX_NESTING + 1; i++) command = `eval ${JSON.stringify(command)}`;
    expect((await parseShellCommand(command)).parseError).toMatch(/nested more than/);
  });

  test('commands that are not executions are not followed', async () => {
    expect(await argvOf('bash script.sh')).toEqual([['bash', 'script.sh']]);
    expect(await argvOf('sudo -e /etc/hosts')).toEqual([['sudo', '-e', '/etc/hosts']]);
    expect(await argvOf('command -v rm')).toEqual([['command', '-v', 'rm']]);
    expect(await argvOf("echo 'rm -rf /' | cat")).toEqual([['echo', 'rm -rf /'], ['cat']]);
    expect(await argvOf('trap - INT')).toEqual([['trap', '-', 'INT']]);
    expect(await argvOf('alias')).toEqual([['alias']]);
  });
});

describe('quoting', () => {
  test("a quoted string is one word, never a segment: echo 'rm -rf /'", async () => {
    expect(await argvOf("echo 'rm -rf /'")).toEqual([['echo', 'rm -rf /']]);
    expect(await argvOf('echo "rm -rf /"')).toEqual([['echo', 'rm -rf /']]);
    expect(await argvOf("grep -r 'rm -rf /' .")).toEqual([['grep', '-r', 'rm -rf /', '.']]);
    expect(await argvOf('git commit -m "rm -rf / is dangerous"')).toEqual([['git', 'commit', '-m', 'rm -rf / is dangerous']]);
  });

  test.each([
    ['rm -rf "/"', ['rm', '-rf', '/']],
    ["rm -rf '/'", ['rm', '-rf', '/']],
    ['"rm" -rf /', ['rm', '-rf', '/']],
    ['r"m" -r\'f\' /', ['rm', '-rf', '/']],
    ['\\rm -r\\f /', ['rm', '-rf', '/']],
    ["rm -rf $'\\x2f'", ['rm', '-rf', '/']],
    ["echo $'a\\tb\\n'", ['echo', 'a\tb\n']],
    ['echo "a\\"b\\$c\\\\d"', ['echo', 'a"b$c\\d']],
    ["echo 'a\\nb'", ['echo', 'a\\nb']],
    ['echo a\\ b', ['echo', 'a b']],
    ['echo "x"\'y\'z', ['echo', 'xyz']],
    ['rm -rf "$HOME"', ['rm', '-rf', '$HOME']],
    ['rm -rf ${HOME}/', ['rm', '-rf', '${HOME}/']],
    ['rm -rf "$HOME"/x', ['rm', '-rf', '$HOME/x']],
    ['rm -rf ~ ~/ ~root', ['rm', '-rf', '~', '~/', '~root']],
    ['echo "héllo 😀 wörld"', ['echo', 'héllo 😀 wörld']],
  ])('%j', async (command, expected) => {
    expect((await parseShellCommand(command)).segments[0]!.argv).toEqual(expected);
  });
});

describe('redirections and assignments', () => {
  test('redirections are collected with operator and unquoted target', async () => {
    const [segment] = (await parseShellCommand('cmd > out 2>> "err log" &> all <in 2>&1 >| clobber')).segments;
    expect(segment!.argv).toEqual(['cmd']);
    expect(segment!.redirects).toEqual([
      { op: '>', target: 'out' },
      { op: '>>', target: 'err log' },
      { op: '&>', target: 'all' },
      { op: '<', target: 'in' },
      { op: '>&', target: '1' },
      { op: '>|', target: 'clobber' },
    ]);
    expect(segment!.text).toBe('cmd > out 2>> "err log" &> all <in 2>&1 >| clobber');
  });

  test('a redirection after a pipeline or list belongs to its last command (tree-sitter hangs it on the whole)', async () => {
    const parsed = await parseShellCommand("a | 'x' > 'q w'; b && c 2>&1");
    expect(parsed.segments.map((s) => [s.text, s.redirects])).toEqual([
      ['a', []],
      ["'x' > 'q w'", [{ op: '>', target: 'q w' }]],
      ['b', []],
      ['c 2>&1', [{ op: '>&', target: '1' }]],
    ]);
  });

  test('a compound statement passes its redirections to the commands inside', async () => {
    const parsed = await parseShellCommand('{ a; b; } > /dev/sda');
    expect(parsed.segments.map((s) => s.redirects)).toEqual([[{ op: '>', target: '/dev/sda' }], [{ op: '>', target: '/dev/sda' }]]);
  });

  test('a redirection alone, and heredocs, are visible', async () => {
    expect((await parseShellCommand('> /dev/sda')).segments).toEqual([{ argv: [], text: '> /dev/sda', redirects: [{ op: '>', target: '/dev/sda' }], assignments: [] }]);
    const [cat] = (await parseShellCommand('cat <<EOF > /dev/sda\nx\nEOF')).segments;
    expect(cat!.redirects).toEqual([{ op: '<<', target: 'EOF' }, { op: '>', target: '/dev/sda' }]);
  });

  test('leading assignments, and assignment-only statements', async () => {
    const parsed = await parseShellCommand('FOO="a b" BAR=1 make; X=1 Y=$(z)');
    expect(parsed.segments.map((s) => ({ argv: s.argv, assignments: s.assignments }))).toEqual([
      { argv: ['make'], assignments: ['FOO=a b', 'BAR=1'] },
      { argv: [], assignments: ['X=1', 'Y=$(z)'] },
      { argv: ['z'], assignments: [] },
    ]);
  });
});

describe('parse errors', () => {
  test.each([
    ['rm -rf (', [['rm', '-rf']]],
    ['if true; then rm -rf /', [['true'], ['rm', '-rf', '/']]],
    ['echo "unterminated', [['echo']]],
    ['a && && b', [['a'], ['b']]],
    ['ls; rm -rf / )', [['ls'], ['rm', '-rf', '/']]],
  ])('%j sets parseError and keeps best-effort segments', async (command, expected) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.parseError).toEqual(expect.any(String));
    expect(argvs(parsed)).toEqual(expected);
  });

  test('a parse error inside a nested shell string is reported too', async () => {
    const parsed = await parseShellCommand(`sh -c 'rm -rf / ('`);
    expect(parsed.parseError).toMatch(/nested command/);
    expect(argvs(parsed)).toContainEqual(['rm', '-rf', '/']);
  });

  test('the empty command has no segments and no error', async () => {
    expect(await parseShellCommand('')).toEqual({ segments: [], hasFunctionDefinition: false, raw: '' });
    expect(await parseShellCommand('  # just a comment')).toEqual({ segments: [], hasFunctionDefinition: false, raw: '  # just a comment' });
  });
});

describe('everyday commands parse without errors (the rules layer never auto-allows a parse error)', () => {
  test.each([
    'npm test 2>&1 | tail -20',
    'find . -name "*.ts" -not -path "./node_modules/*" | head',
    "cat > file.txt << 'EOF'\nhello $x\nEOF",
    'python3 -c "print(\'hi\')"',
    'for f in *.ts; do echo "$f"; done',
    "ls -la | awk '{print $1}'",
    'docker run -it --rm -v $(pwd):/app node:20 npm test',
    "curl -s https://example.com | jq '.items[] | .name'",
    '[[ "$a" =~ ^[0-9]+$ ]] && echo num',
    'arr=(a b c); echo "${arr[@]}" ${#arr[@]} ${x/a/b} ${x,,}',
    'while IFS= read -r line; do echo "$line"; done < file.txt',
    'exec 3>&1; ls >&3',
    "echo 'it'\\''s'",
    'ls {a,b}.txt',
    'cd "$(git rev-parse --show-toplevel)"',
    'git commit -m "$(cat <<EOF\nmsg\nEOF\n)"',
    "sed -i 's/foo/bar/g' src/*.ts",
    'grep -rn "TODO" src/ --include="*.ts" || true',
  ])('%j', async (command) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.parseError).toBeUndefined();
    expect(parsed.segments.length).toBeGreaterThan(0);
  });

  test('a quoted heredoc is data, an unquoted one expands its substitutions', async () => {
    expect(await argvOf("cat > f.sh <<'EOF'\nrm -rf $(pwd)\nEOF")).toEqual([['cat']]);
    expect(await argvOf('cat > f.sh <<EOF\nrm -rf $(pwd)\nEOF')).toEqual([['cat'], ['pwd']]);
  });

  test('names of Object.prototype are ordinary command names', async () => {
    expect(await argvOf('constructor rm -rf /; __proto__ x; toString')).toEqual([['constructor', 'rm', '-rf', '/'], ['__proto__', 'x'], ['toString']]);
  });

  test('pathological input stays bounded: deep nesting and huge pipelines are parse errors, not crashes', async () => {
    const deep = await parseShellCommand(`echo ${'$('.repeat(3000)}x${')'.repeat(3000)}`);
    expect(deep.parseError).toMatch(/the shell parser failed: the command is nested more than 1000 levels deep/);
    const wide = await parseShellCommand(Array(5000).fill('a').join(' | '));
    expect(wide.parseError).toMatch(/more than 4096 commands/);
    expect(wide.segments).toHaveLength(4096);
  });
});

describe('cache and tree-sitter quirks', () => {
  test('tree-sitter\'s lenient assignments are commands, as in bash', async () => {
    expect(await argvOf('--opt=v')).toEqual([['--opt=v']]);
    expect(await argvOf('a-b=1 x')).toEqual([['a-b=1', 'x']]);
    expect(await argvOf('X=1 --opt=v Y=2')).toEqual([['--opt=v', 'Y=2']]);
  });

  test('results are cached and frozen', async () => {
    const first = await parseShellCommand('ls -la && pwd');
    expect(await parseShellCommand('ls -la && pwd')).toBe(first);
    expect(Object.isFrozen(first.segments[0]!.argv)).toBe(true);
  });
});

test('speed after warm-up (medians printed, not asserted tightly)', async () => {
  const typical = [
    'git status',
    'npm run test -- --watch=false',
    'ls -la src && grep -rn "foo" src | head -20',
    'cd build && rm -rf ./dist && npm run build 2>&1 | tail -5',
    "git commit -m 'fix: handle empty input'",
    'echo "$(date)" > out.txt',
  ];
  for (let i = 0; i < 500; i++) for (const c of typical) await analyzeShellCommand(`${c} #${i}`);
  const median = async (run: (i: number) => Promise<unknown>): Promise<number> => {
    const samples: number[] = [];
    for (let i = 0; i < 401; i++) {
      const started = performance.now();
      await run(i);
      samples.push((performance.now() - started) * 1000);
    }
    return samples.sort((a, b) => a - b)[200]!;
  };
  const rows: string[] = [];
  let worst = 0;
  for (const command of typical) {
    const uncached = await median((i) => analyzeShellCommand(`${command} x${i}`));
    const cached = await median(() => parseShellCommand(command));
    worst = Math.max(worst, uncached);
    rows.push(`${uncached.toFixed(1).padStart(6)} µs uncached | ${cached.toFixed(2).padStart(5)} µs cached | ${command}`);
  }
  console.log(`shell parse medians after warm-up:\n${rows.join('\n')}`);
  expect(worst).toBeLessThan(5000); // a sanity bound only (shared CI machines); the printed numbers are the measurement
});
