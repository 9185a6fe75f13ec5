/**
 * The words the analysis sees are the words bash runs, where tree-sitter-bash reads the line
 * differently: a backslash-newline inside a word (bash removes it before splitting words; the
 * grammar reads it as a blank), a carriage return, vertical tab or form feed between characters
 * (bash splits words only at space, tab and newline), and `coproc NAME { … }` (the grammar has no
 * coproc compound command). Nothing is executed.
 */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';

const argvs = async (command: string): Promise<string[][]> => (await parseShellCommand(command)).segments.map((s) => [...s.argv]);

describe('backslash-newline is removed as bash removes it', () => {
  test.each([
    ['r\\\nm v0', ['rm', 'v0']],
    ['\\\nrm v1', ['rm', 'v1']],
    ['echo x; r\\\nm v3', ['rm', 'v3']],
    ['ls && r\\\nm v4', ['rm', 'v4']],
    ['c\\\nurl -so v5 file:///etc/hostname', ['curl', '-so', 'v5', 'file:///etc/hostname']],
    ['git pu\\\nsh origin', ['git', 'push', 'origin']],
    ['git com\\\nmit -m x', ['git', 'commit', '-m', 'x']],
    ['rm -r\\\nf ~/dir2', ['rm', '-rf', '~/dir2']],
    ['rm -rf ~/di\\\nr3', ['rm', '-rf', '~/dir3']],
    ['echo "$(r\\\nm v6)"', ['rm', 'v6']],
    ['echo `r\\\nm v7`', ['rm', 'v7']],
    ['x=$(r\\\nm v8)', ['rm', 'v8']],
    ['{ r\\\nm v9; }', ['rm', 'v9']],
    ['sh -c "r\\\\\nm v10"', ['rm', 'v10']], // the -c string holds a backslash-newline of its own
    ['echo a\\\n#b; rm x', ['rm', 'x']], // `#` inside the joined word starts no comment
    ['npm run test\\\n:evil', ['npm', 'run', 'test:evil']],
    ['git diff\\\ntool -y', ['git', 'difftool', '-y']],
  ])('%j runs %j', async (command, runs) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.parseError).toBeUndefined();
    expect(parsed.segments.map((s) => [...s.argv])).toContainEqual(runs);
  });

  test.each([
    // single quotes, $'…', comments and quoted here-documents keep the backslash-newline
    ["echo 'a\\\nb'", ['echo', 'a\\\nb']],
    ["echo $'a\\\nb'", ['echo', 'a\\\nb']],
    ['echo a # c\\\nrm x', ['rm', 'x']],
    ["cat <<'E'\nr\\\nm\nE", ['cat']],
    // an escaped backslash before a newline is no continuation
    ['echo a\\\\\nrm x', ['rm', 'x']],
    ['echo "a\\\\"\nrm y', ['rm', 'y']],
  ])('%j keeps what bash keeps: runs %j', async (command, runs) => {
    expect(await argvs(command)).toContainEqual(runs);
  });

  test('a quoted here-document body keeps its backslash-newline: no command is joined', async () => {
    expect(await argvs("cat <<'E'\nr\\\nm x\nE")).toEqual([['cat']]);
  });

  test('inside double quotes the value was already joined, and stays so', async () => {
    expect(await argvs('echo "a\\\nb"')).toEqual([['echo', 'ab']]);
  });
});

describe('only space, tab and newline split words', () => {
  test.each([
    ['ls\rtouch P21', ['ls\rtouch', 'P21']],
    ['ls\vtouch P', ['ls\vtouch', 'P']],
    ['ls\ftouch P', ['ls\ftouch', 'P']],
    ['echo a\rb', ['echo', 'a\rb']],
    ['echo $(ls\rtouch x)', ['ls\rtouch', 'x']],
  ])('%j runs %j', async (command, runs) => {
    const segments = await argvs(command);
    expect(segments).toContainEqual(runs);
    expect(segments).not.toContainEqual(expect.arrayContaining(['touch']));
  });

  test('a backslash before CRLF escapes the carriage return: the newline still ends the command', async () => {
    expect(await argvs('echo \\\r\nrm -rf x')).toEqual([['echo', '\r'], ['rm', '-rf', 'x']]);
  });

  test('a carriage return inside quotes stays as it is', async () => {
    expect(await argvs("echo 'a\rb' \"c\rd\"")).toEqual([['echo', 'a\rb', 'c\rd']]);
  });
});

describe('coproc with a compound command', () => {
  test.each([
    ['coproc N { rm v4; }; wait', ['rm', 'v4']],
    ['coproc { rm v5; }', ['rm', 'v5']],
    ['coproc N (rm v6)', ['rm', 'v6']],
    ['coproc N while rm v7; do :; done', ['rm', 'v7']],
    ['coproc echo { rm v8; }', ['rm', 'v8']],
    ['coproc rm v9', ['rm', 'v9']],
    ['x=1 coproc N { rm v10; }', ['rm', 'v10']],
  ])('%j runs %j', async (command, runs) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.segments.map((s) => [...s.argv])).toContainEqual(runs);
    expect(parsed.parseError).toBeUndefined();
  });
});

describe('a line that starts with a backslash starts a command', () => {
  // tree-sitter-bash glues `\n\rm` onto the line before as one more argument word; bash ends the
  // command at the newline and runs `rm`.
  test.each([
    ['true\n\\rm v0', ['rm', 'v0']],
    ['echo a b\n\\rm v1\n\\rm v2', ['rm', 'v2']],
    ['x=1\n\\rm v3', ['rm', 'v3']],
    ['echo a\t\n\\rm v4', ['rm', 'v4']],
    ['{ true\n\\rm v5; }', ['rm', 'v5']],
    ['echo a\n\\r\\m v6', ['rm', 'v6']],
    ['echo a\n\\r"m" v7', ['rm', 'v7']],
    ['shopt -s expand_aliases\n\\alias s=env\ns rm v8', ['rm', 'v8']],
  ])('%j runs %j', async (command, runs) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.segments.map((s) => [...s.argv])).toContainEqual(runs);
    expect(parsed.parseError).toBeUndefined();
  });

  test('the escaped newline of an argument is not a line start', async () => {
    expect(await argvs("echo a \\\n\\rm")).toEqual([['echo', 'a', 'rm']]);
    expect(await argvs("echo 'a\n\\rm'")).toEqual([['echo', 'a\n\\rm']]);
  });
});
