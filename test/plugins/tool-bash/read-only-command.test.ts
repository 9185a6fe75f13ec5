/** Which bash commands may run beside the other reading calls of a turn (and which keep the model's order). */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';
import { isReadOnlyCommand } from '../../../plugins/tool-bash/read-only-command.js';
import { bashDefinition } from '../../../plugins/tool-bash/definition.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';

const readOnly = async (command: string): Promise<boolean> => isReadOnlyCommand(await parseShellCommand(command));

test.each([
  'sleep 0.3',
  'ls -la src',
  'cat package.json | jq .name',
  'git -c core.fsmonitor=false --no-optional-locks status --short',
  'git -C sub --no-pager log --no-textconv --no-ext-diff --no-show-signature --oneline -5',
  'git -c core.fsmonitor=false --no-optional-locks diff --no-textconv --no-ext-diff HEAD~1 -- src',
  'rg -n TODO src 2>/dev/null',
  'grep -r foo . 2>&1 | head -20',
  'find . -name "*.ts" -newer package.json',
  'cd src && ls',
  'wc -l $(git -c core.fsmonitor=false --no-optional-locks ls-files)',
  'echo hello',
  'uniq sorted.txt',
  'ls | xargs cat',
  'timeout 5 du -sh node_modules',
  'x=1 printenv x',
  'LC_ALL=C sort names.txt',
  'f=src/a.ts; cat $f',
  // descriptor duplication and closing, and the null device, write no file
  'ls >&2',
  'ls 2>&1 | sort',
  'cat <&0',
  'echo x >&-',
  'ls > /dev/null 2>&1',
  'echo hi > /dev/stderr',
  'cat < in.txt',
  'cat <<EOF\nhi\nEOF',
  // readers with writing options, used without them
  'sort -u -k1,1 in.txt',
  'sort --check in.txt',
  'sort -T /tmp -S 1M in.txt',
  'sort -- -o',
  'uniq -c -f 1 in.txt',
  'uniq -- in.txt',
  'xxd -l 64 -c 8 bin.dat',
  'date +%s',
  'date -u -d yesterday +%F',
  'hostname -f',
  'file -b --mime-type x.png',
  'tree -L 2 -a -I node_modules',
  'tree -L2 src',
  'rg -uu -tts -A3 -B 2 "foo$" src',
  'rg --pre-glob "*.gz" --no-pre foo',
  'rg "[0-9]{2,4}" src',
  'fd -H -e ts --type f foo',
  'find . -name -delete',
  'find -L . -maxdepth 2 \\( -name a -o -name b \\) -print',
  'time -p ls',
  '/usr/bin/time ls',
  'env -i LC_ALL=C ls',
  'nice -n 5 ls',
  'timeout -s KILL 5 sleep 1',
  'ls | xargs -0 -n1 grep foo',
  'git log --no-textconv --no-ext-diff --no-show-signature --graph --decorate --all --oneline -n 20',
  'git log --no-textconv --no-ext-diff --no-show-signature -p -S foo --since=2.weeks --format="%h %s" -- src',
  'git log --no-textconv --no-ext-diff --no-show-signature -L 10,20:src/a.ts',
  'git -c core.fsmonitor=false --no-optional-locks diff --no-textconv --no-ext-diff --cached --stat=100 -U10 -M50%',
  'git -c core.fsmonitor=false --no-optional-locks diff --no-textconv --no-ext-diff --no-index --word-diff a b',
  'git show --no-textconv --no-ext-diff --no-show-signature HEAD:package.json',
  'git -c core.fsmonitor=false --no-optional-locks blame --no-textconv -w -M -C -L 1,10 f',
  'git shortlog -sne --all',
  'git -c core.fsmonitor=false --no-optional-locks grep -n -5 -e foo --and -e bar -- "*.ts"',
  'git -c core.fsmonitor=false --no-optional-locks grep --no-textconv foo',
  'git cat-file -p HEAD',
  'git rev-list --count HEAD',
  'git reflog',
  'git reflog show -n 5',
  'git reflog main@{1}',
  'git log --no-textconv --no-ext-diff --no-show-signature -- --output=x',
  'git describe --tags',
  'git -c core.fsmonitor=false --no-optional-locks ls-files',
  'git -C sub -c core.fsmonitor=false --no-optional-locks ls-files -s',
])('reads only: %s', async (command) => {
  expect(await readOnly(command)).toBe(true);
});

test.each([
  'npm test',
  'node build.js',
  'python3 -c "print(1)"',
  'cat a > b',
  'echo x >> log.txt',
  'ls &> out.txt',
  'sort -o out.txt in.txt',
  'uniq in.txt out.txt',
  'find . -name x -delete',
  'find . -exec rm {} \\;',
  'fd -x rm',
  'git commit -m x',
  'git -c core.pager=evil log',
  'git diff --output=patch.txt',
  'git checkout main',
  'git',
  'sed -i s/a/b/ f',
  'awk "{print}" f',
  'ls | xargs rm',
  'echo $(rm x)',
  'rm -rf build',
  'touch x',
  'mkdir -p out',
  'f() { ls; }; f',
  'eval "ls"',
  'bash -c "ls"',
  'ls; rm x',
  'cat <(rm x)',
  'tee out.txt',
  'ls "unterminated',
])('may write: %s', async (command) => {
  expect(await readOnly(command)).toBe(false);
});

// A redirection into a file named by digits or `-` creates that file: only `>&N`, `<&N`, `>&-` duplicate or close.
test.each(['ls > 5', 'echo hi > 0', 'ls >> 12', 'ls 1>5', 'ls &>5', 'ls > -', 'echo hi >| out.txt', 'echo hi >&out.txt', 'ls 2>&1 >out', 'echo hi > /dev/tty', 'ls > "$f"', '{ ls; } > f'])(
  'a redirection into a file writes: %s',
  async (command) => {
    expect(await readOnly(command)).toBe(false);
  },
);

// An option that writes a file or runs a program, however it is spelled.
test.each([
  // option clusters, GNU abbreviations, attached and separate values, options after operands
  'sort -uo out.txt in.txt',
  'sort -ro out in',
  'sort -k1 -o out in',
  'sort in -o out',
  'sort --o=out in',
  'sort --outp=out in',
  'sort --ou out in',
  'sort --compress-program=touch -S 1 in',
  'sort --co=x in',
  'sort --c in', // ambiguous: --check or --compress-program
  'sleep 0.5 && sort -uo out in',
  'ls -la | sort -uo out',
  // time writes its report with -o; -a appends to it
  'time -o t.txt ls',
  '/usr/bin/time -o t.txt true',
  'env time -o f ls',
  'time -a -o f ls',
  'env -i time -ao f ls',
  // git: porcelain diffs run the configured textconv and external diff, log/show run gpg for
  // log.showSignature, status and describe --dirty run core.fsmonitor and refresh .git/index
  'git diff',
  'git diff HEAD~1 -- src',
  'git diff --no-textconv HEAD',
  'git show HEAD:package.json',
  'git log --oneline -5',
  'git log -p --no-textconv --no-ext-diff',
  'git log --no-textconv --no-ext-diff --no-show-signature --show-signature',
  'git blame f',
  'git status --short',
  'git --no-optional-locks status',
  'git -c core.fsmonitor=false status',
  'git describe --dirty',
  // ls-files, grep, diff and blame read the work tree: core.fsmonitor runs, diff refreshes .git/index
  'git ls-files',
  'wc -l $(git ls-files)',
  'git grep foo',
  'git grep --no-textconv foo',
  'git diff --no-textconv --no-ext-diff',
  'git diff --no-textconv --no-ext-diff --cached',
  'git blame --no-textconv f',
  'git --no-optional-locks ls-files',
  'git -c core.fsmonitor=false grep foo',
  'git log --oneline -- --no-textconv --no-ext-diff --no-show-signature',
  'rg -z foo',
  'rg --search-zip foo',
  'fd -l',
  'fd --list-details ts',
  // git: reflog's writing subcommands, --output on every history or diff command, programs run
  'git reflog expire --expire=now --all',
  'git reflog delete HEAD@{0}',
  'git reflog drop',
  'git reflog main',
  'git reflog --output=x',
  'git log --output=x',
  'git diff --output x',
  'git show --output=out HEAD',
  'git rev-list --output=x HEAD',
  'git blame --output=x f',
  'git shortlog --output=x',
  'git log --ext-diff',
  'git log --textconv',
  'git blame --textc f',
  'git grep -Otouch foo',
  'git grep -nO foo',
  'git grep --open-files-in-pager=touch foo',
  'git grep --open foo',
  'git cat-file --filters HEAD:x',
  'git cat-file --text HEAD:x', // --textconv
  'git log --end-of-options --output=x',
  'git log --ext-d', // not a git option: unknown
  'git -p log',
  'git --work-tree=. status',
  // programs run by a reader
  'rg --pre ./script foo',
  'rg --pre=touch foo',
  'rg --hostname-bin=x foo',
  'rg --x-crud',
  'rg --pr foo', // rg takes no abbreviations: unknown
  'fd --exec=rm',
  'fd -x rm',
  'fd -X rm',
  'fd -Hx rm',
  'fd -e ts -X wc -l',
  'fd --exec-batch=rm',
  'find . -ok rm {} \\;',
  'find . -okdir rm {} \\;',
  'find . -execdir rm {} +',
  'find . -fprint out',
  'find . -printf "%p" -fprintf out x',
  'find . -fls out',
  'find . -frobnicate',
  // files written by readers
  'file -C -m magic',
  'file --comp -m magic',
  'file -p x',
  'tree -o out .',
  'tree -oout .',
  'tree -Po x .', // tree's -P takes the next word, -o the one after
  'tree -R -H . -L 1',
  'tree --output out .',
  'uniq - out',
  'uniq -- in out',
  'xxd in out',
  'xxd -r -p in out',
  'xxd f -r', // options end at the first operand: -r is the output file
  'xxd - out',
  'date -s 2020-01-01',
  'date --se=x',
  'date 010100002020',
  'hostname foo',
  'hostname -F f',
  'hostname --fi f',
])('an option that writes or runs a program: %s', async (command) => {
  expect(await readOnly(command)).toBe(false);
});

// Wrappers run their command, whatever the parser made of their options; xargs adds words from stdin.
test.each([
  'env --un cat rm x', // --unset=cat, then rm
  'env --ch /tmp rm x', // --chdir=/tmp, then rm
  'env -S "rm x"',
  'xargs --replace rm -rf {}',
  'xargs -I{} rm {}',
  'cat list | xargs -I{} rm {}',
  'xargs -a list rm',
  'ls | xargs sort',
  'ls | xargs -n1 sort -o out',
  'ls | xargs timeout 5 cat',
  'timeout 5 rm x',
  'timeout $t rm x',
  'nice rm x',
  'command rm x',
])('a wrapper runs what it wraps: %s', async (command) => {
  expect(await readOnly(command)).toBe(false);
});

// Words still to be expanded may become options; variables may change what a reader runs.
test.each([
  'sort $opts in',
  'rg -n foo "$dir"',
  'git log -n $N',
  'sort -{o,x}out in',
  'sort {-o,x}out in',
  'A=1 ls',
  'PATH=/tmp/x; ls',
  'env PATH=/x ls',
  'HOME=. git diff',
  'GIT_EXTERNAL_DIFF=touch git diff',
  'RIPGREP_CONFIG_PATH=rc rg foo',
  './cat x',
  '/tmp/x/ls',
])('an expansion, a variable or a program path that may change what runs: %s', async (command) => {
  expect(await readOnly(command)).toBe(false);
});

test("the bash tool's definition answers for a call, without loading the implementation", async () => {
  const bash = bashDefinition(createOutputLimits('/tmp/unused-spill'));
  expect(await bash.concurrencySafe({ command: 'sleep 0.3' })).toBe(true);
  expect(await bash.concurrencySafe({ command: 'npm install' })).toBe(false);
  expect(await bash.concurrencySafe({ command: 'sort -uo out.txt in.txt' })).toBe(false);
  expect(await bash.concurrencySafe({})).toBe(false);
  expect(await bash.concurrencySafe({ command: 42 })).toBe(false);
});
