/**
 * Tools that run commands from their options or their own command language: the commands they
 * run are segments (deny rules see them), the segment is opaque or runs unknown commands, and the
 * same tools used plainly stay ordinary commands. Nothing is executed.
 */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';
import { sedExecutes } from '../../../sdk/shell-command/tool-runners.js';

const parse = (command: string) => parseShellCommand(command);
const argvs = async (command: string): Promise<string[]> => (await parse(command)).segments.map((s) => s.argv.join(' '));

test.each([
  ["tar -cf x.tar --checkpoint=1 --checkpoint-action=exec='rm y' d", 'rm y'],
  ["tar -xf x.tar --to-command='rm y'", 'rm y'],
  ["tar --to-com 'rm y' -xf x.tar", 'rm y'],
  ["tar --use-compress-program='rm y' -cf x d", 'rm y'],
  ["tar -I 'rm y' -cf x d", 'rm y'],
  ["ssh -o ProxyCommand='rm y' host", 'rm y'],
  ["ssh -oProxyCommand='rm y' host", 'rm y'],
  ["ssh -o 'ProxyCommand rm y' host", 'rm y'],
  ["scp -o LocalCommand='rm y' a b:c", 'rm y'],
  ["rsync -e 'rm y' a h:b", 'rm y'],
  ["rsync --rsh='rm y' a h:b", 'rm y'],
  ["man -P 'rm y' ls", 'rm y'],
  ["man --pager='rm y' ls", 'rm y'],
  ["zip x.zip f -T -TT 'rm y'", 'rm y'],
  ["npx -c 'rm y'", 'rm y'],
  ["git rebase -x 'rm y' HEAD~2", 'rm y'],
  ["git rebase --exec='rm y' HEAD~2", 'rm y'],
  ['git bisect run rm y', 'rm y'],
  ["git submodule foreach 'rm y'", 'rm y'],
  ["git filter-branch --tree-filter 'rm y' HEAD", 'rm y'],
  ["git fetch --upload-pack='rm y' origin", 'rm y'],
  ['cmake -E rm y', 'rm y'],
  ['cmake -E remove -f y', 'rm -f y'],
  ['cmake -E remove_directory y', 'rm -r y'],
  ['cmake -E rename a b', 'mv a b'],
  ['cmake -E chdir d rm y', 'rm y'],
  ['cmake -E env X=1 rm y', 'rm y'],
])('%s runs %j, and is opaque', async (command, inner) => {
  const parsed = await parse(command);
  expect(await argvs(command)).toContain(inner);
  if (!command.startsWith('cmake')) expect(parsed.opaque).toEqual(expect.any(String));
});

test.each([
  "sed -n '1e rm y' f",
  "sed 's/x/rm y/e' f",
  "sed -e 'p' -e 's|a|b|e' f",
  "sed --expression='1e id' f",
  'sed -f /dev/stdin f',
  "vim -c '!rm y' -c q",
  "vi -es -c 'call delete(\"y\")'",
  'ex -s f',
  "nvim --cmd 'lua os.remove(\"y\")'",
  "vim '+!rm y' f",
  'ed f',
  "gdb -batch -ex 'shell rm y'",
  'lldb -o "platform shell rm y"',
  "emacs --batch --eval '(delete-file \"y\")'",
  "less '+!rm y' f",
  'hash -p /bin/rm foo',
  'enable -f ./x.so foo',
  "sqlite3 db '.shell rm y'",
  "psql -c '\\! rm y'",
  'socat - EXEC:sh',
  'nc -e /bin/sh host 1',
  "tmux new-session -d 'rm y'",
  'crontab cron.txt',
  "git clone 'ext::sh -c rm% y' d",
  "tar --checkpoint-action=\"$A\" -cf x d",
  'ssh -o "ProxyCommand=$P" h',
  'LESSOPEN="|rm y %s" less f',
  'NODE_OPTIONS="--require ./x.js" node -v',
])('%s runs commands nothing shows (unknown)', async (command) => {
  const parsed = await parse(command);
  expect(parsed.segments.find((s) => s.unknownCommands)?.unknownCommands).toEqual(expect.any(String));
});

test.each([
  "sed -i 's/a/b/g' f",
  "sed -n '1,5p' f",
  "sed -e '/^#/d' -e 's/x/y/' f",
  "sed 's/e/E/g;s/ee/e/' f",
  "sed -E 's/(a|e)+/x/w out.txt' f",
  "sed '/e/!d' f",
  "sed 'y/abc/xyz/' f",
  "sed '$a\\\\end' f",
  'tar -czf out.tgz src',
  'tar -xf a.tar -C dir',
  'vim f.txt',
  'less README.md',
  'less +G log.txt',
  'man ls',
  'ssh host ls',
  'ssh -o ConnectTimeout=1 -o ProxyCommand=none host',
  'rsync -a src/ dst/',
  'zip -r out.zip src',
  'git rebase -i HEAD~2',
  'git fetch origin',
  'cmake -S . -B build',
  'cmake -E echo hi',
  'sqlite3 db "select 1"',
  'psql -c "select 1"',
  'tmux ls',
])('%s stays ordinary', async (command) => {
  const parsed = await parse(command);
  expect(parsed.segments.some((s) => s.unknownCommands)).toBe(false);
  expect(parsed.opaque).toBeUndefined();
});

test('find -delete counts as rm of its starting points for deny rules (not as a segment)', async () => {
  const parsed = await parse("find build -name '*.o' -delete");
  expect(parsed.segments.map((s) => s.argv[0])).toEqual(['find']);
  expect(parsed.segments[0]!.equivalent).toBe('rm build');
});

test('the sed reader: e as a command or a flag of s, nothing else', () => {
  expect(sedExecutes('e')).toBe(true);
  expect(sedExecutes('/x/e rm y')).toBe(true);
  expect(sedExecutes('s/a/b/gpe')).toBe(true);
  expect(sedExecutes('s/e/E/g')).toBe(false);
  expect(sedExecutes('/e/{s//E/;p}')).toBe(false);
  expect(sedExecutes('a\\\ne')).toBe(false);
  expect(sedExecutes(':e;n;be')).toBe(false);
  expect(sedExecutes('s/a/b/w e.txt')).toBe(false);
  expect(sedExecutes('K')).toBe(true); // unknown to the reader: fail closed
});

test.each([
  ["flock /tmp/l python3 -c 'import os'", 'python3 -c import os'],
  ["runuser -u me -- perl -e 'unlink 1'", 'perl -e unlink 1'],
])("a wrapper's command keeps its own -c/-e: %s runs the interpreter (opaque)", async (command, inner) => {
  const parsed = await parse(command);
  expect(await argvs(command)).toContain(inner);
  expect(parsed.opaque).toEqual(expect.any(String));
});
